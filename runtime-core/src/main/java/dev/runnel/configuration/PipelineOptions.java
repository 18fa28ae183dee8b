package dev.runnel.configuration;

import java.time.Duration;

/**
 * Options of how a job's pipeline is built and run, at Flink's {@code PipelineOptions} path, so that the
 * {@code pipeline.*} keys of a Flink configuration (or {@code -D} flags) take effect as they do there. Only
 * the options Runnel reads are here.
 *
 * <p>A {@code StreamExecutionEnvironment} takes over the ones its configuration sets when it is created and
 * in {@code configure(Configuration)}; what a program sets on the environment or its {@code ExecutionConfig}
 * afterwards wins, as in Flink.
 */
public final class PipelineOptions {

    /**
     * {@code pipeline.name}: the job's name when the program runs it without one ({@code execute()}); a name
     * given to {@code execute(String)} wins.
     */
    public static final ConfigOption<String> NAME = ConfigOptions
            .key("pipeline.name")
            .stringType()
            .noDefaultValue()
            .withDescription("The job name used for printing and logging when the program gives none.");

    /**
     * {@code pipeline.object-reuse}: whether records are handed between chained operators without a copy; see
     * {@code ExecutionConfig.enableObjectReuse()}.
     */
    public static final ConfigOption<Boolean> OBJECT_REUSE = ConfigOptions
            .key("pipeline.object-reuse")
            .booleanType()
            .defaultValue(false)
            .withDescription("When enabled, records are handed to chained operators without being copied; "
                    + "user functions must then not keep or modify their input records.");

    /**
     * {@code pipeline.auto-watermark-interval}: how often periodic watermark generators are asked for a
     * watermark; 0 turns periodic watermarks off.
     */
    public static final ConfigOption<Duration> AUTO_WATERMARK_INTERVAL = ConfigOptions
            .key("pipeline.auto-watermark-interval")
            .durationType()
            .defaultValue(Duration.ofMillis(200))
            .withDescription("The interval of the automatic watermark emission; 0 turns it off.");

    /**
     * {@code pipeline.max-parallelism}: the default number of key groups of keyed operators (the most
     * subtasks they can be rescaled to), 1 to 32768; -1 leaves it to be derived from the parallelism.
     */
    public static final ConfigOption<Integer> MAX_PARALLELISM = ConfigOptions
            .key("pipeline.max-parallelism")
            .intType()
            .defaultValue(-1)
            .withDescription("The program-wide maximum parallelism used for operators which haven't specified a "
                    + "maximum parallelism; -1 to derive it from the parallelism.");

    /** {@code pipeline.operator-chaining.enabled} (before Flink 1.20 {@code pipeline.operator-chaining}). */
    public static final ConfigOption<Boolean> OPERATOR_CHAINING = ConfigOptions
            .key("pipeline.operator-chaining.enabled")
            .booleanType()
            .defaultValue(true)
            .withDescription("Whether operators are chained into one task where the graph allows it.")
            .withDeprecatedKeys("pipeline.operator-chaining");

    /**
     * {@code pipeline.generic-types}: whether types without a serializer of their own may fall back to Kryo
     * (which still requires their registration); false makes such a type an error when the job is built.
     */
    public static final ConfigOption<Boolean> GENERIC_TYPES = ConfigOptions
            .key("pipeline.generic-types")
            .booleanType()
            .defaultValue(true)
            .withDescription("Whether types without a serializer of their own may be serialized with Kryo.");

    private PipelineOptions() {}
}
