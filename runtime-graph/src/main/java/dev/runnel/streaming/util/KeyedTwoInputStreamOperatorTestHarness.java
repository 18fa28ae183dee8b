package dev.runnel.streaming.util;

import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.java.functions.KeySelector;
import dev.runnel.streaming.api.operators.TwoInputStreamOperator;

/**
 * A {@link TwoInputStreamOperatorTestHarness} for keyed operators: the key of each record, from its
 * input's key selector, is set before it is processed. Subtask 0 of 1, max parallelism 128, the heap
 * store.
 */
public class KeyedTwoInputStreamOperatorTestHarness<K, IN1, IN2, OUT> extends TwoInputStreamOperatorTestHarness<IN1, IN2, OUT> {

    public KeyedTwoInputStreamOperatorTestHarness(TwoInputStreamOperator<IN1, IN2, OUT> operator,
            KeySelector<IN1, K> keySelector1, KeySelector<IN2, K> keySelector2, TypeInformation<K> keyType) {
        super(operator, harnessConfig(operator, keySelector1, keySelector2, keyType, 128), 1, 0, null);
    }
}
