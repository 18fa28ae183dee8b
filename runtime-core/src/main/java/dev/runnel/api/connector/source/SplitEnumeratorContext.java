package dev.runnel.api.connector.source;

import java.util.List;
import java.util.Map;
import java.util.Set;

/** What a {@link SplitEnumerator} may ask of the runtime. Coordinator thread only. */
public interface SplitEnumeratorContext<SplitT extends SourceSplit> {

    int currentParallelism();

    /** Subtask indexes of the readers registered so far. */
    Set<Integer> registeredReaders();

    /** Gives {@code split} to reader {@code subtask}. */
    void assignSplit(SplitT split, int subtask);

    /** Gives several splits at once: subtask to splits. */
    default void assignSplits(Map<Integer, List<SplitT>> assignment) {
        assignment.forEach((subtask, splits) -> splits.forEach(s -> assignSplit(s, subtask)));
    }

    /** Tells reader {@code subtask} that no more splits will come. */
    void signalNoMoreSplits(int subtask);
}
