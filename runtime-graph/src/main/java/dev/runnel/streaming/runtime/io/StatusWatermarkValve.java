package dev.runnel.streaming.runtime.io;

/**
 * Combines the watermarks and idleness of an input's channels into the input's watermark: the
 * minimum over active channels, never going back. A channel that turns active again takes part only
 * once its watermark catches up with the combined one, so event time never regresses. When every
 * channel is idle the input is idle, and the largest watermark any channel reached is released.
 *
 * <p>Task thread only. Returns values instead of calling out, so the caller decides what to do.
 */
public final class StatusWatermarkValve {

    /** Returned when the combined watermark did not advance. */
    public static final long NO_CHANGE = Long.MIN_VALUE;

    private final long[] watermarks;
    private final boolean[] idle;
    private final boolean[] aligned;
    private long lastOutput = Long.MIN_VALUE;
    private boolean inputIdle;

    public StatusWatermarkValve(int channels) {
        watermarks = new long[channels];
        idle = new boolean[channels];
        aligned = new boolean[channels];
        java.util.Arrays.fill(watermarks, Long.MIN_VALUE);
        java.util.Arrays.fill(aligned, true);
    }

    /** A watermark arrived on {@code channel}; returns the new combined watermark or {@link #NO_CHANGE}. */
    public long inputWatermark(long watermark, int channel) {
        if (idle[channel] || watermark <= watermarks[channel]) {
            return NO_CHANGE;
        }
        watermarks[channel] = watermark;
        if (!aligned[channel] && watermark >= lastOutput) {
            aligned[channel] = true;
        }
        return advance();
    }

    /**
     * A channel became idle ({@code true}) or active. Returns the new combined watermark if idleness
     * lets it advance, else {@link #NO_CHANGE}; check {@link #isIdle()} for the input's status.
     */
    public long inputStatus(boolean channelIdle, int channel) {
        if (idle[channel] == channelIdle) {
            return NO_CHANGE;
        }
        idle[channel] = channelIdle;
        if (channelIdle) {
            aligned[channel] = false;
            boolean allIdle = true;
            for (boolean b : idle) {
                allIdle &= b;
            }
            inputIdle = allIdle;
            return allIdle ? flushMaxWatermark() : advance();
        }
        aligned[channel] = watermarks[channel] >= lastOutput;
        inputIdle = false;
        return NO_CHANGE;
    }

    /** Whether every channel is idle. */
    public boolean isIdle() {
        return inputIdle;
    }

    public long getCombinedWatermark() {
        return lastOutput;
    }

    /**
     * Every channel is idle, so none will advance again soon: as Flink does, release the largest
     * watermark any channel reached, instead of holding back what the last active channels had.
     */
    private long flushMaxWatermark() {
        long max = Long.MIN_VALUE;
        for (long w : watermarks) {
            max = Math.max(max, w);
        }
        if (max > lastOutput) {
            lastOutput = max;
            return max;
        }
        return NO_CHANGE;
    }

    private long advance() {
        long min = Long.MAX_VALUE;
        boolean any = false;
        for (int i = 0; i < watermarks.length; i++) {
            if (!idle[i] && aligned[i]) {
                min = Math.min(min, watermarks[i]);
                any = true;
            }
        }
        if (any && min > lastOutput) {
            lastOutput = min;
            return min;
        }
        return NO_CHANGE;
    }
}
