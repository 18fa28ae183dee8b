package dev.runnel.streaming.util;

import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.java.functions.KeySelector;
import dev.runnel.streaming.api.functions.KeyedProcessFunction;
import dev.runnel.streaming.api.functions.ProcessFunction;
import dev.runnel.streaming.api.functions.co.CoProcessFunction;
import dev.runnel.streaming.api.functions.co.KeyedCoProcessFunction;
import dev.runnel.streaming.api.operators.co.CoProcessOperator;
import dev.runnel.streaming.api.operators.co.KeyedCoProcessOperator;
import dev.runnel.streaming.api.operators.KeyedProcessOperator;
import dev.runnel.streaming.api.operators.ProcessOperator;

/**
 * Harnesses for process functions, opened and ready for input: the operator each function runs in
 * is chosen here, so a test names only its function.
 */
public final class ProcessFunctionTestHarnesses {

    private ProcessFunctionTestHarnesses() {}

    /** An opened harness around a {@link ProcessOperator} running {@code function}. */
    public static <IN, OUT> OneInputStreamOperatorTestHarness<IN, OUT> forProcessFunction(
            ProcessFunction<IN, OUT> function) throws Exception {
        var harness = new OneInputStreamOperatorTestHarness<>(new ProcessOperator<>(function));
        harness.open();
        return harness;
    }

    /** An opened keyed harness around a {@link KeyedProcessOperator} running {@code function}. */
    public static <K, IN, OUT> KeyedOneInputStreamOperatorTestHarness<K, IN, OUT> forKeyedProcessFunction(
            KeyedProcessFunction<K, IN, OUT> function, KeySelector<IN, K> keySelector, TypeInformation<K> keyType)
            throws Exception {
        var harness = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(function), keySelector,
                keyType);
        harness.open();
        return harness;
    }

    /** An opened harness around a {@link CoProcessOperator} running {@code function}. */
    public static <IN1, IN2, OUT> TwoInputStreamOperatorTestHarness<IN1, IN2, OUT> forCoProcessFunction(
            CoProcessFunction<IN1, IN2, OUT> function) throws Exception {
        var harness = new TwoInputStreamOperatorTestHarness<>(new CoProcessOperator<>(function));
        harness.open();
        return harness;
    }

    /** An opened keyed harness around a {@link KeyedCoProcessOperator} running {@code function}. */
    public static <K, IN1, IN2, OUT> KeyedTwoInputStreamOperatorTestHarness<K, IN1, IN2, OUT> forKeyedCoProcessFunction(
            KeyedCoProcessFunction<K, IN1, IN2, OUT> function, KeySelector<IN1, K> keySelector1,
            KeySelector<IN2, K> keySelector2, TypeInformation<K> keyType) throws Exception {
        var harness = new KeyedTwoInputStreamOperatorTestHarness<>(new KeyedCoProcessOperator<>(function),
                keySelector1, keySelector2, keyType);
        harness.open();
        return harness;
    }
}
