package dev.runnel.api.java.functions;

import dev.runnel.api.common.functions.Function;

/**
 * Extracts the key of a record for {@code keyBy} and custom partitioning.
 *
 * <p>Must be deterministic (the same record always gives an equal key, with a stable
 * {@code hashCode()}) and must never return null. Called on task threads, possibly several times
 * for one record.
 *
 * @param <IN> the record type
 * @param <KEY> the key type
 */
@FunctionalInterface
public interface KeySelector<IN, KEY> extends Function {

    /** The key of {@code value}; never null. */
    KEY getKey(IN value) throws Exception;
}
