package dev.runnel.util;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.NotSerializableException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.Serializable;

/**
 * Java serialization of job parts (operators, user functions) with messages that say which part
 * could not be serialized and why. Only for the job's own objects, never for data.
 */
public final class InstantiationUtil {

    private InstantiationUtil() {}

    /** Serializes {@code object}; a non-serializable part fails naming {@code what} and the class. */
    public static byte[] serialize(Object object, String what) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(object);
        } catch (NotSerializableException e) {
            throw new IllegalArgumentException("The " + what + " is not serializable: it holds an instance of "
                    + e.getMessage() + ", which does not implement java.io.Serializable. Functions are shipped to "
                    + "every subtask, so whatever they capture must be serializable: make that field transient and "
                    + "create it in open(), or make its class serializable.", e);
        } catch (IOException e) {
            throw new IllegalArgumentException("The " + what + " could not be serialized: " + e, e);
        }
        return bytes.toByteArray();
    }

    /** Deserializes bytes written by {@link #serialize} with {@code classLoader}. */
    @SuppressWarnings("unchecked")
    public static <T> T deserialize(byte[] bytes, ClassLoader classLoader, String what) {
        try (ObjectInputStream in = new ClassLoaderObjectInputStream(new ByteArrayInputStream(bytes), classLoader)) {
            return (T) in.readObject();
        } catch (IOException | ClassNotFoundException e) {
            throw new IllegalStateException("The " + what + " could not be deserialized: " + e, e);
        }
    }

    /** A deep copy through serialization. */
    public static <T extends Serializable> T clone(T object, String what) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        return deserialize(serialize(object, what), loader != null ? loader : object.getClass().getClassLoader(), what);
    }

    private static final class ClassLoaderObjectInputStream extends ObjectInputStream {
        private final ClassLoader classLoader;

        ClassLoaderObjectInputStream(InputStream in, ClassLoader classLoader) throws IOException {
            super(in);
            this.classLoader = classLoader;
        }

        @Override
        protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
            try {
                return Class.forName(desc.getName(), false, classLoader);
            } catch (ClassNotFoundException e) {
                return super.resolveClass(desc);
            }
        }
    }
}
