package dev.runnel.api.java.typeutils.runtime.kryo;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Class names as a user writes them in Java source, for error messages: {@code long[]} rather than
 * the JVM's {@code [J}, {@code java.lang.String[][]} rather than {@code [[Ljava.lang.String;}, and
 * {@code com.example.Order.Item} rather than {@code com.example.Order$Item}. A message that tells the
 * user to write {@code registerKryoType(X.class)} is only right if X is spelled that way. Stateless.
 */
final class ClassNames {

    /** A class name in parentheses, as Kryo writes them into its serialization trace. */
    private static final Pattern PARENTHESIZED = Pattern.compile("\\(([\\w.$]+)\\)");

    private ClassNames() {}

    /**
     * The canonical name; for a local or anonymous class, which has none, the binary name (the best
     * there is), with {@code []} per array dimension.
     */
    static String sourceName(Class<?> c) {
        if (c.getCanonicalName() != null) {
            return c.getCanonicalName();
        }
        return c.isArray() ? sourceName(c.getComponentType()) + "[]" : c.getName();
    }

    /**
     * {@code text} with every class name in parentheses replaced by its {@link #sourceName}, looking
     * the names up where {@code near} was loaded from (or where Runnel was, for JDK classes such as
     * {@code long[]}); names that cannot be found there are left as they are.
     */
    static String inParentheses(String text, Class<?> near) {
        ClassLoader loader = near.getClassLoader() != null ? near.getClassLoader() : ClassNames.class.getClassLoader();
        Matcher m = PARENTHESIZED.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement("(" + sourceName(m.group(1), loader) + ")"));
        }
        return m.appendTail(out).toString();
    }

    private static String sourceName(String binaryName, ClassLoader loader) {
        try {
            return sourceName(Class.forName(binaryName, false, loader));
        } catch (ClassNotFoundException | LinkageError e) {
            return binaryName;
        }
    }
}
