package dev.runnel.api.common.eventtime;

import java.io.Serializable;

/** Creates a {@link WatermarkGenerator} per subtask. */
@FunctionalInterface
public interface WatermarkGeneratorSupplier<T> extends Serializable {

    WatermarkGenerator<T> createWatermarkGenerator(Context context);

    /** What a generator may use: the processing-time clock. */
    interface Context {
        long currentProcessingTime();
    }
}
