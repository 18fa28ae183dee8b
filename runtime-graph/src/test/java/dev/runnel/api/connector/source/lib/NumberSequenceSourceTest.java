package dev.runnel.api.connector.source.lib;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.api.connector.source.lib.NumberSequenceSource.NumberSequenceSplit;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How {@code fromSequence} and {@code DataGeneratorSource} split their numbers between readers: as
 * Flink's NumberSequenceIterator does, the first {@code size % n} ranges get one number more.
 */
class NumberSequenceSourceTest {

    private static List<String> ranges(long from, long to, int n) {
        return NumberSequenceSource.splitRange(from, to, n).stream()
                .map(s -> s.from() + ".." + s.to()).toList();
    }

    @Test
    void theFirstRangesTakeTheRemainder() {
        assertThat(ranges(1, 10, 4)).containsExactly("1..3", "4..6", "7..8", "9..10");
        assertThat(ranges(0, 99, 4)).containsExactly("0..24", "25..49", "50..74", "75..99");
        assertThat(ranges(5, 5, 1)).containsExactly("5..5");
    }

    @Test
    void fewerNumbersThanReadersGiveOneNumberPerRange() {
        assertThat(ranges(1, 3, 5)).containsExactly("1..1", "2..2", "3..3");
    }

    /** What Flink 1.20's DataGenerator example prints first on 4 subtasks: 0, 2^61, 2^62, 3 * 2^61. */
    @Test
    void aGeneratorOfLongMaxValueRecordsStartsItsReadersWhereFlinksStart() {
        List<NumberSequenceSplit> splits = NumberSequenceSource.splitRange(0, Long.MAX_VALUE - 1, 4);
        assertThat(splits).extracting(NumberSequenceSplit::from)
                .containsExactly(0L, 1L << 61, 1L << 62, 3L << 61);
        assertThat(splits.get(3).to()).isEqualTo(Long.MAX_VALUE - 1);
    }

    @Test
    void theWholeLongDomainSplitsWithoutOverflow() {
        List<NumberSequenceSplit> splits = NumberSequenceSource.splitRange(Long.MIN_VALUE, Long.MAX_VALUE, 2);
        assertThat(splits).extracting(s -> s.from() + ".." + s.to())
                .containsExactly(Long.MIN_VALUE + "..-1", "0.." + Long.MAX_VALUE);
    }
}
