package dev.runnel.dist;

import dev.runnel.dist.jobs.CountingJob;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;

/** User jars for the distribution's integration tests, made from test classes. Stateless. */
final class UserJars {

    private UserJars() {}

    /** A jar of {@link CountingJob}'s package with it as the Main-Class, in {@code folder}. */
    static Path countingJobJar(Path folder) throws Exception {
        Path jar = folder.resolve("counting-job.jar");
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, CountingJob.class.getName());
        String packagePath = CountingJob.class.getPackageName().replace('.', '/');
        Path classes = Path.of(CountingJob.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest);
                Stream<Path> files = Files.list(classes.resolve(packagePath))) {
            for (Path file : (Iterable<Path>) files::iterator) {
                out.putNextEntry(new JarEntry(packagePath + "/" + file.getFileName()));
                out.write(Files.readAllBytes(file));
                out.closeEntry();
            }
        }
        return jar;
    }
}
