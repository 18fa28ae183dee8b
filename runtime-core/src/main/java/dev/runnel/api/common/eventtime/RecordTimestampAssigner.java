package dev.runnel.api.common.eventtime;

/** Keeps the timestamp a record already carries (from its source). */
public final class RecordTimestampAssigner<T> implements TimestampAssigner<T> {

    @Override
    public long extractTimestamp(T element, long recordTimestamp) {
        return recordTimestamp;
    }
}
