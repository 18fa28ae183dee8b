package dev.runnel.streaming.util;

import dev.runnel.streaming.api.operators.co.KeyedCoProcessOperator;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.java.functions.KeySelector;
import dev.runnel.streaming.api.operators.TwoInputStreamOperator;

/**
 * A {@link TwoInputStreamOperatorTestHarness} for keyed two-input operators (e.g. a
 * {@code KeyedCoProcessOperator} or an interval join): the key of each record is taken with its
 * input's key selector before it is processed; keyed state and timers come from the heap store.
 *
 * @param <K> the key type
 * @param <IN1> the first input's type
 * @param <IN2> the second input's type
 * @param <OUT> the output type
 */
public class KeyedTwoInputStreamOperatorTestHarness<K, IN1, IN2, OUT>
        extends TwoInputStreamOperatorTestHarness<IN1, IN2, OUT> {

    /** Subtask 0 of 1, max parallelism 128. */
    public KeyedTwoInputStreamOperatorTestHarness(TwoInputStreamOperator<IN1, IN2, OUT> operator,
            KeySelector<IN1, K> keySelector1, KeySelector<IN2, K> keySelector2, TypeInformation<K> keyType) {
        this(operator, keySelector1, keySelector2, keyType, 128, 1, 0);
    }

    /** Subtask {@code subtaskIndex} of {@code numSubtasks} (Flink's signature). */
    public KeyedTwoInputStreamOperatorTestHarness(TwoInputStreamOperator<IN1, IN2, OUT> operator,
            KeySelector<IN1, K> keySelector1, KeySelector<IN2, K> keySelector2, TypeInformation<K> keyType,
            int maxParallelism, int numSubtasks, int subtaskIndex) {
        super(operator, harnessConfig(operator, keySelector1, keySelector2, keyType, maxParallelism),
                numSubtasks, subtaskIndex, null);
    }
}
