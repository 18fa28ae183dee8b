package dev.runnel.streaming.api.transformations;

import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.java.functions.KeySelector;
import dev.runnel.streaming.api.operators.StreamOperator;
import java.util.List;
import java.util.Objects;

/**
 * A step that becomes an operator at run time: a source, a one- or two-input operator, or a sink.
 * Keyed steps carry the key selector of each input and the key's type.
 */
public class PhysicalTransformation<T> extends Transformation<T> {

    private final StreamOperator<T> operator;
    private final List<Transformation<?>> inputs;
    private KeySelector<?, ?> keySelector1;
    private KeySelector<?, ?> keySelector2;
    private TypeInformation<?> keyType;

    public PhysicalTransformation(int id, String name, StreamOperator<T> operator, TypeInformation<T> outputType,
            int parallelism, List<Transformation<?>> inputs) {
        super(id, name, outputType, parallelism);
        this.operator = Objects.requireNonNull(operator, "operator");
        this.inputs = List.copyOf(inputs);
    }

    public StreamOperator<T> getOperator() {
        return operator;
    }

    @Override
    public List<Transformation<?>> getInputs() {
        return inputs;
    }

    /** Makes this step keyed: state and timers are per key. */
    public void setKeyed(KeySelector<?, ?> keySelector1, KeySelector<?, ?> keySelector2, TypeInformation<?> keyType) {
        this.keySelector1 = keySelector1;
        this.keySelector2 = keySelector2;
        this.keyType = Objects.requireNonNull(keyType, "keyType");
    }

    public KeySelector<?, ?> getKeySelector1() {
        return keySelector1;
    }

    public KeySelector<?, ?> getKeySelector2() {
        return keySelector2;
    }

    /** The key type, or null when not keyed. */
    public TypeInformation<?> getKeyType() {
        return keyType;
    }

    public boolean isSink() {
        return false;
    }
}
