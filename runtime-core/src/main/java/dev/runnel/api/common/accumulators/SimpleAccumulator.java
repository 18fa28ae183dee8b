package dev.runnel.api.common.accumulators;

import java.io.Serializable;

/**
 * An {@link Accumulator} whose result has the type of the values added (a sum, a minimum, a
 * maximum, an average). Same threading contract as {@link Accumulator}.
 *
 * @param <T> the type of the values and of the result
 */
public interface SimpleAccumulator<T extends Serializable> extends Accumulator<T, T> {}
