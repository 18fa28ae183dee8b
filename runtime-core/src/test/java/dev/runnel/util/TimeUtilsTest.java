package dev.runnel.util;

import static dev.runnel.util.TimeUtils.formatWithHighestUnit;
import static dev.runnel.util.TimeUtils.getStringInMillis;
import static dev.runnel.util.TimeUtils.parseDuration;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class TimeUtilsTest {

    @Test
    void bareNumbersAreMilliseconds() {
        assertThat(parseDuration("123")).isEqualTo(Duration.ofMillis(123));
        assertThat(parseDuration("  42  ")).isEqualTo(Duration.ofMillis(42));
    }

    @Test
    void everyUnitLabel() {
        assertThat(parseDuration("2d")).isEqualTo(Duration.ofDays(2));
        assertThat(parseDuration("1 day")).isEqualTo(Duration.ofDays(1));
        assertThat(parseDuration("3 days")).isEqualTo(Duration.ofDays(3));
        assertThat(parseDuration("4h")).isEqualTo(Duration.ofHours(4));
        assertThat(parseDuration("5 hours")).isEqualTo(Duration.ofHours(5));
        assertThat(parseDuration("6 min")).isEqualTo(Duration.ofMinutes(6));
        assertThat(parseDuration("7m")).isEqualTo(Duration.ofMinutes(7));
        assertThat(parseDuration("8 minutes")).isEqualTo(Duration.ofMinutes(8));
        assertThat(parseDuration("9s")).isEqualTo(Duration.ofSeconds(9));
        assertThat(parseDuration("10 sec")).isEqualTo(Duration.ofSeconds(10));
        assertThat(parseDuration("11 secs")).isEqualTo(Duration.ofSeconds(11));
        assertThat(parseDuration("12 seconds")).isEqualTo(Duration.ofSeconds(12));
        assertThat(parseDuration("13ms")).isEqualTo(Duration.ofMillis(13));
        assertThat(parseDuration("14 millis")).isEqualTo(Duration.ofMillis(14));
        assertThat(parseDuration("15 milliseconds")).isEqualTo(Duration.ofMillis(15));
        assertThat(parseDuration("16µs")).isEqualTo(Duration.ofNanos(16_000));
        assertThat(parseDuration("17 micros")).isEqualTo(Duration.ofNanos(17_000));
        assertThat(parseDuration("18ns")).isEqualTo(Duration.ofNanos(18));
        assertThat(parseDuration("19 nanoseconds")).isEqualTo(Duration.ofNanos(19));
    }

    @Test
    void unitsAreCaseInsensitive() {
        assertThat(parseDuration("30 S")).isEqualTo(Duration.ofSeconds(30));
        assertThat(parseDuration("1 MIN")).isEqualTo(Duration.ofMinutes(1));
    }

    @Test
    void badTextSaysWhatIsWrong() {
        assertThatThrownBy(() -> parseDuration("   ")).isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessage("argument is an empty- or whitespace-only string");
        assertThatThrownBy(() -> parseDuration("ten seconds")).isExactlyInstanceOf(NumberFormatException.class)
                .hasMessageStartingWith("text does not start with a number: 'ten seconds'");
        assertThatThrownBy(() -> parseDuration("-5 s")).isExactlyInstanceOf(NumberFormatException.class);
        assertThatThrownBy(() -> parseDuration("99999999999999999999 ms"))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessage("The value '99999999999999999999' cannot be represented as 64bit number (numeric overflow).");
        assertThatThrownBy(() -> parseDuration("5 fortnights")).isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Time interval unit label 'fortnights' does not match any of the recognized "
                        + "units: DAYS: (d | day | days), HOURS: (h | hour | hours), MINUTES: (min | m | minute | minutes)");
        assertThatThrownBy(() -> parseDuration(null)).isExactlyInstanceOf(NullPointerException.class);
    }

    @Test
    void formatsInTheLargestExactUnit() {
        assertThat(formatWithHighestUnit(Duration.ofMillis(60_000))).isEqualTo("1 min");
        assertThat(formatWithHighestUnit(Duration.ofHours(1).plusSeconds(1))).isEqualTo("3601 s");
        assertThat(formatWithHighestUnit(Duration.ofHours(2))).isEqualTo("2 h");
        assertThat(formatWithHighestUnit(Duration.ofMillis(1500))).isEqualTo("1500 ms");
        assertThat(formatWithHighestUnit(Duration.ofNanos(1500))).isEqualTo("1500 ns");
        assertThat(formatWithHighestUnit(Duration.ofNanos(3000))).isEqualTo("3 µs");
        // Flink's quirk, kept: when every unit divides the duration, it is written in milliseconds.
        assertThat(formatWithHighestUnit(Duration.ofDays(1))).isEqualTo("86400000 ms");
        assertThat(formatWithHighestUnit(Duration.ZERO)).isEqualTo("0 ms");
    }

    @Test
    void formattedTextParsesBack() {
        for (Duration d : new Duration[] {Duration.ofMillis(60_000), Duration.ofSeconds(3601), Duration.ofNanos(7)}) {
            assertThat(parseDuration(formatWithHighestUnit(d))).isEqualTo(d);
        }
    }

    @Test
    void stringInMillis() {
        assertThat(getStringInMillis(Duration.ofSeconds(2))).isEqualTo("2000ms");
        assertThat(getStringInMillis(Duration.ofNanos(1_999_999))).isEqualTo("1ms");
    }
}
