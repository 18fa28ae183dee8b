package dev.runnel.connector.datagen.source;

import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.connector.source.Boundedness;
import dev.runnel.api.connector.source.Source;
import dev.runnel.api.connector.source.SourceReader;
import dev.runnel.api.connector.source.SourceReaderContext;
import dev.runnel.api.connector.source.SplitEnumerator;
import dev.runnel.api.connector.source.SplitEnumeratorContext;
import dev.runnel.api.connector.source.lib.IteratorSourceEnumerator;
import dev.runnel.api.connector.source.lib.NumberSequenceSource;
import dev.runnel.api.connector.source.lib.NumberSequenceSource.NumberSequenceSplit;
import dev.runnel.api.connector.source.util.ratelimit.RateLimiterStrategy;
import dev.runnel.api.java.typeutils.ResultTypeQueryable;
import dev.runnel.core.io.SimpleVersionedSerializer;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * A source of generated records: record {@code i} is {@code generatorFunction.map(i)} for every index
 * {@code i} in {@code [0, count)}, each emitted exactly once across all readers, optionally paced by a
 * {@link RateLimiterStrategy}. The index range is cut into one contiguous range per reader, as in
 * {@link NumberSequenceSource}; checkpoints record how far each range got.
 *
 * <pre>{@code
 * DataGeneratorSource<String> source = new DataGeneratorSource<>(
 *         index -> "event-" + index, 1_000, RateLimiterStrategy.perSecond(100), Types.STRING);
 * DataStream<String> events = env.fromSource(source, WatermarkStrategy.noWatermarks(), "Generator");
 * }</pre>
 *
 * <p>{@code count == Long.MAX_VALUE} makes the source unbounded
 * ({@link Boundedness#CONTINUOUS_UNBOUNDED}): it generates until the job is cancelled.
 *
 * <p>The source object is serializable configuration; the generator function is copied into every
 * reader. Readers never block their task thread, not even when rate-limited.
 *
 * @param <OUT> the record type
 */
public class DataGeneratorSource<OUT> implements Source<OUT, NumberSequenceSplit, Collection<NumberSequenceSplit>>,
        ResultTypeQueryable<OUT> {

    private static final long serialVersionUID = 1L;

    private final GeneratorFunction<Long, OUT> generatorFunction;
    private final long count;
    private final RateLimiterStrategy rateLimiterStrategy;
    private final TypeInformation<OUT> typeInfo;
    /** The indexes {@code [0, count - 1]}; only its splitting and serializers are used. */
    private final NumberSequenceSource indexes;

    /**
     * An unpaced generator.
     *
     * @param generatorFunction makes the record of each index; not null, serializable
     * @param count how many records; {@code Long.MAX_VALUE} for an unbounded source; not negative
     * @param typeInfo the records' type; not null
     */
    public DataGeneratorSource(GeneratorFunction<Long, OUT> generatorFunction, long count,
            TypeInformation<OUT> typeInfo) {
        this(generatorFunction, count, RateLimiterStrategy.noOp(), typeInfo);
    }

    /**
     * A generator paced by {@code rateLimiterStrategy} (e.g. {@link RateLimiterStrategy#perSecond}).
     *
     * @param generatorFunction makes the record of each index; not null, serializable
     * @param count how many records; {@code Long.MAX_VALUE} for an unbounded source; not negative
     * @param rateLimiterStrategy how fast to emit; not null
     * @param typeInfo the records' type; not null
     */
    public DataGeneratorSource(GeneratorFunction<Long, OUT> generatorFunction, long count,
            RateLimiterStrategy rateLimiterStrategy, TypeInformation<OUT> typeInfo) {
        this.generatorFunction = Objects.requireNonNull(generatorFunction, "generatorFunction");
        this.rateLimiterStrategy = Objects.requireNonNull(rateLimiterStrategy, "rateLimiterStrategy");
        this.typeInfo = Objects.requireNonNull(typeInfo, "typeInfo");
        if (count < 0) {
            throw new IllegalArgumentException("A data generator's count must not be negative, not " + count);
        }
        this.count = count;
        this.indexes = new NumberSequenceSource(0, Math.max(0, count - 1));
    }

    /** How many records the source generates ({@code Long.MAX_VALUE}: unbounded). */
    public long getCount() {
        return count;
    }

    @Override
    public TypeInformation<OUT> getProducedType() {
        return typeInfo;
    }

    @Override
    public Boundedness getBoundedness() {
        return count == Long.MAX_VALUE ? Boundedness.CONTINUOUS_UNBOUNDED : Boundedness.BOUNDED;
    }

    @Override
    public SourceReader<OUT, NumberSequenceSplit> createReader(SourceReaderContext readerContext) {
        return new DataGeneratorSourceReader<>(readerContext, generatorFunction,
                rateLimiterStrategy.createRateLimiter(readerContext.currentParallelism()));
    }

    @Override
    public SplitEnumerator<NumberSequenceSplit, Collection<NumberSequenceSplit>> createEnumerator(
            SplitEnumeratorContext<NumberSequenceSplit> enumContext) {
        if (count == 0) {
            return new IteratorSourceEnumerator<>(enumContext, List.of());
        }
        return indexes.createEnumerator(enumContext);
    }

    @Override
    public SplitEnumerator<NumberSequenceSplit, Collection<NumberSequenceSplit>> restoreEnumerator(
            SplitEnumeratorContext<NumberSequenceSplit> enumContext, Collection<NumberSequenceSplit> checkpoint) {
        return new IteratorSourceEnumerator<>(enumContext, checkpoint);
    }

    @Override
    public SimpleVersionedSerializer<NumberSequenceSplit> getSplitSerializer() {
        return indexes.getSplitSerializer();
    }

    @Override
    public SimpleVersionedSerializer<Collection<NumberSequenceSplit>> getEnumeratorCheckpointSerializer() {
        return indexes.getEnumeratorCheckpointSerializer();
    }
}
