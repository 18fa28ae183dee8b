package dev.runnel.connector.datagen.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.connector.source.Boundedness;
import dev.runnel.api.connector.source.SourceReader;
import dev.runnel.api.connector.source.SourceReaderContext;
import dev.runnel.api.connector.source.SplitEnumerator;
import dev.runnel.api.connector.source.lib.NumberSequenceSource.NumberSequenceSplit;
import dev.runnel.api.connector.source.util.ratelimit.RateLimiterStrategy;
import dev.runnel.connector.testutils.SourceReaderDriver;
import dev.runnel.connector.testutils.TestingEnumeratorContext;
import dev.runnel.connector.testutils.TestingReaderContext;
import dev.runnel.connector.testutils.TestingReaderOutput;
import dev.runnel.core.io.InputStatus;
import dev.runnel.core.io.SimpleVersionedSerializer;
import dev.runnel.util.InstantiationUtil;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class DataGeneratorSourceTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Test
    void everyIndexIsGeneratedExactlyOnceAcrossReaders() throws Exception {
        DataGeneratorSource<String> source = new DataGeneratorSource<>(i -> "r" + i, 1_003, Types.STRING);
        int parallelism = 3;
        TestingEnumeratorContext<NumberSequenceSplit> enumContext = new TestingEnumeratorContext<>(parallelism);
        SplitEnumerator<NumberSequenceSplit, Collection<NumberSequenceSplit>> enumerator = source.createEnumerator(enumContext);
        enumerator.start();

        // Every reader asks for a split before any drains, as running subtasks would.
        List<SourceReader<String, NumberSequenceSplit>> readers = new ArrayList<>();
        List<SourceReaderDriver<String, NumberSequenceSplit>> drivers = new ArrayList<>();
        for (int subtask = 0; subtask < parallelism; subtask++) {
            TestingReaderContext readerContext = new TestingReaderContext(subtask, parallelism);
            SourceReader<String, NumberSequenceSplit> reader = source.createReader(readerContext);
            reader.start();
            readers.add(reader);
            SourceReaderDriver<String, NumberSequenceSplit> driver =
                    new SourceReaderDriver<>(reader, enumerator, enumContext, readerContext);
            driver.pollRecords(1, WAIT);
            drivers.add(driver);
        }
        List<String> all = new ArrayList<>();
        for (int subtask = 0; subtask < parallelism; subtask++) {
            List<String> records = drivers.get(subtask).runToEnd(WAIT);
            assertThat(records).as("subtask %s gets its third", subtask).hasSizeBetween(334, 335);
            all.addAll(records);
            readers.get(subtask).close();
        }
        assertThat(all).containsExactlyInAnyOrderElementsOf(
                LongStream.range(0, 1_003).mapToObj(i -> "r" + i).collect(Collectors.toList()));
    }

    @Test
    void boundednessTypeAndCount() {
        DataGeneratorSource<Long> bounded = new DataGeneratorSource<>(i -> i, 10, Types.LONG);
        assertThat(bounded.getBoundedness()).isEqualTo(Boundedness.BOUNDED);
        assertThat(bounded.getProducedType()).isEqualTo(Types.LONG);
        assertThat(bounded.getCount()).isEqualTo(10);
        DataGeneratorSource<Long> unbounded = new DataGeneratorSource<>(i -> i, Long.MAX_VALUE, Types.LONG);
        assertThat(unbounded.getBoundedness()).isEqualTo(Boundedness.CONTINUOUS_UNBOUNDED);
        assertThatThrownBy(() -> new DataGeneratorSource<>(i -> i, -1, Types.LONG))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
    }

    @Test
    void anUnboundedSourceKeepsGenerating() throws Exception {
        DataGeneratorSource<Long> source = new DataGeneratorSource<>(i -> i * 2, Long.MAX_VALUE, Types.LONG);
        TestingEnumeratorContext<NumberSequenceSplit> enumContext = new TestingEnumeratorContext<>(2);
        SplitEnumerator<NumberSequenceSplit, ?> enumerator = source.createEnumerator(enumContext);
        enumerator.start();
        TestingReaderContext readerContext = new TestingReaderContext(0, 2);
        SourceReader<Long, NumberSequenceSplit> reader = source.createReader(readerContext);
        reader.start();
        SourceReaderDriver<Long, NumberSequenceSplit> driver = new SourceReaderDriver<>(reader, enumerator, enumContext, readerContext);
        assertThat(driver.pollRecords(10_000, WAIT)).isEqualTo(InputStatus.MORE_AVAILABLE);
        assertThat(driver.records()).hasSize(10_000).startsWith(0L, 2L, 4L);
    }

    @Test
    void aZeroCountSourceEndsAtOnce() throws Exception {
        DataGeneratorSource<Long> source = new DataGeneratorSource<>(i -> i, 0, Types.LONG);
        TestingEnumeratorContext<NumberSequenceSplit> enumContext = new TestingEnumeratorContext<>(1);
        SplitEnumerator<NumberSequenceSplit, ?> enumerator = source.createEnumerator(enumContext);
        enumerator.start();
        TestingReaderContext readerContext = new TestingReaderContext(0, 1);
        SourceReader<Long, NumberSequenceSplit> reader = source.createReader(readerContext);
        reader.start();
        assertThat(new SourceReaderDriver<>(reader, enumerator, enumContext, readerContext).runToEnd(WAIT)).isEmpty();
    }

    @Test
    void aRestoredReaderResumesAfterTheLastEmittedIndex() throws Exception {
        DataGeneratorSource<Long> source = new DataGeneratorSource<>(i -> i, 100, Types.LONG);
        TestingEnumeratorContext<NumberSequenceSplit> enumContext = new TestingEnumeratorContext<>(1);
        SplitEnumerator<NumberSequenceSplit, Collection<NumberSequenceSplit>> enumerator = source.createEnumerator(enumContext);
        enumerator.start();
        TestingReaderContext readerContext = new TestingReaderContext(0, 1);
        SourceReader<Long, NumberSequenceSplit> reader = source.createReader(readerContext);
        reader.start();
        SourceReaderDriver<Long, NumberSequenceSplit> driver = new SourceReaderDriver<>(reader, enumerator, enumContext, readerContext);
        driver.pollRecords(37, WAIT);
        assertThat(driver.records()).hasSize(37);

        // Checkpoint reader and enumerator through their serializers, then restore both.
        SimpleVersionedSerializer<NumberSequenceSplit> splitSerializer = source.getSplitSerializer();
        List<NumberSequenceSplit> readerState = new ArrayList<>();
        for (NumberSequenceSplit split : reader.snapshotState(1)) {
            readerState.add(splitSerializer.deserialize(splitSerializer.getVersion(), splitSerializer.serialize(split)));
        }
        SimpleVersionedSerializer<Collection<NumberSequenceSplit>> checkpointSerializer = source.getEnumeratorCheckpointSerializer();
        Collection<NumberSequenceSplit> enumState = checkpointSerializer.deserialize(checkpointSerializer.getVersion(),
                checkpointSerializer.serialize(enumerator.snapshotState(1)));
        reader.close();

        DataGeneratorSource<Long> copy = InstantiationUtil.clone(source, "source");
        TestingEnumeratorContext<NumberSequenceSplit> enumContext2 = new TestingEnumeratorContext<>(1);
        SplitEnumerator<NumberSequenceSplit, ?> restoredEnumerator = copy.restoreEnumerator(enumContext2, enumState);
        restoredEnumerator.start();
        TestingReaderContext readerContext2 = new TestingReaderContext(0, 1);
        SourceReader<Long, NumberSequenceSplit> restored = copy.createReader(readerContext2);
        restored.addSplits(readerState);
        restored.start();
        List<Long> rest = new SourceReaderDriver<>(restored, restoredEnumerator, enumContext2, readerContext2).runToEnd(WAIT);

        List<Long> all = new ArrayList<>(driver.records());
        all.addAll(rest);
        assertThat(all).containsExactlyElementsOf(LongStream.range(0, 100).boxed().collect(Collectors.toList()));
    }

    @Test
    void theGeneratorFunctionIsOpenedWithTheReaderContextAndClosed() throws Exception {
        RecordingGenerator.events.clear();
        DataGeneratorSource<String> source = new DataGeneratorSource<>(new RecordingGenerator(), 3, Types.STRING);
        TestingEnumeratorContext<NumberSequenceSplit> enumContext = new TestingEnumeratorContext<>(1);
        SplitEnumerator<NumberSequenceSplit, ?> enumerator = source.createEnumerator(enumContext);
        enumerator.start();
        TestingReaderContext readerContext = new TestingReaderContext(0, 1);
        SourceReader<String, NumberSequenceSplit> reader = InstantiationUtil.clone(source, "source").createReader(readerContext);
        reader.start();
        List<String> records = new SourceReaderDriver<>(reader, enumerator, enumContext, readerContext).runToEnd(WAIT);
        reader.close();
        assertThat(records).containsExactly("0/1:0", "0/1:1", "0/1:2");
        assertThat(RecordingGenerator.events).containsExactly("open 0/1", "close");
    }

    @Test
    void aCheckedExceptionOfTheGeneratorFailsThePollUnchanged() throws Exception {
        GeneratorFunction<Long, String> failing = i -> {
            if (i == 2) {
                throw new IOException("no record for " + i);
            }
            return "ok" + i;
        };
        DataGeneratorSource<String> source = new DataGeneratorSource<>(failing, 5, Types.STRING);
        TestingEnumeratorContext<NumberSequenceSplit> enumContext = new TestingEnumeratorContext<>(1);
        SplitEnumerator<NumberSequenceSplit, ?> enumerator = source.createEnumerator(enumContext);
        enumerator.start();
        TestingReaderContext readerContext = new TestingReaderContext(0, 1);
        SourceReader<String, NumberSequenceSplit> reader = source.createReader(readerContext);
        reader.start();
        SourceReaderDriver<String, NumberSequenceSplit> driver = new SourceReaderDriver<>(reader, enumerator, enumContext, readerContext);
        assertThatThrownBy(() -> driver.runToEnd(WAIT)).isInstanceOf(IOException.class).hasMessage("no record for 2");
        assertThat(driver.records()).containsExactly("ok0", "ok1");
    }

    @Test
    void aRateLimitedReaderAnswersNothingAvailableAndWakesByTimer() throws Exception {
        // 50 records/s with one reader: 20 ms apart, so 11 records need at least ~200 ms.
        DataGeneratorSource<Long> source = new DataGeneratorSource<>(i -> i, 11, RateLimiterStrategy.perSecond(50), Types.LONG);
        TestingEnumeratorContext<NumberSequenceSplit> enumContext = new TestingEnumeratorContext<>(1);
        SplitEnumerator<NumberSequenceSplit, ?> enumerator = source.createEnumerator(enumContext);
        enumerator.start();
        TestingReaderContext readerContext = new TestingReaderContext(0, 1);
        SourceReader<Long, NumberSequenceSplit> reader = source.createReader(readerContext);
        reader.start();
        SourceReaderDriver<Long, NumberSequenceSplit> driver = new SourceReaderDriver<>(reader, enumerator, enumContext, readerContext);

        long start = System.nanoTime();
        List<Long> records = driver.runToEnd(WAIT);
        long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertThat(records).containsExactlyElementsOf(LongStream.range(0, 11).boxed().collect(Collectors.toList()));
        assertThat(elapsedMillis).isBetween(180L, 5_000L);
        assertThat(driver.nothingAvailableCount()).as("waits are NOTHING_AVAILABLE, not sleeps").isGreaterThanOrEqualTo(5);
    }

    @Test
    void pollNeverBlocksWhileAPermitIsPending() throws Exception {
        // 1 record/s: after the first record the next permit is a second away.
        DataGeneratorSource<Long> source = new DataGeneratorSource<>(i -> i, 5, RateLimiterStrategy.perSecond(1), Types.LONG);
        TestingEnumeratorContext<NumberSequenceSplit> enumContext = new TestingEnumeratorContext<>(1);
        SplitEnumerator<NumberSequenceSplit, ?> enumerator = source.createEnumerator(enumContext);
        enumerator.start();
        TestingReaderContext readerContext = new TestingReaderContext(0, 1);
        SourceReader<Long, NumberSequenceSplit> reader = source.createReader(readerContext);
        reader.start();
        new SourceReaderDriver<>(reader, enumerator, enumContext, readerContext).pollRecords(1, WAIT);

        TestingReaderOutput<Long> output = new TestingReaderOutput<>();
        long start = System.nanoTime();
        for (int i = 0; i < 100; i++) {
            assertThat(reader.pollNext(output)).isEqualTo(InputStatus.NOTHING_AVAILABLE);
        }
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(500);
        assertThat(output.records()).isEmpty();
        CompletableFuture<Void> available = reader.isAvailable();
        assertThat(available).isNotDone();
        available.get(5, TimeUnit.SECONDS);
        assertThat(reader.pollNext(output)).isEqualTo(InputStatus.MORE_AVAILABLE);
        assertThat(output.records()).containsExactly(1L);
    }

    /** Records its lifecycle in a static list (the reader holds a deserialized copy). */
    static final class RecordingGenerator implements GeneratorFunction<Long, String> {
        static final List<String> events = new ArrayList<>();
        private transient String prefix;

        @Override
        public void open(SourceReaderContext readerContext) {
            prefix = readerContext.getIndexOfSubtask() + "/" + readerContext.currentParallelism();
            events.add("open " + prefix);
        }

        @Override
        public String map(Long value) {
            return prefix + ":" + value;
        }

        @Override
        public void close() {
            events.add("close");
        }
    }
}
