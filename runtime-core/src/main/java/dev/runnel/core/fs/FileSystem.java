package dev.runnel.core.fs;

/**
 * Where Flink's {@code FileSystem} is, for the part of it jobs name: {@link WriteMode}, what a file sink does
 * with an output that exists already. Runnel reads and writes local files through {@code java.nio} and has no
 * file system abstraction of its own yet, so this class holds nothing else. Not instantiable.
 */
public abstract class FileSystem {

    /** What writing to an existing output path does (Flink's names). */
    public enum WriteMode {
        /** The job refuses to write over an existing file or directory. */
        NO_OVERWRITE,
        /** Existing output is replaced. */
        OVERWRITE
    }

    private FileSystem() {}
}
