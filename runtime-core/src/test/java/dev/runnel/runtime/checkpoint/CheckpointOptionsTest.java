package dev.runnel.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.core.execution.SavepointFormatType;
import org.junit.jupiter.api.Test;

/** The alignment kinds of a checkpoint and how they change per edge and on an alignment timeout (Flink's rules). */
class CheckpointOptionsTest {

    @Test
    void aRescaleHandoverIsAnAlignedNativeSavepointThatNoOtherOptionsEqual() {
        CheckpointOptions handover = CheckpointOptions.rescaleHandover();
        assertThat(handover.isLocalHandover()).isTrue();
        assertThat(handover.isSavepoint()).isTrue();
        assertThat(handover.getSavepointFormat()).isEqualTo(SavepointFormatType.NATIVE);
        assertThat(handover.mayBeIncremental()).isFalse();
        assertThat(handover.getAlignment()).isEqualTo(CheckpointOptions.AlignmentType.ALIGNED);
        assertThat(handover.withUnalignedUnsupported()).isSameAs(handover);
        assertThat(handover).isNotEqualTo(CheckpointOptions.savepoint(SavepointFormatType.NATIVE))
                .isEqualTo(CheckpointOptions.rescaleHandover());
        assertThat(CheckpointOptions.savepoint(SavepointFormatType.NATIVE).isLocalHandover()).isFalse();
        assertThat(CheckpointOptions.checkpoint(true).isLocalHandover()).isFalse();
    }

    @Test
    void aPositiveTimeoutStartsAlignedAndTimeoutable() {
        CheckpointOptions options = CheckpointOptions.checkpoint(true, true, 100);
        assertThat(options.isUnalignedCheckpoint()).isFalse();
        assertThat(options.isTimeoutable()).isTrue();
        assertThat(options.getAlignedCheckpointTimeout()).isEqualTo(100);
        assertThat(options.toUnaligned()).isEqualTo(CheckpointOptions.checkpoint(true, true));
    }

    @Test
    void aZeroTimeoutIsUnalignedFromTheStartAndTheTimeoutNeedsUnaligned() {
        assertThat(CheckpointOptions.checkpoint(true, true, 0).isUnalignedCheckpoint()).isTrue();
        assertThat(CheckpointOptions.checkpoint(true, false, 100).isTimeoutable()).isFalse();
        assertThat(CheckpointOptions.checkpoint(false, true, 100).isExactlyOnceMode()).isFalse();
        assertThat(CheckpointOptions.checkpoint(false, true, 100).needsChannelState()).isFalse();
        assertThatThrownBy(() -> CheckpointOptions.checkpoint(true, true, -1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1 ms");
    }

    @Test
    void unsupportedEdgesForceAlignmentAndTheNextEdgeUndoesIt() {
        CheckpointOptions unaligned = CheckpointOptions.checkpoint(true, true);
        CheckpointOptions forced = unaligned.withUnalignedUnsupported();
        assertThat(forced.isForcedAligned()).isTrue();
        assertThat(forced.isUnalignedCheckpoint()).isFalse();
        assertThat(forced.withUnalignedSupported()).isEqualTo(unaligned);

        CheckpointOptions timeoutable = CheckpointOptions.checkpoint(true, true, 50);
        assertThat(timeoutable.withUnalignedUnsupported().isForcedAligned()).isTrue();
        assertThat(timeoutable.withUnalignedUnsupported().withUnalignedSupported()).isEqualTo(timeoutable);

        // Plain aligned checkpoints and savepoints have nothing to force.
        CheckpointOptions aligned = CheckpointOptions.checkpoint(true);
        assertThat(aligned.withUnalignedUnsupported()).isSameAs(aligned);
        CheckpointOptions savepoint = CheckpointOptions.savepoint(SavepointFormatType.CANONICAL);
        assertThat(savepoint.withUnalignedUnsupported()).isSameAs(savepoint);
        assertThatThrownBy(savepoint::toUnaligned).isInstanceOf(IllegalStateException.class);
    }
}
