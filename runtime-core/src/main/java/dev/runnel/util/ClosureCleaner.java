package dev.runnel.util;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Drops the hidden reference that an anonymous or inner class keeps to its enclosing object
 * ({@code this$0}) when the class never reads it, as Flink's closure cleaner does. Without this, a
 * function written as an anonymous class inside an instance method could not be shipped whenever the
 * enclosing object is not serializable, although the function does not use it.
 *
 * <p>Whether the reference is read is decided from the class file: the class's methods (constructors
 * excluded) are searched for a {@code getfield} of that field. The search is conservative — a byte
 * sequence that merely looks like such an instruction counts as a read — so a reference is only ever
 * dropped when it is certainly unused. Classes with nested classes of their own are left alone (those
 * could read the reference through the outer object). Fields that hold further anonymous functions are
 * cleaned too. Stateless; thread-safe.
 */
public final class ClosureCleaner {

    private static final int GETFIELD = 0xB4;

    private ClosureCleaner() {}

    /** Cleans {@code function} (and anonymous functions in its fields) in place. */
    public static void clean(Object function) {
        clean(function, new IdentityHashMap<>(), 0);
    }

    private static void clean(Object object, Map<Object, Boolean> visited, int depth) {
        if (object == null || depth > 8 || visited.put(object, Boolean.TRUE) != null) {
            return;
        }
        Class<?> type = object.getClass();
        if (isJdkOrLibrary(type)) {
            return;
        }
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                if (Modifier.isStatic(field.getModifiers())) {
                    continue;
                }
                if (field.isSynthetic() && field.getName().startsWith("this$")) {
                    dropIfUnused(object, c, field);
                } else if (!Modifier.isTransient(field.getModifiers()) && !field.getType().isPrimitive()) {
                    Object value = read(object, field);
                    if (value != null && (value.getClass().isAnonymousClass() || value.getClass().isLocalClass())) {
                        clean(value, visited, depth + 1);
                    }
                }
            }
        }
    }

    private static void dropIfUnused(Object object, Class<?> declaringClass, Field field) {
        if (declaringClass.getDeclaredClasses().length > 0 || readsField(declaringClass, field.getName())) {
            return;
        }
        try {
            field.setAccessible(true);
            field.set(object, null);
        } catch (ReflectiveOperationException | RuntimeException e) {
            // Cannot clean (e.g. a hidden class): leave it; serialization reports the problem if any.
        }
    }

    private static Object read(Object object, Field field) {
        try {
            field.setAccessible(true);
            return field.get(object);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    private static boolean isJdkOrLibrary(Class<?> type) {
        String name = type.getName();
        return type.isArray() || type.isPrimitive() || name.startsWith("java.") || name.startsWith("javax.")
                || name.startsWith("jdk.") || name.startsWith("sun.");
    }

    /** Whether any non-constructor method of {@code type} may execute {@code getfield <type>.<fieldName>}. */
    static boolean readsField(Class<?> type, String fieldName) {
        String resource = type.getName().substring(type.getName().lastIndexOf('.') + 1) + ".class";
        try (InputStream stream = type.getResourceAsStream(resource)) {
            if (stream == null) {
                return true;
            }
            return new ClassFileScan(new DataInputStream(stream), type.getName().replace('.', '/'), fieldName).readsField();
        } catch (IOException | RuntimeException e) {
            return true;
        }
    }

    /** Just enough of the class file format to find field reads in method bodies. */
    private static final class ClassFileScan {
        private final DataInputStream in;
        private final String owner;
        private final String fieldName;
        private String[] utf8;
        private int[][] entries;

        ClassFileScan(DataInputStream in, String owner, String fieldName) {
            this.in = in;
            this.owner = owner;
            this.fieldName = fieldName;
        }

        boolean readsField() throws IOException {
            if (in.readInt() != 0xCAFEBABE) {
                return true;
            }
            in.readUnsignedShort();
            in.readUnsignedShort();
            readConstantPool();
            Set<Integer> targets = fieldRefs();
            if (targets.isEmpty()) {
                return false;
            }
            in.readUnsignedShort(); // access flags
            in.readUnsignedShort(); // this
            in.readUnsignedShort(); // super
            skip(2 * in.readUnsignedShort()); // interfaces
            int fields = in.readUnsignedShort();
            for (int i = 0; i < fields; i++) {
                skip(6);
                skipAttributes();
            }
            int methods = in.readUnsignedShort();
            for (int i = 0; i < methods; i++) {
                in.readUnsignedShort();
                String name = utf8[in.readUnsignedShort()];
                in.readUnsignedShort();
                int attributes = in.readUnsignedShort();
                for (int a = 0; a < attributes; a++) {
                    String attribute = utf8[in.readUnsignedShort()];
                    int length = in.readInt();
                    byte[] body = in.readNBytes(length);
                    if (attribute.equals("Code") && !name.equals("<init>") && codeReads(body, targets)) {
                        return true;
                    }
                }
            }
            return false;
        }

        private static boolean codeReads(byte[] codeAttribute, Set<Integer> targets) {
            int codeLength = ((codeAttribute[4] & 0xFF) << 24) | ((codeAttribute[5] & 0xFF) << 16)
                    | ((codeAttribute[6] & 0xFF) << 8) | (codeAttribute[7] & 0xFF);
            int start = 8;
            for (int i = start; i + 2 < start + codeLength; i++) {
                if ((codeAttribute[i] & 0xFF) == GETFIELD) {
                    int index = ((codeAttribute[i + 1] & 0xFF) << 8) | (codeAttribute[i + 2] & 0xFF);
                    if (targets.contains(index)) {
                        return true;
                    }
                }
            }
            return false;
        }

        private void readConstantPool() throws IOException {
            int count = in.readUnsignedShort();
            utf8 = new String[count];
            entries = new int[count][];
            for (int i = 1; i < count; i++) {
                int tag = in.readUnsignedByte();
                switch (tag) {
                    case 1 -> utf8[i] = in.readUTF();
                    case 3, 4 -> skip(4);
                    case 5, 6 -> {
                        skip(8);
                        i++;
                    }
                    case 7, 8, 16, 19, 20 -> entries[i] = new int[] {tag, in.readUnsignedShort()};
                    case 9, 10, 11, 12, 17, 18 -> entries[i] = new int[] {tag, in.readUnsignedShort(), in.readUnsignedShort()};
                    case 15 -> {
                        in.readUnsignedByte();
                        in.readUnsignedShort();
                    }
                    default -> throw new IOException("unknown constant pool tag " + tag);
                }
            }
        }

        /** Constant-pool indexes of Fieldrefs to {@code owner.fieldName}. */
        private Set<Integer> fieldRefs() {
            Set<Integer> refs = new HashSet<>();
            for (int i = 1; i < entries.length; i++) {
                int[] e = entries[i];
                if (e == null || e[0] != 9) {
                    continue;
                }
                int[] cls = entries[e[1]];
                int[] nameAndType = entries[e[2]];
                if (cls != null && nameAndType != null && owner.equals(utf8[cls[1]])
                        && fieldName.equals(utf8[nameAndType[1]])) {
                    refs.add(i);
                }
            }
            return refs;
        }

        private void skipAttributes() throws IOException {
            int attributes = in.readUnsignedShort();
            for (int a = 0; a < attributes; a++) {
                in.readUnsignedShort();
                skip(in.readInt());
            }
        }

        private void skip(int n) throws IOException {
            in.skipNBytes(n);
        }
    }
}
