package dev.runnel.api.common.accumulators;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class AccumulatorsTest {

    /** What the runtime does with the accumulators of finished subtasks: clone the first, merge the rest. */
    @SafeVarargs
    private static <V, R extends java.io.Serializable> R merged(Accumulator<V, R>... subtasks) {
        Accumulator<V, R> result = subtasks[0].clone();
        for (int i = 1; i < subtasks.length; i++) {
            result.merge(subtasks[i]);
        }
        return result.getLocalValue();
    }

    @Test
    void countersSum() {
        IntCounter a = new IntCounter();
        a.add(3);
        a.add(Integer.valueOf(4));
        IntCounter b = new IntCounter(10);
        assertThat(merged(a, b)).isEqualTo(17);
        assertThat(a.getLocalValuePrimitive()).isEqualTo(7);
        LongCounter l = new LongCounter(5_000_000_000L);
        l.add(1L);
        assertThat(merged(l, new LongCounter(2))).isEqualTo(5_000_000_003L);
        DoubleCounter d = new DoubleCounter();
        d.add(0.5);
        assertThat(merged(d, new DoubleCounter(0.25))).isEqualTo(0.75);
        assertThat(a.toString()).isEqualTo("IntCounter 7");
    }

    @Test
    void minimaAndMaxima() {
        IntMaximum imax = new IntMaximum();
        imax.add(3);
        imax.add(-9);
        assertThat(merged(imax, new IntMaximum(7))).isEqualTo(7);
        IntMinimum imin = new IntMinimum();
        imin.add(3);
        assertThat(merged(imin, new IntMinimum(-2))).isEqualTo(-2);
        LongMaximum lmax = new LongMaximum();
        lmax.add(1L << 40);
        assertThat(merged(lmax, new LongMaximum())).isEqualTo(1L << 40);
        LongMinimum lmin = new LongMinimum(5);
        lmin.add(Long.valueOf(6));
        assertThat(merged(lmin, new LongMinimum(9))).isEqualTo(5L);
        DoubleMaximum dmax = new DoubleMaximum();
        dmax.add(-0.5);
        assertThat(merged(dmax, new DoubleMaximum())).isEqualTo(-0.5);
        DoubleMinimum dmin = new DoubleMinimum();
        dmin.add(2.5);
        assertThat(merged(dmin, new DoubleMinimum(1.5))).isEqualTo(1.5);
        assertThat(imax.toString()).isEqualTo("IntMaximum 3");
    }

    @Test
    void emptyExtremaReportTheirIdentity() {
        assertThat(new IntMaximum().getLocalValue()).isEqualTo(Integer.MIN_VALUE);
        assertThat(new IntMinimum().getLocalValue()).isEqualTo(Integer.MAX_VALUE);
        assertThat(new LongMaximum().getLocalValuePrimitive()).isEqualTo(Long.MIN_VALUE);
        assertThat(new LongMinimum().getLocalValuePrimitive()).isEqualTo(Long.MAX_VALUE);
        assertThat(new DoubleMaximum().getLocalValue()).isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat(new DoubleMinimum().getLocalValue()).isEqualTo(Double.POSITIVE_INFINITY);
        IntMaximum reset = new IntMaximum(5);
        reset.resetLocal();
        assertThat(reset.getLocalValue()).isEqualTo(Integer.MIN_VALUE);
    }

    @Test
    void averageIsOverAllValuesNotAMeanOfMeans() {
        AverageAccumulator a = new AverageAccumulator();
        a.add(1);
        a.add(2L);
        a.add(3.0);
        AverageAccumulator b = new AverageAccumulator();
        b.add(Double.valueOf(10));
        assertThat(merged(a, b)).isEqualTo(4.0);
        assertThat(new AverageAccumulator().getLocalValue()).isEqualTo(0.0);
        assertThat(a.toString()).isEqualTo("AverageAccumulator 2.0 for 3 elements");
        assertThatThrownBy(() -> a.merge(new DoubleCounter(1))).isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("The merged accumulator must be AverageAccumulator, but was "
                        + "dev.runnel.api.common.accumulators.DoubleCounter");
    }

    @Test
    void listCollectsFromEverySubtask() {
        ListAccumulator<String> a = new ListAccumulator<>();
        a.add("x");
        a.add("y");
        ListAccumulator<String> b = new ListAccumulator<>();
        b.add("z");
        assertThat(merged(a, b)).containsExactly("x", "y", "z");
        assertThat(a.getLocalValue()).containsExactly("x", "y");
        assertThat(a.toString()).isEqualTo("List Accumulator [x, y]");
    }

    @Test
    void histogramCountsEachValue() {
        Histogram a = new Histogram();
        for (int v : new int[] {3, 1, 3}) {
            a.add(v);
        }
        Histogram b = new Histogram();
        b.add(3);
        b.add(7);
        TreeMap<Integer, Integer> result = merged(a, b);
        assertThat(result).containsExactly(Map.entry(1, 1), Map.entry(3, 3), Map.entry(7, 1));
        assertThat(a.getLocalValue()).containsExactly(Map.entry(1, 1), Map.entry(3, 2));
        assertThat(a.toString()).isEqualTo("{1=1, 3=2}");
    }

    @Test
    void clonesAreIndependent() {
        ListAccumulator<Integer> original = new ListAccumulator<>();
        original.add(1);
        ListAccumulator<Integer> copy = original.clone();
        copy.add(2);
        assertThat(original.getLocalValue()).isEqualTo(List.of(1));
        Histogram h = new Histogram();
        h.add(1);
        Histogram hc = h.clone();
        hc.add(1);
        assertThat(h.getLocalValue()).containsExactly(Map.entry(1, 1));
    }
}
