package dev.runnel.runtime.io;

/** Event time progress of one channel: no later record on it has a timestamp at or below {@code timestamp}. */
public record WatermarkEvent(long timestamp) implements ChannelEvent {

    @Override
    public Type type() {
        return Type.WATERMARK;
    }
}
