package dev.runnel.runtime.network.blocking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.typeutils.base.StringSerializer;
import dev.runnel.runtime.io.ChannelEvent;
import dev.runnel.runtime.io.EndOfPartitionEvent;
import dev.runnel.runtime.io.RecordBatch;
import dev.runnel.runtime.io.WatermarkEvent;
import dev.runnel.runtime.io.WatermarkStatusEvent;
import dev.runnel.runtime.shuffle.BlockingChannelDescriptor;
import dev.runnel.runtime.shuffle.BlockingPartitionDescriptor;
import dev.runnel.runtime.shuffle.BlockingPartitionIndex;
import dev.runnel.runtime.shuffle.ChannelDescriptor;
import dev.runnel.runtime.shuffle.ChannelId;
import dev.runnel.runtime.shuffle.InputGateDeploymentDescriptor;
import dev.runnel.runtime.shuffle.ResultPartitionDeploymentDescriptor;
import dev.runnel.runtime.shuffle.TaskLocation;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A blocking partition written by one producer and read, by subpartition ranges, by consumers afterwards. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BlockingPartitionTest {

    private static final int SUBPARTITIONS = 8;

    @TempDir
    Path dir;

    /** What a consumer channel delivered: records as "value@timestamp", events by their toString. */
    private record Read(List<String> records, List<ChannelEvent> events) {}

    private String file(int producer) {
        return dir.resolve("e1-" + producer).toString();
    }

    private BlockingResultPartitionWriter writer(int producer) {
        return new BlockingResultPartitionWriter(new ResultPartitionDeploymentDescriptor("e1", producer,
                StringSerializer.INSTANCE, List.of(), new BlockingPartitionDescriptor(file(producer), SUBPARTITIONS)));
    }

    private BlockingInputGate gate(BlockingChannelDescriptor... channels) {
        TaskLocation here = new TaskLocation(TaskLocation.EMBEDDED_TASK_MANAGER, null, 0);
        List<ChannelDescriptor> described = new ArrayList<>();
        for (int i = 0; i < channels.length; i++) {
            described.add(new ChannelDescriptor(new ChannelId("e1", i, 0), here, here));
        }
        return new BlockingInputGate(new InputGateDeploymentDescriptor(1, StringSerializer.INSTANCE, described,
                List.of(channels)));
    }

    private static List<Read> readAll(BlockingInputGate gate) {
        List<Read> reads = new ArrayList<>();
        for (int i = 0; i < gate.getNumberOfInputChannels(); i++) {
            reads.add(new Read(new ArrayList<>(), new ArrayList<>()));
        }
        while (!gate.isFinished()) {
            assertThat(gate.isAvailable()).isTrue();
            RecordBatch batch = gate.pollNext();
            Read read = reads.get(gate.lastChannel());
            if (batch.isEvent()) {
                read.events().add(batch.event());
                continue;
            }
            for (int i = 0; i < batch.size(); i++) {
                read.records().add(batch.value(i) + "@" + batch.timestamp(i));
            }
            gate.recycle(batch);
        }
        assertThat(gate.pollNext()).isNull();
        return reads;
    }

    /** Record n goes to subpartition n mod 8 with timestamp n; long values make regions fill and span. */
    private static String value(int n) {
        return "record-" + n + "-" + "x".repeat(n % 200);
    }

    @Test
    void aConsumerReadsItsSubpartitionsInOrderThenTheLastEventsThenTheEnd() throws Exception {
        int records = 20_000;
        try (BlockingResultPartitionWriter writer = writer(0)) {
            for (int n = 0; n < records; n++) {
                assertThat(writer.emitRecord(value(n), n, n % SUBPARTITIONS)).isTrue();
                if (n == 100) {
                    writer.broadcastEvent(new WatermarkEvent(50));
                    writer.broadcastEvent(WatermarkStatusEvent.IDLE);
                }
            }
            writer.broadcastEvent(WatermarkStatusEvent.ACTIVE);
            writer.broadcastEvent(new WatermarkEvent(Long.MAX_VALUE));
            writer.finish();
        }
        BlockingPartitionIndex index = BlockingPartitionIndex.read(file(0));
        assertThat(index.regions().size()).as("records span many regions").isGreaterThan(SUBPARTITIONS * 5);
        assertThat(index.bytes()).isEqualTo(Files.size(Path.of(file(0))));

        List<Read> reads = readAll(gate(new BlockingChannelDescriptor(file(0), 2, 5),
                new BlockingChannelDescriptor(file(0), 7, 8)));
        List<String> expectedFirst = new ArrayList<>();
        List<String> expectedSecond = new ArrayList<>();
        for (int n = 0; n < records; n++) {
            int subpartition = n % SUBPARTITIONS;
            if (subpartition >= 2 && subpartition < 5) {
                expectedFirst.add(value(n) + "@" + n);
            } else if (subpartition == 7) {
                expectedSecond.add(value(n) + "@" + n);
            }
        }
        // per subpartition in the order written; the subpartitions of a range interleave by region
        assertThat(reads.get(0).records()).containsExactlyInAnyOrderElementsOf(expectedFirst);
        for (int s = 2; s < 5; s++) {
            int sub = s;
            assertThat(reads.get(0).records().stream().map(r -> Integer.parseInt(r.substring(r.indexOf('@') + 1)))
                    .filter(n -> n % SUBPARTITIONS == sub).toList()).isSorted().hasSize(records / SUBPARTITIONS);
        }
        assertThat(reads.get(1).records()).containsExactlyElementsOf(expectedSecond);
        assertThat(reads.get(0).events()).as("the latest watermark and status, in the order they last came")
                .containsExactly(WatermarkStatusEvent.ACTIVE, new WatermarkEvent(Long.MAX_VALUE),
                        EndOfPartitionEvent.INSTANCE);
        assertThat(reads.get(1).events()).isEqualTo(reads.get(0).events());
    }

    @Test
    void broadcastRecordsReachEverySubpartition() throws Exception {
        try (BlockingResultPartitionWriter writer = writer(0)) {
            writer.broadcastRecord("all", 7);
            writer.emitRecord("three", 8, 3);
            writer.finish();
        }
        List<Read> reads = readAll(gate(new BlockingChannelDescriptor(file(0), 0, 3),
                new BlockingChannelDescriptor(file(0), 3, 4)));
        assertThat(reads.get(0).records()).containsExactly("all@7", "all@7", "all@7");
        assertThat(reads.get(1).records()).containsExactlyInAnyOrder("all@7", "three@8");
    }

    @Test
    void aProducerThatDidNotFinishLeavesNothingAConsumerCouldMistakeForWhole() {
        BlockingResultPartitionWriter writer = writer(1);
        writer.emitRecord("lost", 1, 0);
        writer.close();
        assertThat(Path.of(file(1))).doesNotExist();
        BlockingInputGate gate = gate(new BlockingChannelDescriptor(file(1), 0, 1));
        assertThatThrownBy(gate::pollNext).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining(file(1)).hasMessageContaining("has no index")
                .hasMessageContaining("producer did not finish");
    }

    @Test
    void aDamagedIndexIsNamedAndRefused() throws Exception {
        try (BlockingResultPartitionWriter writer = writer(2)) {
            writer.emitRecord("a", 1, 0);
            writer.finish();
        }
        Path index = BlockingPartitionIndex.indexFileOf(file(2));
        try (RandomAccessFile raw = new RandomAccessFile(index.toFile(), "rw")) {
            raw.seek(14);
            raw.write(raw.read() ^ 0x55);
        }
        assertThatThrownBy(() -> BlockingPartitionIndex.read(file(2))).isInstanceOf(IOException.class)
                .hasMessageContaining(index.toString()).hasMessageContaining("checksum does not match");
    }

    @Test
    void aTruncatedDataFileFailsTheReadInsteadOfDroppingRecords() throws Exception {
        try (BlockingResultPartitionWriter writer = writer(3)) {
            for (int n = 0; n < 100; n++) {
                writer.emitRecord(value(n), n, 0);
            }
            writer.finish();
        }
        try (RandomAccessFile raw = new RandomAccessFile(file(3), "rw")) {
            raw.setLength(raw.length() / 2);
        }
        BlockingInputGate gate = gate(new BlockingChannelDescriptor(file(3), 0, 1));
        assertThatThrownBy(() -> readAll(gate)).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining(file(3)).hasMessageContaining("truncated");
    }

    @Test
    void checkpointBarriersCannotCrossABlockingExchange() {
        try (BlockingResultPartitionWriter writer = writer(4)) {
            assertThatThrownBy(() -> writer.broadcastEvent(new dev.runnel.runtime.io.CancelCheckpointMarker(3)))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("do not checkpoint");
        }
    }
}
