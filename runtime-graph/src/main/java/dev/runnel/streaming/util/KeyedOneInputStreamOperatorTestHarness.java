package dev.runnel.streaming.util;

import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.java.functions.KeySelector;
import dev.runnel.runtime.state.StateBackend;
import dev.runnel.streaming.api.operators.OneInputStreamOperator;

/**
 * A {@link OneInputStreamOperatorTestHarness} for keyed operators: the key of each record is set
 * before it is processed, and the operator's keyed state can be snapshotted and restored — also
 * into harnesses of another parallelism, to test rescaling.
 */
public class KeyedOneInputStreamOperatorTestHarness<K, IN, OUT> extends OneInputStreamOperatorTestHarness<IN, OUT> {

    /** Subtask 0 of 1, max parallelism 128, the heap store. */
    public KeyedOneInputStreamOperatorTestHarness(OneInputStreamOperator<IN, OUT> operator,
            KeySelector<IN, K> keySelector, TypeInformation<K> keyType) {
        this(operator, keySelector, keyType, 128, 1, 0, null);
    }

    /** Subtask {@code subtaskIndex} of {@code numSubtasks}, the heap store (Flink's signature). */
    public KeyedOneInputStreamOperatorTestHarness(OneInputStreamOperator<IN, OUT> operator,
            KeySelector<IN, K> keySelector, TypeInformation<K> keyType, int maxParallelism, int numSubtasks,
            int subtaskIndex) {
        this(operator, keySelector, keyType, maxParallelism, numSubtasks, subtaskIndex, null);
    }

    /** Subtask {@code subtaskIndex} of {@code parallelism}, on {@code stateBackend} (null: the heap store). */
    public KeyedOneInputStreamOperatorTestHarness(OneInputStreamOperator<IN, OUT> operator,
            KeySelector<IN, K> keySelector, TypeInformation<K> keyType, int maxParallelism, int parallelism,
            int subtaskIndex, StateBackend stateBackend) {
        super(operator, harnessConfig(operator, keySelector, null, keyType, maxParallelism), parallelism, subtaskIndex,
                stateBackend);
    }
}
