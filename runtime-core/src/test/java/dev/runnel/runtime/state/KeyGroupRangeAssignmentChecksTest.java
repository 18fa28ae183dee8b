package dev.runnel.runtime.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The argument checks of the per-record key-group functions: each names the bad value and the bound. */
class KeyGroupRangeAssignmentChecksTest {

    @Test
    void aParallelismBelowOneIsRefusedNamingIt() {
        assertThatThrownBy(() -> KeyGroupRangeAssignment.assignKeyToParallelOperator("k", 128, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("parallelism must be > 0, was 0");
    }

    @Test
    void aParallelismAboveTheMaxParallelismIsRefusedNamingBoth() {
        assertThatThrownBy(() -> KeyGroupRangeAssignment.computeOperatorIndexForKeyGroup(128, 129, 5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("parallelism must be <= maxParallelism (128), was 129");
    }

    @Test
    void aKeyGroupOutsideTheMaxParallelismIsRefusedNamingIt() {
        assertThatThrownBy(() -> KeyGroupRangeAssignment.computeOperatorIndexForKeyGroup(128, 4, 128))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("keyGroupId must be in [0, maxParallelism=128), was 128");
        assertThatThrownBy(() -> KeyGroupRangeAssignment.computeOperatorIndexForKeyGroup(128, 4, -1))
                .hasMessage("keyGroupId must be in [0, maxParallelism=128), was -1");
    }

    @Test
    void validArgumentsPass() {
        assertThat(KeyGroupRangeAssignment.computeOperatorIndexForKeyGroup(128, 4, 127)).isEqualTo(3);
        assertThat(KeyGroupRangeAssignment.computeOperatorIndexForKeyGroup(128, 128, 0)).isZero();
    }
}
