package dev.runnel.core.fs;

import java.io.Serializable;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Paths;
import java.util.Objects;

/**
 * The name of a file or directory that connectors read or write, as in Flink's {@code Path}: a plain
 * local path ({@code /data/in}, {@code data/in}) or a {@code file:} URI ({@code file:///data/in}).
 * Only the local file system is supported; {@link #toLocalPath()} rejects any other scheme.
 *
 * <p>Immutable, serializable (it travels inside sources and sinks), thread-safe. {@link #toString()}
 * returns the path as given, so error messages show what the user wrote.
 */
public final class Path implements Serializable {

    private static final long serialVersionUID = 1L;

    private final String path;

    /**
     * @param path a local path or a {@code file:} URI; not null, not empty
     * @throws IllegalArgumentException if {@code path} is empty
     */
    public Path(String path) {
        Objects.requireNonNull(path, "path");
        if (path.isEmpty()) {
            throw new IllegalArgumentException("A path must not be empty");
        }
        this.path = path;
    }

    /** A path from a URI, e.g. {@code file:///tmp/out}; not null. */
    public Path(URI uri) {
        this(Objects.requireNonNull(uri, "uri").toString());
    }

    /** The child {@code child} (a relative name, not null) of {@code parent} (not null). */
    public Path(Path parent, String child) {
        this(join(Objects.requireNonNull(parent, "parent").path, Objects.requireNonNull(child, "child")));
    }

    /** The path of a local file or directory, not null. */
    public static Path fromLocalFile(java.io.File file) {
        return new Path(file.getAbsolutePath());
    }

    private static String join(String parent, String child) {
        if (child.isEmpty()) {
            throw new IllegalArgumentException("A child path must not be empty");
        }
        return parent.endsWith("/") ? parent + child : parent + "/" + child;
    }

    /** The last element of the path (the file or directory name). */
    public String getName() {
        String p = path.endsWith("/") && path.length() > 1 ? path.substring(0, path.length() - 1) : path;
        int slash = p.lastIndexOf('/');
        return slash < 0 ? p : p.substring(slash + 1);
    }

    /** The path as a URI ({@code file:} scheme for local paths without one). */
    public URI toUri() {
        return hasScheme() ? URI.create(path) : toLocalPath().toUri();
    }

    /**
     * The local file system path this names.
     *
     * @throws IllegalArgumentException if the path has a scheme other than {@code file:}
     */
    public java.nio.file.Path toLocalPath() {
        if (!hasScheme()) {
            return Paths.get(path);
        }
        try {
            URI uri = new URI(path);
            if (!"file".equalsIgnoreCase(uri.getScheme())) {
                throw new IllegalArgumentException(String.format(
                        "Path %s has the scheme '%s'; only local paths and file: URIs are supported", path,
                        uri.getScheme()));
            }
            return Paths.get(uri.getPath().isEmpty() ? "/" : uri.getPath());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(String.format("Path %s is not a valid URI: %s", path, e.getMessage()), e);
        }
    }

    private boolean hasScheme() {
        int colon = path.indexOf(':');
        // "C:" style drive letters are not schemes; a scheme is at least two characters.
        return colon > 1 && path.substring(0, colon).chars()
                .allMatch(c -> Character.isLetterOrDigit(c) || c == '+' || c == '-' || c == '.');
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Path other && path.equals(other.path);
    }

    @Override
    public int hashCode() {
        return path.hashCode();
    }

    /** The path exactly as given. */
    @Override
    public String toString() {
        return path;
    }
}
