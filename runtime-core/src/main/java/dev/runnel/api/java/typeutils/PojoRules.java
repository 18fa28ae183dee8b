package dev.runnel.api.java.typeutils;

import dev.runnel.api.common.functions.InvalidTypesException;
import java.lang.reflect.AccessibleObject;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * Flink's rules for what makes a class a POJO type, checked on its structure (the types of its
 * fields are the type extractor's business). A class is a POJO if
 * <ol>
 *   <li>it is a public class (not an interface), and static if it is nested;</li>
 *   <li>it has at least one non-static, non-transient field, counting those of its superclasses, and
 *       no two of them share a name;</li>
 *   <li>each such field is public, or has a public getter and a public setter: the getter named
 *       {@code getX}, {@code isX} or {@code x}, without parameters, returning the field's type (or
 *       its boxed type); the setter named {@code setX}, with one parameter of the field's type,
 *       returning {@code void} or the class itself. Names match ignoring case and underscores, as in
 *       Flink ({@code getuser_id} is a getter of {@code userId});</li>
 *   <li>neither it nor a superclass declares {@code readObject} or {@code writeObject} (custom Java
 *       serialization that a field-wise serializer would not run);</li>
 *   <li>it has a public no-argument constructor, unless it is abstract;</li>
 *   <li>and, beyond Flink, Runnel can access its fields and constructor (a module that does not open
 *       the class's package to Runnel makes it a generic type).</li>
 * </ol>
 * Stateless; safe from any thread.
 */
final class PojoRules {

    private PojoRules() {}

    /** Either the fields of a POJO-shaped class (unsorted) or, for other classes, why it is not one. */
    record Verdict(List<Field> fields, String reason) {
        boolean isPojo() {
            return reason == null;
        }

        static Verdict no(String reason, Object... args) {
            return new Verdict(List.of(), String.format(reason, args));
        }
    }

    /**
     * Checks {@code c} against the rules; {@code resolve} maps a type variable in a field or accessor
     * type to what it is bound to, so that a getter of {@code String} matches a field declared as
     * {@code T} in a superclass that the class binds to {@code String}.
     */
    static Verdict check(Class<?> c, UnaryOperator<Type> resolve) {
        Verdict shape = checkClass(c);
        if (shape != null) {
            return shape;
        }
        List<Field> fields;
        try {
            fields = allDeclaredFields(c, false);
        } catch (InvalidTypesException e) {
            return Verdict.no("%s", e.getMessage());
        }
        if (fields.isEmpty()) {
            return Verdict.no("it has no fields (no non-static, non-transient fields in it or its superclasses)");
        }
        for (Field f : fields) {
            String problem = fieldProblem(f, c, resolve);
            if (problem != null) {
                return Verdict.no("%s", problem);
            }
        }
        Verdict rest = checkSerializationMethodsAndConstructor(c);
        if (rest != null) {
            return rest;
        }
        for (Field f : fields) {
            if (!accessible(f)) {
                return inaccessible(c);
            }
        }
        return new Verdict(fields, null);
    }

    /**
     * Why a class that ended up as a generic type is not a POJO, for error messages; null where the
     * question does not arise (JDK classes, arrays, interfaces and the like) or the class is POJO-shaped.
     */
    static String whyNotPojo(Class<?> c) {
        if (c.isPrimitive() || c.isArray() || c.isEnum() || c.isRecord() || c.isInterface() || isJdk(c)) {
            return null;
        }
        Verdict verdict = check(c, UnaryOperator.identity());
        return verdict.isPojo() ? null : verdict.reason();
    }

    /**
     * The non-static, non-transient fields of {@code c} and its superclasses, the class's own first.
     *
     * @throws InvalidTypesException if two of them share a name and {@code ignoreDuplicates} is false;
     *     with it true, only the one lowest in the hierarchy is kept
     */
    static List<Field> allDeclaredFields(Class<?> c, boolean ignoreDuplicates) {
        List<Field> result = new ArrayList<>();
        for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
            for (Field f : k.getDeclaredFields()) {
                int mods = f.getModifiers();
                if (Modifier.isStatic(mods) || Modifier.isTransient(mods) || f.isSynthetic()) {
                    continue;
                }
                Field same = byName(result, f.getName());
                if (same == null) {
                    result.add(f);
                } else if (!ignoreDuplicates) {
                    throw new InvalidTypesException(String.format(
                            "the field name '%s' is used by both %s and its superclass %s; POJO field names must be"
                                    + " unique in the class hierarchy",
                            f.getName(), same.getDeclaringClass().getName(), k.getName()));
                }
            }
        }
        return result;
    }

    private static Field byName(List<Field> fields, String name) {
        for (Field f : fields) {
            if (f.getName().equals(name)) {
                return f;
            }
        }
        return null;
    }

    private static Verdict checkClass(Class<?> c) {
        if (c.isInterface()) {
            return Verdict.no("it is an interface");
        }
        if (c.isAnonymousClass() || c.isLocalClass()) {
            return Verdict.no("it is %s class; POJOs must be public top-level or static nested classes",
                    c.isAnonymousClass() ? "an anonymous" : "a local");
        }
        if (!Modifier.isPublic(c.getModifiers())) {
            return Verdict.no("it is not public");
        }
        if (c.isMemberClass() && !Modifier.isStatic(c.getModifiers())) {
            return Verdict.no("it is an inner class (nested, but not static): declare it static");
        }
        return null;
    }

    private static Verdict checkSerializationMethodsAndConstructor(Class<?> c) {
        for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
            for (Method m : k.getDeclaredMethods()) {
                if (m.getName().equals("readObject") || m.getName().equals("writeObject")) {
                    return Verdict.no("%s declares %s (custom Java serialization, which a field-wise serializer would"
                            + " not run)", k == c ? "it" : "its superclass " + k.getName(), m.getName());
                }
            }
        }
        Constructor<?> constructor;
        try {
            constructor = c.getDeclaredConstructor();
        } catch (NoSuchMethodException e) {
            return Modifier.isAbstract(c.getModifiers()) ? null : Verdict.no("it has no no-argument constructor");
        }
        if (!Modifier.isPublic(constructor.getModifiers())) {
            return Verdict.no("its no-argument constructor is not public");
        }
        return accessible(constructor) ? null : inaccessible(c);
    }

    private static boolean accessible(AccessibleObject member) {
        try {
            return member.trySetAccessible();
        } catch (SecurityException e) {
            return false;
        }
    }

    private static Verdict inaccessible(Class<?> c) {
        return Verdict.no("Runnel cannot access its fields: the module %s does not open the package %s to Runnel",
                c.getModule().getName(), c.getPackageName());
    }

    /** Null if {@code f} is a valid POJO field of {@code c}, else what is wrong with it. */
    private static String fieldProblem(Field f, Class<?> c, UnaryOperator<Type> resolve) {
        if (Modifier.isPublic(f.getModifiers())) {
            return null;
        }
        String name = normalized(f.getName());
        boolean getter = false;
        boolean setter = false;
        for (Method m : c.getMethods()) {
            if (Modifier.isStatic(m.getModifiers())) {
                continue;
            }
            getter |= isGetter(m, name, f, resolve);
            setter |= isSetter(m, name, f, c, resolve);
        }
        if (getter && setter) {
            return null;
        }
        String x = Character.toUpperCase(f.getName().charAt(0)) + f.getName().substring(1);
        String type = f.getType().getSimpleName();
        String missing = !getter && !setter
                ? String.format("neither a public getter get%s() or is%s() nor a public setter set%s(%s)", x, x, x, type)
                : !getter ? String.format("no public getter get%s() or is%s() returning %s", x, x, type)
                : String.format("no public setter set%s(%s)", x, type);
        return String.format("its field '%s' (declared by %s) is not public and has %s", f.getName(),
                f.getDeclaringClass().getName(), missing);
    }

    private static boolean isGetter(Method m, String name, Field f, UnaryOperator<Type> resolve) {
        String n = normalized(m.getName());
        return (n.equals("get" + name) || n.equals("is" + name) || n.equals(name))
                && m.getParameterCount() == 0
                && sameType(m.getGenericReturnType(), m.getReturnType(), f, resolve);
    }

    private static boolean isSetter(Method m, String name, Field f, Class<?> c, UnaryOperator<Type> resolve) {
        String raw = m.getName();
        boolean scala = raw.endsWith("_$eq");
        String n = normalized(scala ? raw.substring(0, raw.length() - 4) : raw);
        return (scala ? n.equals(name) : n.equals("set" + name))
                && m.getParameterCount() == 1
                && sameType(m.getGenericParameterTypes()[0], m.getParameterTypes()[0], f, resolve)
                && (m.getReturnType() == void.class || m.getReturnType() == c);
    }

    /** An accessor type matches the field's: the same generic type, the same (boxed) class, or the same after binding. */
    private static boolean sameType(Type generic, Class<?> raw, Field f, UnaryOperator<Type> resolve) {
        Type fieldType = f.getGenericType();
        return generic.equals(fieldType) || raw == boxed(f.getType()) || resolve.apply(generic).equals(resolve.apply(fieldType));
    }

    private static String normalized(String name) {
        return name.toLowerCase(Locale.ROOT).replace("_", "");
    }

    private static Class<?> boxed(Class<?> c) {
        if (!c.isPrimitive()) {
            return c;
        }
        return c == int.class ? Integer.class : c == long.class ? Long.class : c == boolean.class ? Boolean.class
                : c == double.class ? Double.class : c == float.class ? Float.class : c == short.class ? Short.class
                : c == byte.class ? Byte.class : c == char.class ? Character.class : Void.class;
    }

    private static boolean isJdk(Class<?> c) {
        String name = c.getName();
        return name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.")
                || name.startsWith("sun.") || name.startsWith("com.sun.");
    }
}
