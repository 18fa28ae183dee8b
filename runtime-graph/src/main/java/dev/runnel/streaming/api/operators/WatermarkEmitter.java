package dev.runnel.streaming.api.operators;

import dev.runnel.api.common.eventtime.Watermark;
import dev.runnel.api.common.eventtime.WatermarkOutput;
import java.util.Objects;

/**
 * Turns a {@link dev.runnel.api.common.eventtime.WatermarkGenerator}'s calls into an operator's
 * output: only watermarks that advance are forwarded, and idleness changes become watermark status
 * events. A watermark from an idle emitter first announces it active again, as in Flink.
 *
 * <p>Without progressive watermarks (BATCH execution, as Flink's {@code emitProgressiveWatermarks = false})
 * only the final watermark ({@code Long.MAX_VALUE}) passes and idleness is not announced: event time
 * jumps from the start to the end of input in one step.
 *
 * <p>Task thread only. The output must not be null.
 */
public final class WatermarkEmitter implements WatermarkOutput {

    private final Output<?> output;
    private long lastEmitted = Long.MIN_VALUE;
    private boolean idle;
    private final boolean progressive;

    /** An emitter of progressive watermarks (STREAMING). */
    public WatermarkEmitter(Output<?> output) {
        this(output, true);
    }

    /** An emitter that forwards every advancing watermark if {@code progressive}, else only the final one. */
    public WatermarkEmitter(Output<?> output, boolean progressive) {
        this.output = Objects.requireNonNull(output, "output");
        this.progressive = progressive;
    }

    @Override
    public void emitWatermark(Watermark watermark) {
        if (!progressive && watermark.getTimestamp() != Long.MAX_VALUE) {
            return;
        }
        if (watermark.getTimestamp() > lastEmitted) {
            lastEmitted = watermark.getTimestamp();
            markActive();
            output.emitWatermark(watermark);
        }
    }

    @Override
    public void markIdle() {
        if (progressive && !idle) {
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
