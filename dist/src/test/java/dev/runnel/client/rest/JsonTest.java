package dev.runnel.client.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {

    @Test
    void readsWhatTheRestApiWrites() {
        Object value = Json.parse(" {\"jobs\":[{\"jid\":\"ab\",\"start-time\":1700000000000,\"ratio\":0.5e0,"
                + "\"ok\":true,\"none\":null,\"text\":\"a\\\"b\\\\c\\n\\u00e9\"}],\"empty\":{},\"list\":[]} ");
        assertThat(value).isEqualTo(Map.of("jobs", List.of(mapOf("jid", "ab", "start-time", 1700000000000L,
                "ratio", 0.5, "ok", true, "none", null, "text", "a\"b\\c\né")), "empty", Map.of(), "list", List.of()));
    }

    @Test
    void quotesWhatItReadsBack() {
        String tricky = "tab\there \"quoted\" back\\slash \u0001 end";
        assertThat(Json.parse(Json.quote(tricky))).isEqualTo(tricky);
        assertThat(Json.quote(null)).isEqualTo("null");
    }

    @Test
    void malformedJsonNamesThePosition() {
        assertThatThrownBy(() -> Json.parse("{\"a\":1,}")).hasMessageContaining("expected a key in quotes at position 7");
        assertThatThrownBy(() -> Json.parse("[1 2]")).hasMessageContaining("expected ']' at position 3");
        assertThatThrownBy(() -> Json.parse("\"open")).hasMessageContaining("the closing quote of a string");
        assertThatThrownBy(() -> Json.parse("{} x")).hasMessageContaining("expected end of document");
        assertThatThrownBy(() -> Json.parse("<html>")).hasMessageContaining("expected a value at position 0");
    }

    private static Map<String, Object> mapOf(Object... keysAndValues) {
        Map<String, Object> map = new java.util.HashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }
}
