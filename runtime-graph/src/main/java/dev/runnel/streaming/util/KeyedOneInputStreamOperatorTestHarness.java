package dev.runnel.streaming.util;

import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.java.functions.KeySelector;
import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyedStateBackend;
import dev.runnel.runtime.state.KeyedStateHandle;
import dev.runnel.runtime.state.StateBackend;
import dev.runnel.runtime.state.snapshot.ByteStreamStateHandle;
import dev.runnel.streaming.api.operators.OneInputStreamOperator;
import dev.runnel.streaming.api.operators.OperatorConfig;
import java.io.ByteArrayOutputStream;

/**
 * A {@link OneInputStreamOperatorTestHarness} for keyed operators: the key of each record is set
 * before it is processed, and the operator's keyed state can be snapshotted and restored — also
 * into harnesses of another parallelism, to test rescaling.
 */
public class KeyedOneInputStreamOperatorTestHarness<K, IN, OUT> extends OneInputStreamOperatorTestHarness<IN, OUT> {

    /** Subtask {@code subtaskIndex} of {@code numSubtasks}, the heap store (Flink's signature). */
    public KeyedOneInputStreamOperatorTestHarness(OneInputStreamOperator<IN, OUT> operator,
            KeySelector<IN, K> keySelector, TypeInformation<K> keyType, int maxParallelism, int numSubtasks,
            int subtaskIndex) {
        this(operator, keySelector, keyType, maxParallelism, numSubtasks, subtaskIndex, null);
    }

    /** Subtask 0 of 1, max parallelism 128, the heap store. */
    public KeyedOneInputStreamOperatorTestHarness(OneInputStreamOperator<IN, OUT> operator,
            KeySelector<IN, K> keySelector, TypeInformation<K> keyType) {
        this(operator, keySelector, keyType, 128, 1, 0, null);
    }

    /** Subtask {@code subtaskIndex} of {@code parallelism}, on {@code stateBackend} (null: the heap store). */
    public KeyedOneInputStreamOperatorTestHarness(OneInputStreamOperator<IN, OUT> operator,
            KeySelector<IN, K> keySelector, TypeInformation<K> keyType, int maxParallelism, int parallelism,
            int subtaskIndex, StateBackend stateBackend) {
        super(operator, new OperatorConfig("harness-operator", operator.getClass().getSimpleName(), keySelector, null,
                keyType.createSerializer(new SerializerConfig()), maxParallelism), parallelism, subtaskIndex, stateBackend);
    }

    /** The operator's keyed state backend (after {@link #open()}). */
    @SuppressWarnings("unchecked")
    public KeyedStateBackend<K> getKeyedStateBackend() {
        return (KeyedStateBackend<K>) (KeyedStateBackend<?>) abstractOperator("access keyed state").getKeyedStateBackend();
    }

    /** Snapshots all keyed state and timers of this subtask, in memory. */
    public KeyedStateHandle snapshot() throws Exception {
        KeyedStateBackend<K> backend = getKeyedStateBackend();
        KeyGroupRange range = backend.getKeyGroupRange();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        var offsets = backend.snapshot(range, out);
        return new ByteStreamStateHandle("harness snapshot of " + getOperator().getOperatorName(), out.toByteArray(), offsets);
    }
}
