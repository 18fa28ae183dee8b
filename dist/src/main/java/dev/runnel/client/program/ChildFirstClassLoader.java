package dev.runnel.client.program;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

/**
 * The class loader of a user's jar, as Flink's {@code ChildFirstClassLoader}: a class is looked up in the jar
 * before the parent (so the job's own versions of libraries win), except the classes that must be the same on
 * both sides of the boundary — the JDK, logging, and Runnel itself, whose environment the CLI installs —
 * which the parent loads first. Runnel's examples are user code and load from the jar. Thread-safe.
 */
public final class ChildFirstClassLoader extends URLClassLoader {

    /** Package prefixes the parent loads first (Flink's {@code classloader.parent-first-patterns.default}, for Runnel). */
    static final List<String> PARENT_FIRST = List.of("java.", "javax.", "jdk.", "sun.", "com.sun.", "org.slf4j.",
            "ch.qos.logback.", "com.esotericsoftware.kryo.", "org.rocksdb.", "io.netty.", "dev.runnel.");

    /** Exceptions to {@link #PARENT_FIRST}: the example jobs ship as user jars. */
    static final List<String> CHILD_FIRST = List.of("dev.runnel.examples.");

    static {
        ClassLoader.registerAsParallelCapable();
    }

    public ChildFirstClassLoader(URL[] urls, ClassLoader parent) {
        super(urls, parent);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        synchronized (getClassLoadingLock(name)) {
            Class<?> loaded = findLoadedClass(name);
            if (loaded == null) {
                if (parentFirst(name)) {
                    loaded = super.loadClass(name, false);
                } else {
                    try {
                        loaded = findClass(name);
                    } catch (ClassNotFoundException notInJar) {
                        loaded = super.loadClass(name, false);
                    }
                }
            }
            if (resolve) {
                resolveClass(loaded);
            }
            return loaded;
        }
    }

    @Override
    public URL getResource(String name) {
        URL own = findResource(name);
        return own != null ? own : super.getResource(name);
    }

    @Override
    public Enumeration<URL> getResources(String name) throws IOException {
        List<URL> urls = new ArrayList<>(Collections.list(findResources(name)));
        ClassLoader parent = getParent();
        if (parent != null) {
            urls.addAll(Collections.list(parent.getResources(name)));
        }
        return Collections.enumeration(urls);
    }

    static boolean parentFirst(String className) {
        return CHILD_FIRST.stream().noneMatch(className::startsWith)
                && PARENT_FIRST.stream().anyMatch(className::startsWith);
    }
}
