package dev.runnel.client.program;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * A user's program in a jar, as Flink's {@code PackagedProgram}: the jar on its own
 * {@link ChildFirstClassLoader}, the entry point ({@code -c}, else the manifest's {@code Main-Class}) and the
 * program's arguments. {@link #invokeInteractiveModeForExecution()} calls {@code main} with the jar's class
 * loader as the thread's context class loader. Every problem is a {@link ProgramInvocationException} that
 * names the jar and the class. Not thread-safe; close it to release the jar.
 */
public final class PackagedProgram implements AutoCloseable {

    private final Path jar;
    private final String mainClassName;
    private final List<String> args;
    private final ChildFirstClassLoader classLoader;
    private final Method main;

    private PackagedProgram(Path jar, String mainClassName, List<String> args, ChildFirstClassLoader classLoader,
            Method main) {
        this.jar = jar;
        this.mainClassName = mainClassName;
        this.args = List.copyOf(args);
        this.classLoader = classLoader;
        this.main = main;
    }

    /**
     * The program of {@code jar}; {@code entryPointClass} null takes the manifest's {@code Main-Class}.
     *
     * @throws ProgramInvocationException if the jar cannot be read, names no main class, or the class or its
     *     {@code public static void main(String[])} is missing
     */
    public static PackagedProgram of(Path jar, String entryPointClass, List<String> args)
            throws ProgramInvocationException {
        Path file = checkJar(jar);
        String mainClassName = entryPointClass != null && !entryPointClass.isBlank() ? entryPointClass.strip()
                : manifestMainClass(file);
        ChildFirstClassLoader loader = new ChildFirstClassLoader(new URL[] {url(file)},
                PackagedProgram.class.getClassLoader());
        try {
            return new PackagedProgram(file, mainClassName, args, loader, mainMethod(file, mainClassName, loader));
        } catch (ProgramInvocationException | RuntimeException | Error e) {
            closeQuietly(loader);
            throw e;
        }
    }

    public Path getJar() {
        return jar;
    }

    public String getMainClassName() {
        return mainClassName;
    }

    /** The class loader of the user's code: what deserializes the job's functions. */
    public ClassLoader getUserCodeClassLoader() {
        return classLoader;
    }

    /**
     * Runs the program's {@code main} in this thread, with the jar's class loader as the context class loader.
     * An exception of {@code main} comes back as the cause of a {@link ProgramInvocationException}.
     */
    public void invokeInteractiveModeForExecution() throws ProgramInvocationException {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(classLoader);
        try {
            main.invoke(null, (Object) args.toArray(String[]::new));
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Error error && !(cause instanceof LinkageError)) {
                throw error;
            }
            throw new ProgramInvocationException("The program's main method failed: " + cause, cause);
        } catch (IllegalAccessException e) {
            throw new ProgramInvocationException("Cannot call " + mainClassName + ".main(): " + e.getMessage(), e);
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    @Override
    public void close() {
        closeQuietly(classLoader);
    }

    private static Path checkJar(Path jar) throws ProgramInvocationException {
        if (!Files.exists(jar)) {
            throw new ProgramInvocationException("The jar file " + jar.toAbsolutePath() + " does not exist.");
        }
        if (!Files.isRegularFile(jar) || !Files.isReadable(jar)) {
            throw new ProgramInvocationException("The jar file " + jar.toAbsolutePath()
                    + " is not a readable file.");
        }
        try (JarFile ignored = new JarFile(jar.toFile())) {
            return jar.toAbsolutePath().normalize();
        } catch (IOException e) {
            throw new ProgramInvocationException("The file " + jar.toAbsolutePath() + " is not a jar file ("
                    + e.getMessage() + ").", e);
        }
    }

    private static String manifestMainClass(Path jar) throws ProgramInvocationException {
        try (JarFile file = new JarFile(jar.toFile())) {
            Manifest manifest = file.getManifest();
            String main = manifest == null ? null : manifest.getMainAttributes().getValue("Main-Class");
            if (main == null || main.isBlank()) {
                throw new ProgramInvocationException("No main class: the jar " + jar + " has no Main-Class in its "
                        + "manifest. Name the class with -c (e.g. -c com.example.MyJob).");
            }
            return main.strip();
        } catch (IOException e) {
            throw new ProgramInvocationException("Cannot read the manifest of " + jar + ": " + e.getMessage(), e);
        }
    }

    private static Method mainMethod(Path jar, String className, ClassLoader loader)
            throws ProgramInvocationException {
        Class<?> mainClass;
        try {
            mainClass = Class.forName(className, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new ProgramInvocationException("The main class '" + className + "' was not found in " + jar
                    + (e instanceof LinkageError ? " (" + e + ")" : "") + ". Check the -c argument or the jar's "
                    + "Main-Class.", e);
        }
        try {
            Method main = mainClass.getMethod("main", String[].class);
            if (!Modifier.isStatic(main.getModifiers()) || main.getReturnType() != void.class) {
                throw new NoSuchMethodException("not static void");
            }
            return main;
        } catch (NoSuchMethodException e) {
            throw new ProgramInvocationException("The main class '" + className + "' has no "
                    + "'public static void main(String[])' method.", e);
        }
    }

    private static URL url(Path jar) throws ProgramInvocationException {
        try {
            return jar.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new ProgramInvocationException("Cannot turn " + jar + " into a URL: " + e.getMessage(), e);
        }
    }

    private static void closeQuietly(ChildFirstClassLoader loader) {
        try {
            loader.close();
        } catch (IOException e) {
            // nothing holds the jar open after this
        }
    }
}
