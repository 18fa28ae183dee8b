package dev.runnel.streaming.api.datastream;

import dev.runnel.api.common.functions.InvalidTypesException;
import dev.runnel.api.common.typeinfo.TypeInformation;
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
}
