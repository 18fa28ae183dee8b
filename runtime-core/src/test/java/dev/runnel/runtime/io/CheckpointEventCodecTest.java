package dev.runnel.runtime.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.core.execution.SavepointFormatType;
import dev.runnel.core.memory.CorruptDataException;
import dev.runnel.core.memory.DataInputDeserializer;
import dev.runnel.core.memory.DataOutputSerializer;
import dev.runnel.runtime.checkpoint.CheckpointOptions;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Checkpoint barriers and cancellation markers on the wire. */
class CheckpointEventCodecTest {

    @Test
    void barriersAndMarkersRoundTrip() throws Exception {
        List<ChannelEvent> events = List.of(
                new CheckpointBarrier(7, 1_700_000_000_123L, CheckpointOptions.checkpoint(true)),
                new CheckpointBarrier(8, 1, CheckpointOptions.checkpoint(false)),
                new CheckpointBarrier(10, 4, CheckpointOptions.checkpoint(true, true)),
                new CheckpointBarrier(11, 5, CheckpointOptions.checkpoint(true, true, 250)),
                new CheckpointBarrier(12, 6, CheckpointOptions.checkpoint(true, true).withUnalignedUnsupported()),
                new CheckpointBarrier(13, 7, CheckpointOptions.checkpoint(true, true, 250).withUnalignedUnsupported()),
                new CheckpointBarrier(9, 2, CheckpointOptions.savepoint(SavepointFormatType.CANONICAL)),
                new CheckpointBarrier(Long.MAX_VALUE, 3, CheckpointOptions.savepoint(SavepointFormatType.NATIVE)),
                new CheckpointBarrier(14, 8, CheckpointOptions.rescaleHandover()),
                new CancelCheckpointMarker(42));
        for (ChannelEvent event : events) {
            DataOutputSerializer out = new DataOutputSerializer(32);
            ChannelEventCodec.write(event, out);
            DataInputDeserializer in = new DataInputDeserializer(out.getCopyOfBuffer());
            assertThat(ChannelEventCodec.read(in)).isEqualTo(event);
            assertThat(in.available()).isZero();
        }
    }

    @Test
    void anUnalignedBarrierIsKind4AndAPriorityEvent() throws Exception {
        CheckpointBarrier barrier = new CheckpointBarrier(11, 5, CheckpointOptions.checkpoint(true, true));
        DataOutputSerializer out = new DataOutputSerializer(32);
        ChannelEventCodec.write(barrier, out);
        byte[] bytes = out.getCopyOfBuffer();
        assertThat(bytes).hasSize(1 + 8 + 8 + 1);
        assertThat(bytes[bytes.length - 1]).isEqualTo((byte) 4);
        CheckpointBarrier read = (CheckpointBarrier) ChannelEventCodec.read(new DataInputDeserializer(bytes));
        assertThat(read.options().isUnalignedCheckpoint()).isTrue();
        assertThat(read.isPriority()).isTrue();
        // Aligned barriers and savepoints never overtake, and at least once is never unaligned.
        assertThat(new CheckpointBarrier(1, 1, CheckpointOptions.checkpoint(true)).isPriority()).isFalse();
        assertThat(new CheckpointBarrier(1, 1, CheckpointOptions.savepoint(SavepointFormatType.CANONICAL))
                .isPriority()).isFalse();
        assertThat(CheckpointOptions.checkpoint(false, true).isUnalignedCheckpoint()).isFalse();
    }

    @Test
    void aForcedAlignedBarrierTravelsInOrderAndKeepsItsTimeout() throws Exception {
        CheckpointBarrier barrier = new CheckpointBarrier(3, 5,
                CheckpointOptions.checkpoint(true, true, 40).withUnalignedUnsupported());
        assertThat(barrier.isPriority()).isFalse();
        DataOutputSerializer out = new DataOutputSerializer(32);
        ChannelEventCodec.write(barrier, out);
        byte[] bytes = out.getCopyOfBuffer();
        assertThat(bytes).hasSize(1 + 8 + 8 + 1 + 8);
        CheckpointBarrier read = (CheckpointBarrier) ChannelEventCodec.read(new DataInputDeserializer(bytes));
        assertThat(read.options().isForcedAligned()).isTrue();
        assertThat(read.options().withUnalignedSupported()).isEqualTo(CheckpointOptions.checkpoint(true, true, 40));
    }

    @Test
    void aTimeoutableKindWithoutAPositiveTimeoutIsCorruptData() throws Exception {
        DataOutputSerializer out = new DataOutputSerializer(32);
        ChannelEventCodec.write(new CheckpointBarrier(5, 6, CheckpointOptions.checkpoint(true, true, 10)), out);
        byte[] bytes = out.getCopyOfBuffer();
        java.util.Arrays.fill(bytes, bytes.length - 8, bytes.length, (byte) 0);
        assertThatThrownBy(() -> ChannelEventCodec.read(new DataInputDeserializer(bytes)))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("checkpoint barrier 5 of kind 5 with aligned checkpoint timeout 0 ms");
    }

    @Test
    void anUnknownBarrierKindIsCorruptData() throws Exception {
        DataOutputSerializer out = new DataOutputSerializer(32);
        ChannelEventCodec.write(new CheckpointBarrier(5, 6, CheckpointOptions.checkpoint(true)), out);
        byte[] bytes = out.getCopyOfBuffer();
        bytes[bytes.length - 1] = 9;
        assertThatThrownBy(() -> ChannelEventCodec.read(new DataInputDeserializer(bytes)))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("checkpoint barrier 5 with kind 9");
    }
}
