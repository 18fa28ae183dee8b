package dev.runnel.examples.port;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * The {@code dev.runnel} classes and packages of a class path (directories and jars), read from the
 * class files' names without loading any class. Runnel's own examples are left out: they are not
 * something a ported job can use. Immutable after construction.
 */
public final class ClassIndex {

    private static final String PREFIX = "dev/runnel/";
    private static final String EXAMPLES = "dev/runnel/examples/";

    private final Set<String> classes = new HashSet<>();
    private final Set<String> packages = new HashSet<>();

    /** The index of {@code classPath} (entries separated by the platform's path separator). */
    public static ClassIndex of(String classPath) {
        ClassIndex index = new ClassIndex();
        for (String entry : classPath.split(File.pathSeparator)) {
            if (!entry.isEmpty()) {
                index.addEntry(Path.of(entry));
            }
        }
        return index;
    }

    /** Is there a class of this binary name (nested classes with {@code $})? */
    public boolean hasClass(String binaryName) {
        return classes.contains(binaryName);
    }

    /** Does some class of the index live in this package? */
    public boolean hasPackage(String name) {
        return packages.contains(name);
    }

    private void addEntry(Path entry) {
        try {
            if (Files.isDirectory(entry)) {
                try (Stream<Path> files = Files.walk(entry)) {
                    files.forEach(f -> addClassFile(entry.relativize(f).toString().replace(File.separatorChar, '/')));
                }
            } else if (Files.isRegularFile(entry) && entry.toString().endsWith(".jar")) {
                try (JarFile jar = new JarFile(entry.toFile())) {
                    jar.stream().map(JarEntry::getName).forEach(this::addClassFile);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read class path entry " + entry + ": " + e.getMessage(), e);
        }
    }

    private void addClassFile(String path) {
        if (!path.startsWith(PREFIX) || path.startsWith(EXAMPLES) || !path.endsWith(".class")) {
            return;
        }
        String name = path.substring(0, path.length() - ".class".length()).replace('/', '.');
        classes.add(name);
        for (int dot = name.lastIndexOf('.'); dot > 0; dot = name.lastIndexOf('.', dot - 1)) {
            packages.add(name.substring(0, dot));
        }
    }
}
