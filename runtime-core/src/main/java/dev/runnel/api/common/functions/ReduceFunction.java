package dev.runnel.api.common.functions;

/**
 * Combines two values of the same type into one; used by {@code KeyedStream.reduce}, reducing state
 * and window reductions. Must be associative; may modify and return {@code value1}.
 */
@FunctionalInterface
public interface ReduceFunction<T> extends Function {

    T reduce(T value1, T value2) throws Exception;
}
