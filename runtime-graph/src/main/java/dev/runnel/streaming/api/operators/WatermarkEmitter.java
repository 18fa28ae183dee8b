package dev.runnel.streaming.api.operators;

import dev.runnel.api.common.eventtime.Watermark;
import dev.runnel.api.common.eventtime.WatermarkOutput;
import java.util.Objects;

/**
 * Turns a {@link dev.runnel.api.common.eventtime.WatermarkGenerator}'s calls into an operator's
 * output: only watermarks that advance are forwarded, and idleness changes become watermark status
 * events. A watermark from an idle emitter first announces it active again, as in Flink.
 *
 * <p>Task thread only. The output must not be null.
 */
public final class WatermarkEmitter implements WatermarkOutput {

    private final Output<?> output;
    private long lastEmitted = Long.MIN_VALUE;
    private boolean idle;

    public WatermarkEmitter(Output<?> output) {
        this.output = Objects.requireNonNull(output, "output");
    }

    @Override
    public void emitWatermark(Watermark watermark) {
        if (watermark.getTimestamp() > lastEmitted) {
            lastEmitted = watermark.getTimestamp();
            markActive();
            output.emitWatermark(watermark);
        }
    }

    @Override
    public void markIdle() {
        if (!idle) {
            idle = true;
            output.emitWatermarkStatus(true);
        }
    }

    @Override
    public void markActive() {
        if (idle) {
            idle = false;
            output.emitWatermarkStatus(false);
        }
    }
}
