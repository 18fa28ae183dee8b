package dev.runnel.api.common;

import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.util.Preconditions;
import java.io.Serializable;
import java.util.Set;

/**
 * The per-job settings a user reaches as {@code env.getConfig()}: serialization (delegating to a
 * {@link SerializerConfig}), object reuse, and the periodic watermark interval. Parallelism settings
 * live on the environment, not here.
 *
 * <p>A plain mutable object, configured on one thread before the job is built, then shipped with it
 * (it is {@link Serializable}); not thread-safe.
 */
public final class ExecutionConfig implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Flink's default for the periodic watermark interval. */
    public static final long DEFAULT_AUTO_WATERMARK_INTERVAL_MS = 200;

    private final SerializerConfig serializerConfig = new SerializerConfig();
    private boolean objectReuse;
    private long autoWatermarkIntervalMs = DEFAULT_AUTO_WATERMARK_INTERVAL_MS;

    /** The serialization settings (never null). */
    public SerializerConfig getSerializerConfig() {
        return serializerConfig;
    }

    /** Lets Kryo read and write {@code type}; see {@link SerializerConfig#registerKryoType(Class)}. */
    public void registerKryoType(Class<?> type) {
        serializerConfig.registerKryoType(type);
    }

    /** The classes registered with Kryo, in registration order. */
    public Set<Class<?>> getRegisteredKryoTypes() {
        return serializerConfig.getRegisteredKryoTypes();
    }

    /** Forbids the Kryo fallback; see {@link SerializerConfig#disableGenericTypes()}. */
    public void disableGenericTypes() {
        serializerConfig.disableGenericTypes();
    }

    /** Allows the Kryo fallback again (the default). */
    public void enableGenericTypes() {
        serializerConfig.enableGenericTypes();
    }

    /** Whether the Kryo fallback is forbidden. */
    public boolean hasGenericTypesDisabled() {
        return serializerConfig.hasGenericTypesDisabled();
    }

    /**
     * Lets the runtime hand the same object to several chained operators, and reuse objects when
     * deserializing, instead of copying. Faster, but user functions must then neither keep references
     * to their input records nor modify them after emitting. Off by default, as in Flink.
     */
    public ExecutionConfig enableObjectReuse() {
        objectReuse = true;
        return this;
    }

    /** Copies records between chained operators (the default): safe for any user function. */
    public ExecutionConfig disableObjectReuse() {
        objectReuse = false;
        return this;
    }

    /** Whether object reuse is on. */
    public boolean isObjectReuseEnabled() {
        return objectReuse;
    }

    /**
     * How often, in milliseconds, periodic watermark generators are asked for a watermark; 0 turns
     * periodic watermarks off. Default 200.
     */
    public ExecutionConfig setAutoWatermarkInterval(long intervalMs) {
        Preconditions.checkArgument(intervalMs >= 0,
                "the auto watermark interval must be >= 0 ms (0 turns periodic watermarks off), got %s", intervalMs);
        autoWatermarkIntervalMs = intervalMs;
        return this;
    }

    /** The periodic watermark interval in milliseconds; 0 if periodic watermarks are off. */
    public long getAutoWatermarkInterval() {
        return autoWatermarkIntervalMs;
    }

    @Override
    public String toString() {
        return "ExecutionConfig{objectReuse=" + objectReuse + ", autoWatermarkInterval=" + autoWatermarkIntervalMs
                + "ms, " + serializerConfig + "}";
    }
}
