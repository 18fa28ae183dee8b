package dev.runnel.api.common;

/**
 * Which subtask a function runs in.
 *
 * @param taskName the name of the task (its chained operators)
 * @param indexOfThisSubtask 0-based subtask index
 * @param numberOfParallelSubtasks the parallelism
 * @param maxNumberOfParallelSubtasks the max parallelism (number of key groups)
 * @param attemptNumber 0 on the first run, counting restarts
 */
public record TaskInfo(
        String taskName,
        int indexOfThisSubtask,
        int numberOfParallelSubtasks,
        int maxNumberOfParallelSubtasks,
        int attemptNumber) {

    public String getTaskName() {
        return taskName;
    }

    public int getIndexOfThisSubtask() {
        return indexOfThisSubtask;
    }

    public int getNumberOfParallelSubtasks() {
        return numberOfParallelSubtasks;
    }

    public int getMaxNumberOfParallelSubtasks() {
        return maxNumberOfParallelSubtasks;
    }

    public int getAttemptNumber() {
        return attemptNumber;
    }

    /** {@code name (index+1/parallelism)}, as tasks appear in logs. */
    public String getTaskNameWithSubtasks() {
        return taskName + " (" + (indexOfThisSubtask + 1) + "/" + numberOfParallelSubtasks + ")";
    }
}
