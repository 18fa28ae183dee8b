package dev.runnel.client.program;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.examples.wordcount.WordCount;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The user's jar wins for its own classes (and for Runnel's examples, which ship as user jars); the JDK, logging
 * and Runnel itself always come from the parent, so the CLI's context environment is the one the program sees.
 */
class ChildFirstClassLoaderTest {

    @Test
    void runnelComesFromTheParentAndTheJobsClassesFromTheJar(@TempDir Path dir) throws Exception {
        Path jar = dir.resolve("user.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            copy(out, StreamExecutionEnvironment.class); // a copy of Runnel inside the user's jar
            copy(out, WordCount.class);
        }
        try (ChildFirstClassLoader loader = new ChildFirstClassLoader(new URL[] {jar.toUri().toURL()},
                getClass().getClassLoader())) {
            assertThat(loader.loadClass(StreamExecutionEnvironment.class.getName()))
                    .as("Runnel's own classes are never taken from the user's jar")
                    .isSameAs(StreamExecutionEnvironment.class);
            assertThat(loader.loadClass(WordCount.class.getName()).getClassLoader())
                    .as("an example is user code: the jar's copy wins").isSameAs(loader);
            assertThat(loader.loadClass(String.class.getName())).isSameAs(String.class);
            assertThat(loader.loadClass(getClass().getName())).as("not in the jar: from the parent")
                    .isSameAs(getClass());
        }
        assertThat(ChildFirstClassLoader.parentFirst("org.slf4j.Logger")).isTrue();
        assertThat(ChildFirstClassLoader.parentFirst("com.example.MyJob")).isFalse();
        assertThat(ChildFirstClassLoader.parentFirst("com.google.common.collect.Lists")).isFalse();
    }

    private static void copy(JarOutputStream out, Class<?> type) throws IOException {
        String name = type.getName().replace('.', '/') + ".class";
        out.putNextEntry(new JarEntry(name));
        try (InputStream in = type.getClassLoader().getResourceAsStream(name)) {
            in.transferTo(out);
        }
        out.closeEntry();
    }
}
