package dev.runnel.api.java.utils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MultipleParameterToolTest {

    @Test
    void repeatedKeysKeepEveryValueInOrder() {
        MultipleParameterTool p = MultipleParameterTool.fromArgs(new String[] {
            "--input", "a", "--input", "b", "-n", "-2", "--flag", "--input", "c"});
        assertThat(p.getMultiParameter("input")).containsExactly("a", "b", "c");
        assertThat(p.getMultiParameterRequired("n")).containsExactly("-2");
        assertThat(p.getMultiParameter("flag")).containsExactly("__NO_VALUE_KEY");
        assertThat(p.getMultiParameter("missing")).isNull();
        assertThat(p.getNumberOfParameters()).isEqualTo(3);
    }

    @Test
    void singleValueGettersWorkForSingleValues() {
        MultipleParameterTool p = MultipleParameterTool.fromArgs(new String[] {"--n", "5", "--multi", "x", "--multi", "y"});
        assertThat(p.getInt("n")).isEqualTo(5);
        assertThat(p.get("absent")).isNull();
        assertThatThrownBy(() -> p.get("multi")).isExactlyInstanceOf(IllegalStateException.class)
                .hasMessage("Key multi should has only one value, but has 2: [x, y]. "
                        + "Read all of them with getMultiParameter(\"multi\").");
    }

    @Test
    void toMapShowsTheLastValue() {
        MultipleParameterTool p = MultipleParameterTool.fromArgs(new String[] {"--k", "1", "--k", "2", "--j", "3"});
        assertThat(p.toMap()).containsOnly(entry("k", "2"), entry("j", "3"));
        assertThat(p.toMultiMap()).containsOnly(entry("k", List.of("1", "2")), entry("j", List.of("3")));
    }

    @Test
    void requiredMissingNamesTheKey() {
        MultipleParameterTool p = MultipleParameterTool.fromArgs(new String[0]);
        assertThatThrownBy(() -> p.getMultiParameterRequired("input")).isExactlyInstanceOf(RuntimeException.class)
                .hasMessageStartingWith("No data for required key 'input'");
    }

    @Test
    void mergeAppendsValuesWithoutTouchingEitherSide() {
        MultipleParameterTool left = MultipleParameterTool.fromArgs(new String[] {"--k", "1", "--a", "x"});
        MultipleParameterTool right = MultipleParameterTool.fromArgs(new String[] {"--k", "2", "--b", "y"});
        left.getMultiParameter("a");
        MultipleParameterTool merged = left.mergeWith(right);
        assertThat(merged.getMultiParameter("k")).containsExactly("1", "2");
        assertThat(left.toMultiMap().get("k")).containsExactly("1");
        assertThat(merged.getUnrequestedParameters()).containsExactlyInAnyOrder("b");
    }

    @Test
    void fromMultiMapCopies() {
        Map<String, Collection<String>> source = new java.util.HashMap<>();
        source.put("k", new java.util.ArrayList<>(List.of("1")));
        MultipleParameterTool p = MultipleParameterTool.fromMultiMap(source);
        source.get("k").add("2");
        assertThat(p.getMultiParameter("k")).containsExactly("1");
        assertThatThrownBy(() -> MultipleParameterTool.fromMultiMap(null)).isExactlyInstanceOf(NullPointerException.class);
    }
}
