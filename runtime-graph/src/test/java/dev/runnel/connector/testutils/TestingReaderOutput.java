package dev.runnel.connector.testutils;

import dev.runnel.api.common.eventtime.Watermark;
import dev.runnel.api.connector.source.ReaderOutput;
import java.util.ArrayList;
import java.util.List;

/** Collects what a reader emits. Single-threaded, like the task thread it stands in for. */
public final class TestingReaderOutput<T> implements ReaderOutput<T> {

    private final List<T> records = new ArrayList<>();

    @Override
    public void collect(T record) {
        records.add(record);
    }

    @Override
    public void collect(T record, long timestamp) {
        records.add(record);
    }

    @Override
    public void emitWatermark(Watermark watermark) {}

    @Override
    public void markIdle() {}

    @Override
    public void markActive() {}

    public List<T> records() {
        return records;
    }
}
