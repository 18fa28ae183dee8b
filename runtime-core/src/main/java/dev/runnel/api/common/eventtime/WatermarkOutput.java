package dev.runnel.api.common.eventtime;

/**
 * Where a {@link WatermarkGenerator} emits watermarks and reports idleness. Emitting a watermark
 * lower than one already emitted has no effect (watermarks never go back). Task thread only.
 */
public interface WatermarkOutput {

    void emitWatermark(Watermark watermark);

    /** This output has no data for now; downstream must not wait for its watermark. */
    void markIdle();

    /** This output has data again (emitting a watermark also makes it active). */
    void markActive();
}
