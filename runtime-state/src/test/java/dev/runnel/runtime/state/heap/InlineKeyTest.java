package dev.runnel.runtime.state.heap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Inline forms identify keys exactly: equal keys share a form, different keys never do. */
@Timeout(60)
class InlineKeyTest {

    @Test
    void equalKeysHaveOneFormAndDifferentKeysDifferentForms() {
        List<Object> keys = keysWithForms();
        Map<Long, Object> byForm = new HashMap<>();
        for (Object key : keys) {
            long form = InlineKey.of(key);
            assertThat(form).as("form of %s", key).isNotEqualTo(InlineKey.NONE);
            Object other = byForm.putIfAbsent(form, key);
            if (other != null) {
                assertThat(other).as("keys with the form of %s", key).isEqualTo(key);
            }
            Object copy = copyOf(key);
            assertThat(InlineKey.of(copy)).as("an equal copy of %s", key).isEqualTo(form);
        }
        assertThat(byForm.size()).as("distinct keys, distinct forms").isEqualTo(keys.stream().distinct().count());
    }

    @Test
    void aFormGivesBackAnEqualKeyOfTheSameClass() {
        for (Object key : keysWithForms()) {
            Object made = InlineKey.toKey(InlineKey.of(key));
            assertThat(made).as("the key of the form of %s", key).isEqualTo(key).hasSameClassAs(key)
                    .hasSameHashCodeAs(key);
        }
        assertThat(InlineKey.toKey(InlineKey.of("w12345"))).isEqualTo("w12345");
        assertThat(InlineKey.toKey(InlineKey.of(-7))).isEqualTo(-7);
        assertThat(InlineKey.toKey(InlineKey.of(-(1L << 55)))).isEqualTo(-(1L << 55));
    }

    @Test
    void noKeyIsMadeFromSomethingThatIsNotAForm() {
        assertThatThrownBy(() -> InlineKey.toKey(InlineKey.NONE))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not an inline key form");
    }

    /**
     * Strings of every length up to the longest with a form (over an alphabet with both ends of Latin-1), integers and
     * longs.
     */
    private static List<Object> keysWithForms() {
        List<Object> keys = new ArrayList<>();
        String alphabet = "\u0000a\u00ffZ0";
        keys.add("");
        for (int length = 1; length <= InlineKey.MAX_STRING_LENGTH; length++) {
            // every string of this length over the alphabet would be too many past 4; sample the rest
            int count = (int) Math.min(Math.pow(alphabet.length(), length), 2_000);
            for (int n = 0; n < count; n++) {
                StringBuilder s = new StringBuilder();
                int rest = n * (length > 4 ? 7919 : 1);
                for (int i = 0; i < length; i++) {
                    s.append(alphabet.charAt(Math.floorMod(rest, alphabet.length())));
                    rest /= alphabet.length();
                }
                keys.add(s.toString());
            }
        }
        for (int v : new int[] {0, 1, -1, 128, Integer.MAX_VALUE, Integer.MIN_VALUE}) {
            keys.add(v);
            keys.add((long) v);
        }
        keys.add((1L << 55) - 1);
        keys.add(-(1L << 55));
        return keys;
    }

    /** An equal key that is another object (a conditional expression would unbox the numbers to one type). */
    private static Object copyOf(Object key) {
        if (key instanceof String s) {
            return new String(s);
        }
        if (key instanceof Long l) {
            return Long.valueOf(l.longValue() + 0); // not a cached box for most values
        }
        return Integer.valueOf((Integer) key);
    }

    @Test
    void keysWithoutAFormAreNone() {
        assertThat(InlineKey.of("eight ch")).isEqualTo(InlineKey.NONE);
        assertThat(InlineKey.of("\u0100")).as("a character wider than a byte").isEqualTo(InlineKey.NONE);
        assertThat(InlineKey.of(1L << 55)).as("a long past 56 signed bits").isEqualTo(InlineKey.NONE);
        assertThat(InlineKey.of(Long.MIN_VALUE)).isEqualTo(InlineKey.NONE);
        assertThat(InlineKey.of(3.0)).as("another type").isEqualTo(InlineKey.NONE);
        assertThat(InlineKey.of(null)).isEqualTo(InlineKey.NONE);
        assertThat(InlineKey.of("seven c")).isNotEqualTo(InlineKey.NONE);
    }
}
