package dev.runnel.streaming.runtime.tasks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.api.common.typeutils.base.StringSerializer;
import dev.runnel.api.java.functions.KeySelector;
import dev.runnel.core.memory.DataOutputSerializer;
import dev.runnel.runtime.io.ChannelEvent;
import dev.runnel.runtime.io.EndOfPartitionEvent;
import dev.runnel.runtime.io.InputGate;
import dev.runnel.runtime.io.RecordBatch;
import dev.runnel.runtime.io.WatermarkEvent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The BATCH key sort, in memory and spilling: Flink's order (key bytes, then time, stable), keys finished one by one. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class KeySortingInputGateTest {

    @TempDir
    Path spills;

    /** Values are "key:seq"; the key selector takes the part before ':'. */
    private static final KeySelector<Object, Object> KEY = v -> ((String) v).substring(0, ((String) v).indexOf(':'));

    private record Input(String value, long timestamp) {}

    @Test
    void inMemoryTheRecordsComeByKeyBytesThenTimeAndEachKeyIsFinishedBeforeTheNext() throws Exception {
        checkSorted(1 << 30, 0);
    }

    @Test
    void beyondItsMemoryTheSortSpillsRunsAndMergesThemInTheSameOrder() throws Exception {
        checkSorted(4 << 10, 2);
    }

    private void checkSorted(long memory, int atLeastRuns) throws Exception {
        Random random = new Random(42);
        List<Input> inputs = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            String key = "k" + random.nextInt(300);
            inputs.add(new Input(key + ":" + i, random.nextInt(50)));
        }
        InputGate gate = listGate(inputs, 2);
        List<String> log = new ArrayList<>();
        KeySortingInputGate sorted = new KeySortingInputGate(gate, KEY, StringSerializer.INSTANCE,
                StringSerializer.INSTANCE, memory, spills, () -> log.add("finish"));
        List<ChannelEvent> events = new ArrayList<>();
        List<Input> out = new ArrayList<>();
        while (!sorted.isFinished()) {
            RecordBatch batch = sorted.pollNext();
            if (batch == null) {
                continue;
            }
            if (batch.isEvent()) {
                events.add(batch.event());
                continue;
            }
            for (int i = 0; i < batch.size(); i++) {
                String value = (String) batch.value(i);
                assertThat(out.isEmpty() || keyOf(value).equals(keyOf(out.get(out.size() - 1).value()))
                        || log.size() == distinctKeys(out)).as("a key is finished before the next begins").isTrue();
                out.add(new Input(value, batch.timestamp(i)));
            }
            sorted.recycle(batch);
        }
        assertThat(sorted.spilledRuns()).isGreaterThanOrEqualTo(atLeastRuns);
        List<Input> expected = new ArrayList<>(inputs);
        expected.sort(Comparator.<Input, byte[]>comparing(in -> keyBytes(in.value()), Arrays::compareUnsigned)
                .thenComparingLong(Input::timestamp)); // List.sort is stable: arrival order on ties
        assertThat(out).containsExactlyElementsOf(expected);
        assertThat(log).hasSize(distinctKeys(out) - 1);
        assertThat(events).as("each channel's events after the records").containsExactly(
                new WatermarkEvent(Long.MAX_VALUE), EndOfPartitionEvent.INSTANCE,
                new WatermarkEvent(Long.MAX_VALUE), EndOfPartitionEvent.INSTANCE);
        sorted.close();
        try (Stream<Path> left = Files.list(spills)) {
            assertThat(left.toList()).as("run files are deleted").isEmpty();
        }
    }

    private static int distinctKeys(List<Input> records) {
        return (int) records.stream().map(r -> keyOf(r.value())).distinct().count();
    }

    private static String keyOf(String value) {
        return value.substring(0, value.indexOf(':'));
    }

    private static byte[] keyBytes(String value) {
        try {
            DataOutputSerializer out = new DataOutputSerializer(16);
            StringSerializer.INSTANCE.serialize(keyOf(value), out);
            return out.getCopyOfBuffer();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The records split over {@code channels} channels in small batches, then each channel's final watermark and end. */
    private static InputGate listGate(List<Input> inputs, int channels) {
        ScriptedInputGate gate = new ScriptedInputGate(channels);
        for (int from = 0; from < inputs.size(); from += 37) {
            RecordBatch batch = new RecordBatch(37);
            for (Input in : inputs.subList(from, Math.min(inputs.size(), from + 37))) {
                batch.add(in.value(), in.timestamp());
            }
            gate.add(batch, (from / 37) % channels);
        }
        for (int c = 0; c < channels; c++) {
            gate.add(RecordBatch.ofEvent(new WatermarkEvent(Long.MAX_VALUE)), c);
            gate.add(RecordBatch.ofEvent(EndOfPartitionEvent.INSTANCE), c);
        }
        return gate;
    }
}
