package dev.runnel.api.common;

import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.util.Preconditions;
import java.io.Serializable;
import java.util.Collections;
import java.util.Map;
import java.util.Set;

/**
 * The per-job settings a user reaches as {@code env.getConfig()}: serialization (delegating to a
 * {@link SerializerConfig}), object reuse, the periodic watermark interval, and the
 * {@linkplain #setGlobalJobParameters global job parameters} every user function can read.
 * Parallelism settings live on the environment, not here.
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
    private GlobalJobParameters globalJobParameters = new GlobalJobParameters();

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

    /**
     * Registers parameters every user function can read, e.g. a {@code ParameterTool} built from the
     * program arguments or a {@code Configuration}. They are shipped with the job, so the object must
     * be serializable; each function sees the object of the same class it was given here (read it
     * with {@code getRuntimeContext().getExecutionConfig().getGlobalJobParameters()} and cast, or as a
     * map with {@code getRuntimeContext().getGlobalJobParameters()}).
     *
     * @throws NullPointerException if {@code globalJobParameters} is null
     */
    public void setGlobalJobParameters(GlobalJobParameters globalJobParameters) {
        this.globalJobParameters = Preconditions.checkNotNull(globalJobParameters,
                "globalJobParameters shouldn't be null; pass new ExecutionConfig.GlobalJobParameters() for none");
    }

    /** The parameters set with {@link #setGlobalJobParameters}; an empty {@link GlobalJobParameters} if none. */
    public GlobalJobParameters getGlobalJobParameters() {
        return globalJobParameters;
    }

    @Override
    public String toString() {
        return "ExecutionConfig{objectReuse=" + objectReuse + ", autoWatermarkInterval=" + autoWatermarkIntervalMs
                + "ms, " + serializerConfig + ", globalJobParameters=" + globalJobParameters.toMap() + "}";
    }

    /**
     * The base of objects given to {@link #setGlobalJobParameters}: user parameters shipped with the
     * job to every function. Subclasses ({@code ParameterTool}, {@code Configuration}, or a class of
     * the user's) hold the values and say in {@link #toMap()} how they read as strings; this base
     * class holds none. Instances must be serializable and, once the job runs, are only read.
     *
     * <p>Two instances are equal when they are of the same class and their maps are equal.
     */
    public static class GlobalJobParameters implements Serializable {

        private static final long serialVersionUID = 1L;

        /** The parameters as strings, e.g. for display; this base class has none. */
        public Map<String, String> toMap() {
            return Collections.emptyMap();
        }

        @Override
        public boolean equals(Object other) {
            return other != null && other.getClass() == getClass()
                    && ((GlobalJobParameters) other).toMap().equals(toMap());
        }

        @Override
        public int hashCode() {
            return toMap().hashCode();
        }
    }
}
