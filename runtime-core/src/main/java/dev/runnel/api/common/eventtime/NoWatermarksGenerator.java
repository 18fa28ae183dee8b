package dev.runnel.api.common.eventtime;

/** Emits no watermarks: for processing-time jobs. End of input still emits the final watermark. */
public final class NoWatermarksGenerator<T> implements WatermarkGenerator<T> {

    @Override
    public void onEvent(T event, long eventTimestamp, WatermarkOutput output) {}

    @Override
    public void onPeriodicEmit(WatermarkOutput output) {}
}
