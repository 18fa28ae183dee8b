package dev.runnel.streaming.api.functions.windowing.delta;

import java.io.Serializable;

/**
 * The distance between two data points, for {@code DeltaTrigger} and {@code DeltaEvictor}. Must be
 * deterministic; it is called on the task thread.
 *
 * @param <DATA> the type of the data points
 */
@FunctionalInterface
public interface DeltaFunction<DATA> extends Serializable {

    /** How far {@code newDataPoint} is from {@code oldDataPoint}. */
    double getDelta(DATA oldDataPoint, DATA newDataPoint);
}
