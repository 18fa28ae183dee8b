package dev.runnel.runtime.rest.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The writer's escaping and commas, and the parser round-tripping it and rejecting what is not JSON. */
class JsonTest {

    @Test
    void writesAndParsesBack() {
        String json = new JsonWriter().beginObject().field("s", "a\"b\\c\n<\u0001").field("n", -3).field("d", 0.5)
                .field("b", true).name("nil").nullValue().name("list").beginArray().value(1).value("x")
                .beginObject().endObject().endArray().endObject().toString();
        assertThat(json).isEqualTo("{\"s\":\"a\\\"b\\\\c\\n\\u003c\\u0001\",\"n\":-3,\"d\":0.5,\"b\":true,"
                + "\"nil\":null,\"list\":[1,\"x\",{}]}");
        Map<String, Object> parsed = JsonParser.parseObject(json);
        assertThat(parsed).containsEntry("s", "a\"b\\c\n<\u0001").containsEntry("n", -3L).containsEntry("d", 0.5)
                .containsEntry("b", true).containsEntry("nil", null).containsEntry("list", List.of(1L, "x", Map.of()));
    }

    @Test
    void aQuotedStringParsesBackToItself() {
        String tricky = "tab\t \"quote\" back\\slash \u2028 </script> \u0007";
        assertThat(JsonParser.parse(JsonWriter.quoted(tricky))).isEqualTo(tricky);
        assertThat(JsonWriter.quoted(null)).isEqualTo("null");
    }

    @Test
    void nonFiniteNumbersBecomeNull() {
        assertThat(new JsonWriter().beginArray().value(Double.NaN).endArray().toString()).isEqualTo("[null]");
    }

    @Test
    void rejectsMalformedInputWithTheOffset() {
        assertThatThrownBy(() -> JsonParser.parse("{\"a\":1,}")).hasMessage(
                "malformed JSON at offset 7: expected a field name in quotes, found '}'");
        assertThatThrownBy(() -> JsonParser.parse("[1 2]")).hasMessageContaining("expected ']'");
        assertThatThrownBy(() -> JsonParser.parse("{} x")).hasMessageContaining("expected end of input");
        assertThatThrownBy(() -> JsonParser.parse("\"open")).hasMessageContaining("a closing quote");
        assertThatThrownBy(() -> JsonParser.parse("[".repeat(100))).hasMessageContaining("levels of nesting");
        assertThatThrownBy(() -> JsonParser.parseObject("[]")).hasMessage("expected a JSON object, got an array");
    }

    @Test
    void writerMisuseFails() {
        assertThatThrownBy(() -> new JsonWriter().beginObject().value(1)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> new JsonWriter().beginObject().toString()).isInstanceOf(IllegalStateException.class);
    }
}
