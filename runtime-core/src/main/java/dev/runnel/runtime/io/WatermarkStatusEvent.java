package dev.runnel.runtime.io;

/**
 * A channel became idle (its watermark must not hold back the others) or active again. Idle
 * channels are skipped when the reader takes the minimum watermark over its channels.
 */
public record WatermarkStatusEvent(boolean idle) implements ChannelEvent {

    public static final WatermarkStatusEvent IDLE = new WatermarkStatusEvent(true);
    public static final WatermarkStatusEvent ACTIVE = new WatermarkStatusEvent(false);

    /** The shared instance for {@code idle}. */
    public static WatermarkStatusEvent of(boolean idle) {
        return idle ? IDLE : ACTIVE;
    }

    @Override
    public Type type() {
        return Type.WATERMARK_STATUS;
    }
}
