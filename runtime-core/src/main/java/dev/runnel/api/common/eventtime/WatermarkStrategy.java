package dev.runnel.api.common.eventtime;

import java.io.Serializable;
import java.time.Duration;
import java.util.Objects;

/**
 * How a stream gets event time: a timestamp assigner and a watermark generator, plus optional
 * idleness. Built with the static factories and {@code with...} methods, as in Flink:
 *
 * <pre>{@code
 * WatermarkStrategy.<Event>forBoundedOutOfOrderness(Duration.ofSeconds(5))
 *         .withTimestampAssigner((event, ts) -> event.time)
 *         .withIdleness(Duration.ofMinutes(1));
 * }</pre>
 *
 * Serializable, so a job can be shipped; the generator and assigner are created per subtask.
 */
public interface WatermarkStrategy<T>
        extends TimestampAssignerSupplier<T>, WatermarkGeneratorSupplier<T>, Serializable {

    /**
     * The watermark generator for one subtask, as Flink's {@code WatermarkStrategy} declares it.
     */
    @Override
    WatermarkGenerator<T> createWatermarkGenerator(WatermarkGeneratorSupplier.Context context);

    /**
     * The timestamp assigner for one subtask, as Flink's {@code WatermarkStrategy} declares it. The
     * runtime calls this method. By default it returns {@link #createTimestampAssigner()} (the record
     * keeps the timestamp its source gave it), so strategies written against Runnel's former
     * no-argument form keep working.
     */
    @Override
    default TimestampAssigner<T> createTimestampAssigner(TimestampAssignerSupplier.Context context) {
        return createTimestampAssigner();
    }

    /**
     * Runnel's former form of {@link #createTimestampAssigner(TimestampAssignerSupplier.Context)},
     * which calls it; by default the record keeps the timestamp its source gave it.
     *
     * @deprecated override {@link #createTimestampAssigner(TimestampAssignerSupplier.Context)}, as in Flink
     */
    @Deprecated
    default TimestampAssigner<T> createTimestampAssigner() {
        return new RecordTimestampAssigner<>();
    }

    /** This strategy with timestamps taken from {@code assigner}. */
    default WatermarkStrategy<T> withTimestampAssigner(SerializableTimestampAssigner<T> assigner) {
        Objects.requireNonNull(assigner, "assigner");
        return withTimestampAssigner(TimestampAssignerSupplier.of(assigner));
    }

    /** This strategy with timestamps taken from the assigners {@code supplier} creates per subtask. */
    default WatermarkStrategy<T> withTimestampAssigner(TimestampAssignerSupplier<T> supplier) {
        Objects.requireNonNull(supplier, "supplier");
        WatermarkStrategy<T> base = this;
        return new WatermarkStrategy<>() {
            private static final long serialVersionUID = 1L;

            @Override
            public WatermarkGenerator<T> createWatermarkGenerator(WatermarkGeneratorSupplier.Context context) {
                return base.createWatermarkGenerator(context);
            }

            @Override
            public TimestampAssigner<T> createTimestampAssigner(TimestampAssignerSupplier.Context context) {
                return supplier.createTimestampAssigner(context);
            }
        };
    }

    /** This strategy, marking the stream idle after {@code idleTimeout} without events. */
    default WatermarkStrategy<T> withIdleness(Duration idleTimeout) {
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        WatermarkStrategy<T> base = this;
        return new WatermarkStrategy<>() {
            private static final long serialVersionUID = 1L;

            @Override
            public WatermarkGenerator<T> createWatermarkGenerator(WatermarkGeneratorSupplier.Context context) {
                return new WatermarksWithIdleness<>(base.createWatermarkGenerator(context), idleTimeout,
                        context.getInputActivityClock()::relativeTimeMillis);
            }

            @Override
            public TimestampAssigner<T> createTimestampAssigner(TimestampAssignerSupplier.Context context) {
                return base.createTimestampAssigner(context);
            }
        };
    }

    /** Watermarks that trail the largest timestamp seen by {@code maxOutOfOrderness}. */
    static <T> WatermarkStrategy<T> forBoundedOutOfOrderness(Duration maxOutOfOrderness) {
        Objects.requireNonNull(maxOutOfOrderness, "maxOutOfOrderness");
        return context -> new BoundedOutOfOrdernessWatermarks<>(maxOutOfOrderness);
    }

    /** For timestamps that never decrease. */
    static <T> WatermarkStrategy<T> forMonotonousTimestamps() {
        return context -> new AscendingTimestampsWatermarks<>();
    }

    /** No watermarks (processing time only). */
    static <T> WatermarkStrategy<T> noWatermarks() {
        return context -> new NoWatermarksGenerator<>();
    }

    /** A strategy around a custom generator. */
    static <T> WatermarkStrategy<T> forGenerator(WatermarkGeneratorSupplier<T> supplier) {
        Objects.requireNonNull(supplier, "supplier");
        return supplier::createWatermarkGenerator;
    }
}
