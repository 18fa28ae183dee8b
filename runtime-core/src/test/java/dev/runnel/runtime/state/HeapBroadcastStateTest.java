package dev.runnel.runtime.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.state.BroadcastState;
import dev.runnel.api.common.state.ReadOnlyBroadcastState;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HeapBroadcastStateTest {

    @Test
    void theReadOnlyViewReadsTheSameMapAndRefusesEveryChange() throws Exception {
        HeapBroadcastState<String, Integer> state = new HeapBroadcastState<>("rules");
        state.putAll(Map.of("a", 1, "b", 2));
        state.remove("b");
        ReadOnlyBroadcastState<String, Integer> view = state.readOnly();
        assertThat(view.get("a")).isEqualTo(1);
        assertThat(view.contains("b")).isFalse();
        assertThat(view.immutableEntries()).containsExactly(Map.entry("a", 1));

        assertThatThrownBy(view::clear).isInstanceOf(UnsupportedOperationException.class)
                .hasMessageStartingWith("Cannot clear broadcast state 'rules' in processElement()");
        BroadcastState<String, Integer> cast = (BroadcastState<String, Integer>) view;
        assertThatThrownBy(() -> cast.remove("a")).isInstanceOf(UnsupportedOperationException.class)
                .hasMessageStartingWith("Cannot remove from broadcast state 'rules'");
        assertThatThrownBy(cast::iterator).isInstanceOf(UnsupportedOperationException.class);
        Map.Entry<String, Integer> entry = view.immutableEntries().iterator().next();
        assertThatThrownBy(() -> entry.setValue(5)).isInstanceOf(UnsupportedOperationException.class);
        assertThat(state.get("a")).isEqualTo(1);
    }

    @Test
    void theWritableStateChangesThroughItsEntries() throws Exception {
        HeapBroadcastState<String, Integer> state = new HeapBroadcastState<>("rules");
        state.put("a", 1);
        state.entries().iterator().next().setValue(3);
        assertThat(state.get("a")).isEqualTo(3);
        var it = state.iterator();
        it.next();
        it.remove();
        assertThat(state.contains("a")).isFalse();
    }
}
