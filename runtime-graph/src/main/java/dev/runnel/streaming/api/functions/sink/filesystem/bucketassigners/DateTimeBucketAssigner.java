package dev.runnel.streaming.api.functions.sink.filesystem.bucketassigners;

import dev.runnel.core.io.SimpleVersionedSerializer;
import dev.runnel.streaming.api.functions.sink.filesystem.BucketAssigner;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Objects;

/**
 * Buckets records by the processing time at which they are written, formatted with a
 * {@link DateTimeFormatter} pattern in a time zone: by default {@code yyyy-MM-dd--HH} in the system's zone,
 * so a record written at 2024-05-01 13:45 local time goes to {@code <base>/2024-05-01--13/}. This is the
 * file sink's default assigner.
 *
 * <p>The formatter is created lazily on each subtask (it is not serializable). Thread-safe.
 *
 * @param <IN> the record type
 */
public class DateTimeBucketAssigner<IN> implements BucketAssigner<IN, String> {

    private static final long serialVersionUID = 1L;

    /** One bucket per hour: {@code yyyy-MM-dd--HH}. */
    public static final String DEFAULT_FORMAT_STRING = "yyyy-MM-dd--HH";

    private final String formatString;
    private final ZoneId zoneId;
    private transient DateTimeFormatter dateTimeFormatter;

    /** Hourly buckets in the system's time zone. */
    public DateTimeBucketAssigner() {
        this(DEFAULT_FORMAT_STRING);
    }

    /** Buckets named by {@code formatString} in the system's time zone. */
    public DateTimeBucketAssigner(String formatString) {
        this(formatString, ZoneId.systemDefault());
    }

    /** Hourly buckets in {@code zoneId}. */
    public DateTimeBucketAssigner(ZoneId zoneId) {
        this(DEFAULT_FORMAT_STRING, zoneId);
    }

    /**
     * @param formatString a {@link DateTimeFormatter} pattern; not null
     * @param zoneId the zone the time is shown in; not null
     * @throws IllegalArgumentException if the pattern is invalid
     */
    public DateTimeBucketAssigner(String formatString, ZoneId zoneId) {
        this.formatString = Objects.requireNonNull(formatString, "formatString");
        this.zoneId = Objects.requireNonNull(zoneId, "zoneId");
        DateTimeFormatter.ofPattern(formatString); // fail when the sink is built, not in the job
    }

    @Override
    public String getBucketId(IN element, Context context) {
        if (dateTimeFormatter == null) {
            dateTimeFormatter = DateTimeFormatter.ofPattern(formatString).withZone(zoneId);
        }
        return dateTimeFormatter.format(Instant.ofEpochMilli(context.currentProcessingTime()));
    }

    @Override
    public SimpleVersionedSerializer<String> getSerializer() {
        return SimpleVersionedStringSerializer.INSTANCE;
    }

    @Override
    public String toString() {
        return "DateTimeBucketAssigner{formatString='" + formatString + "', zoneId=" + zoneId + '}';
    }
}
