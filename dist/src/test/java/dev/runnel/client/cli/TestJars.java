package dev.runnel.client.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/** Builds user jars for the CLI tests: compiled from source here (so the classes exist only in the jar), or copied. */
final class TestJars {

    private TestJars() {}

    /**
     * Compiles {@code sources} (class name → source) against the test class path into a jar at {@code jar},
     * with {@code mainClass} (may be null) as its manifest's Main-Class.
     */
    static Path compile(Path workDir, Path jar, Map<String, String> sources, String mainClass) throws IOException {
        Path src = Files.createDirectories(workDir.resolve("src-" + jar.getFileName()));
        Path classes = Files.createDirectories(workDir.resolve("classes-" + jar.getFileName()));
        List<String> args = new ArrayList<>(List.of("-d", classes.toString(), "-classpath",
                System.getProperty("java.class.path"), "-proc:none", "-nowarn"));
        for (Map.Entry<String, String> source : sources.entrySet()) {
            Path file = src.resolve(source.getKey().replace('.', '/') + ".java");
            Files.createDirectories(file.getParent());
            Files.writeString(file, source.getValue());
            args.add(file.toString());
        }
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        if (compiler.run(null, null, System.err, args.toArray(String[]::new)) != 0) {
            throw new AssertionError("the test job did not compile; see stderr");
        }
        return jar(classes, "", jar, mainClass);
    }

    /** A jar of the classes of package {@code packageName} found on the test class path (dir or jar). */
    static Path ofPackage(Class<?> anyClassOfIt, Path jar, String mainClass) throws IOException {
        String prefix = anyClassOfIt.getPackageName().replace('.', '/') + "/";
        URL url = anyClassOfIt.getResource(anyClassOfIt.getSimpleName() + ".class");
        if (url == null) {
            throw new AssertionError("cannot find the class file of " + anyClassOfIt);
        }
        if ("jar".equals(url.getProtocol())) {
            JarURLConnection connection = (JarURLConnection) url.openConnection();
            try (JarFile source = connection.getJarFile(); JarOutputStream out = open(jar, mainClass)) {
                for (JarEntry entry : Collections.list(source.entries())) {
                    if (entry.getName().startsWith(prefix) && !entry.isDirectory()
                            && entry.getName().indexOf('/', prefix.length()) < 0) {
                        try (InputStream in = source.getInputStream(entry)) {
                            add(out, entry.getName(), in);
                        }
                    }
                }
            }
            return jar;
        }
        try {
            Path classFile = Path.of(url.toURI());
            Path root = classFile.getParent();
            for (int i = 0; i < prefix.split("/").length; i++) {
                root = root.getParent();
            }
            return jar(root, prefix, jar, mainClass);
        } catch (URISyntaxException e) {
            throw new IOException(e);
        }
    }

    /** A jar of the files under {@code root}/{@code prefix} (directly in it, if prefix is a package), named relative to root. */
    private static Path jar(Path root, String prefix, Path jar, String mainClass) throws IOException {
        try (JarOutputStream out = open(jar, mainClass); Stream<Path> files = Files.walk(root.resolve(prefix))) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                String name = root.relativize(file).toString().replace('\\', '/');
                if (!prefix.isEmpty() && name.indexOf('/', prefix.length()) >= 0) {
                    continue;
                }
                try (InputStream in = Files.newInputStream(file)) {
                    add(out, name, in);
                }
            }
        }
        return jar;
    }

    private static JarOutputStream open(Path jar, String mainClass) throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        if (mainClass != null) {
            manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, mainClass);
        }
        OutputStream file = Files.newOutputStream(jar);
        return new JarOutputStream(file, manifest);
    }

    private static void add(JarOutputStream out, String name, InputStream in) throws IOException {
        out.putNextEntry(new JarEntry(name));
        in.transferTo(out);
        out.closeEntry();
    }
}
