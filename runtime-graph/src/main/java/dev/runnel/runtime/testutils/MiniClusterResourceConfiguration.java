package dev.runnel.runtime.testutils;

import dev.runnel.configuration.Configuration;

/**
 * The shape of the cluster a test rule or extension provides: how many TaskManagers the embedded
 * runtime runs ({@code taskmanager.count}) and how many slots each has, plus extra configuration.
 * Jobs created with {@code getExecutionEnvironment()} while the cluster is active get
 * TaskManagers &times; slots as their default parallelism, as in Flink. Immutable.
 *
 * <pre>{@code
 * new MiniClusterResourceConfiguration.Builder()
 *     .setNumberTaskManagers(2)
 *     .setNumberSlotsPerTaskManager(2)
 *     .build();
 * }</pre>
 */
public final class MiniClusterResourceConfiguration {

    private final Configuration configuration;
    private final int numberTaskManagers;
    private final int numberSlotsPerTaskManager;

    private MiniClusterResourceConfiguration(Configuration configuration, int numberTaskManagers,
            int numberSlotsPerTaskManager) {
        this.configuration = configuration.copy();
        this.numberTaskManagers = numberTaskManagers;
        this.numberSlotsPerTaskManager = numberSlotsPerTaskManager;
    }

    /** A copy of the extra configuration every job of the cluster gets (the job's own settings win). */
    public Configuration getConfiguration() {
        return configuration.copy();
    }

    public int getNumberTaskManagers() {
        return numberTaskManagers;
    }

    public int getNumberSlotsPerTaskManager() {
        return numberSlotsPerTaskManager;
    }

    /** TaskManagers &times; slots: the default parallelism of jobs on this cluster. */
    public int getNumberSlots() {
        return numberTaskManagers * numberSlotsPerTaskManager;
    }

    @Override
    public String toString() {
        return "MiniClusterResourceConfiguration{taskManagers=" + numberTaskManagers + ", slotsPerTaskManager="
                + numberSlotsPerTaskManager + ", configuration=" + configuration + '}';
    }

    /** Builds a {@link MiniClusterResourceConfiguration}; one TaskManager with one slot by default. */
    public static final class Builder {

        private Configuration configuration = new Configuration();
        private int numberTaskManagers = 1;
        private int numberSlotsPerTaskManager = 1;

        public Builder setConfiguration(Configuration configuration) {
            this.configuration = configuration == null ? new Configuration() : configuration.copy();
            return this;
        }

        public Builder setNumberTaskManagers(int numberTaskManagers) {
            this.numberTaskManagers = requirePositive(numberTaskManagers, "number of TaskManagers");
            return this;
        }

        public Builder setNumberSlotsPerTaskManager(int numberSlotsPerTaskManager) {
            this.numberSlotsPerTaskManager = requirePositive(numberSlotsPerTaskManager, "number of slots per TaskManager");
            return this;
        }

        public MiniClusterResourceConfiguration build() {
            return new MiniClusterResourceConfiguration(configuration, numberTaskManagers, numberSlotsPerTaskManager);
        }

        private static int requirePositive(int value, String what) {
            if (value < 1) {
                throw new IllegalArgumentException("The " + what + " must be at least 1, was " + value);
            }
            return value;
        }
    }
}
