package dev.runnel.configuration;

/**
 * What a job starts from, with Flink 1.20's class, constant names and keys; the keys before 1.20
 * ({@code execution.savepoint.path}, {@code execution.savepoint.ignore-unclaimed-state}) are read as
 * deprecated keys. Constants only.
 */
public final class StateRecoveryOptions {

    /** The savepoint or retained checkpoint the job restores from; unset starts it empty. */
    public static final ConfigOption<String> SAVEPOINT_PATH = ConfigOptions
            .key("execution.state-recovery.path")
            .stringType()
            .noDefaultValue()
            .withDeprecatedKeys("execution.savepoint.path")
            .withDescription("The path of a savepoint or retained checkpoint to restore the job from.");

    /** Whether restoring may skip state of operators the job no longer has, instead of failing. */
    public static final ConfigOption<Boolean> SAVEPOINT_IGNORE_UNCLAIMED_STATE = ConfigOptions
            .key("execution.state-recovery.ignore-unclaimed-state")
            .booleanType()
            .defaultValue(false)
            .withDeprecatedKeys("execution.savepoint.ignore-unclaimed-state")
            .withDescription("Whether to allow a restore that leaves state of the savepoint unclaimed because its "
                    + "operator was removed from the job.");

    private StateRecoveryOptions() {}
}
