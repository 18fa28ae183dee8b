package dev.runnel.api.java.typeutils.runtime.kryo;

import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Finds, ahead of time, classes Kryo will need registered to serialize a type: the type itself, and
 * the declared types of its non-static, non-transient fields, recursively, with their type arguments
 * and array components. Each finding names the field path and the class as Java source spells it,
 * e.g. {@code Order.items (java.util.ArrayList)}, {@code Order.prices (long[])}.
 *
 * <p>Best-effort, from declared types only: fields declared as interfaces, abstract classes or
 * {@code Object} are skipped (their runtime classes are unknown), and a concrete declared type is
 * assumed to be the runtime type. JDK classes are checked but not entered, since Kryo writes them with
 * its own serializers rather than field by field. Not thread-safe; use one instance per check.
 */
final class KryoRegistrationCheck {

    /** One class Kryo would need and where it was found. */
    record Missing(String path, Class<?> type) {
        @Override
        public String toString() {
            return path + " (" + ClassNames.sourceName(type) + ")";
        }
    }

    private final Predicate<Class<?>> isRegistered;
    private final Set<Class<?>> entered = new HashSet<>();
    private final Set<Class<?>> reported = new HashSet<>();
    private final List<Missing> missing = new ArrayList<>();

    private KryoRegistrationCheck(Predicate<Class<?>> isRegistered) {
        this.isRegistered = isRegistered;
    }

    /** The unregistered classes reachable from {@code root}, each once, in the order found. */
    static List<Missing> findUnregistered(Class<?> root, Predicate<Class<?>> isRegistered) {
        KryoRegistrationCheck check = new KryoRegistrationCheck(isRegistered);
        check.visitClass(root, root.getSimpleName().isEmpty() ? root.getName() : root.getSimpleName());
        return check.missing;
    }

    private void visitType(Type type, String path) {
        if (type instanceof Class<?> c) {
            visitClass(c, path);
        } else if (type instanceof ParameterizedType p && p.getRawType() instanceof Class<?> raw) {
            visitClass(raw, path);
            Type[] args = p.getActualTypeArguments();
            TypeVariable<?>[] params = raw.getTypeParameters();
            for (int i = 0; i < args.length; i++) {
                String name = i < params.length ? params[i].getName() : String.valueOf(i);
                visitType(args[i], path + "<" + name + ">");
            }
        } else if (type instanceof GenericArrayType g) {
            visitType(g.getGenericComponentType(), path + "[]");
        }
        // Type variables and wildcards: the runtime class is unknown.
    }

    private void visitClass(Class<?> c, String path) {
        if (c.isPrimitive()) {
            return;
        }
        if (c.isArray()) {
            require(c, path);
            visitClass(c.getComponentType(), path + "[]");
            return;
        }
        if (c == Object.class || c.isInterface() || Modifier.isAbstract(c.getModifiers())) {
            return;
        }
        require(c, path);
        if (!entered.add(c) || c.isEnum() || isJdk(c)) {
            return;
        }
        for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
            for (Field field : k.getDeclaredFields()) {
                int mods = field.getModifiers();
                if (Modifier.isStatic(mods) || Modifier.isTransient(mods) || field.isSynthetic()) {
                    continue;
                }
                visitType(field.getGenericType(), path + "." + field.getName());
            }
        }
    }

    private void require(Class<?> c, String path) {
        if (!isRegistered.test(c) && reported.add(c)) {
            missing.add(new Missing(path, c));
        }
    }

    private static boolean isJdk(Class<?> c) {
        String name = c.getName();
        return name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.")
                || name.startsWith("sun.") || name.startsWith("com.sun.");
    }
}
