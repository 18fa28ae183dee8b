package dev.runnel.api.common.functions;

/** Keeps the records for which {@link #filter} returns true. */
@FunctionalInterface
public interface FilterFunction<T> extends Function {

    boolean filter(T value) throws Exception;
}
