package dev.runnel.streaming.api.datastream;

import dev.runnel.api.common.functions.InvalidTypesException;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.java.typeutils.TypeExtractor;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Building an operator whose output type is extracted from a user function: when extraction fails,
 * the operator is still built and the failure is kept on it, so that it is reported (with the fix)
 * only if the type is needed, as for every other operator.
 */
final class OutputTypes {

    private OutputTypes() {}

    static <T> SingleOutputStreamOperator<T> extractedOrDeferred(Supplier<TypeInformation<T>> extraction,
            Function<TypeInformation<T>, SingleOutputStreamOperator<T>> build) {
        TypeInformation<T> type;
        try {
            type = extraction.get();
        } catch (InvalidTypesException e) {
            SingleOutputStreamOperator<T> result = build.apply(null);
            result.getTransformation().setMissingType(e);
            return result;
        }
        return build.apply(type);
    }

    /**
     * {@link #extractedOrDeferred} for a function of two inputs whose result type is the interface's
     * third type argument ({@code JoinFunction<IN1, IN2, OUT>}, {@code CoGroupFunction}, ...).
     */
    static <T> SingleOutputStreamOperator<T> ofTwoInputFunction(dev.runnel.api.common.functions.Function function,
            Class<?> functionInterface, DataStream<?> input1, DataStream<?> input2,
            Function<TypeInformation<T>, SingleOutputStreamOperator<T>> build) {
        return extractedOrDeferred(() -> TypeExtractor.getOutputType(function, functionInterface, 2, input1.typeOrNull(),
                input2.typeOrNull()), build);
    }
}
