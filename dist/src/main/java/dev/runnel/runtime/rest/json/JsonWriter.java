package dev.runnel.runtime.rest.json;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;

/**
 * Writes compact JSON into a {@link StringBuilder}, with the commas placed for the caller:
 *
 * <pre>{@code
 * String json = new JsonWriter().beginObject().field("jid", id).name("vertices").beginArray()
 *         .value(1).endArray().endObject().toString();   // {"jid":"...","vertices":[1]}
 * }</pre>
 *
 * <p>Not thread-safe: one writer per answer. Misuse (a value where a name is due) is a programming error and
 * fails with {@link IllegalStateException}.
 */
public final class JsonWriter {

    private final StringBuilder out = new StringBuilder(256);
    /** One open object or array; {@code hasElement} once it holds one, so the next needs a comma. */
    private static final class Container {
        final boolean object;
        boolean hasElement;

        Container(boolean object) {
            this.object = object;
        }
    }

    private final Deque<Container> open = new ArrayDeque<>();
    private boolean nameWritten;

    public JsonWriter beginObject() {
        beforeValue();
        out.append('{');
        open.push(new Container(true));
        return this;
    }

    public JsonWriter endObject() {
        return close('}');
    }

    public JsonWriter beginArray() {
        beforeValue();
        out.append('[');
        open.push(new Container(false));
        return this;
    }

    public JsonWriter endArray() {
        return close(']');
    }

    /** The name of the next field of the current object. */
    public JsonWriter name(String name) {
        if (open.isEmpty() || !open.peek().object || nameWritten) {
            throw new IllegalStateException("a field name '" + name + "' is not expected here: " + out);
        }
        comma();
        quote(name);
        out.append(':');
        nameWritten = true;
        return this;
    }

    public JsonWriter value(String value) {
        beforeValue();
        if (value == null) {
            out.append("null");
        } else {
            quote(value);
        }
        return this;
    }

    public JsonWriter value(long value) {
        beforeValue();
        out.append(value);
        return this;
    }

    /** Non-finite numbers have no JSON form; they are written as {@code null}. */
    public JsonWriter value(double value) {
        beforeValue();
        if (Double.isFinite(value)) {
            out.append(value);
        } else {
            out.append("null");
        }
        return this;
    }

    public JsonWriter value(boolean value) {
        beforeValue();
        out.append(value);
        return this;
    }

    public JsonWriter nullValue() {
        beforeValue();
        out.append("null");
        return this;
    }

    public JsonWriter field(String name, String value) {
        return name(name).value(value);
    }

    public JsonWriter field(String name, long value) {
        return name(name).value(value);
    }

    public JsonWriter field(String name, double value) {
        return name(name).value(value);
    }

    public JsonWriter field(String name, boolean value) {
        return name(name).value(value);
    }

    /** An object of string values, in the map's order. */
    public JsonWriter field(String name, Map<String, ?> values) {
        name(name).beginObject();
        values.forEach((key, value) -> {
            name(key);
            if (value instanceof Number n && !(value instanceof Double || value instanceof Float)) {
                value(n.longValue());
            } else if (value instanceof Number n) {
                value(n.doubleValue());
            } else {
                value(value == null ? null : value.toString());
            }
        });
        return endObject();
    }

    @Override
    public String toString() {
        if (!open.isEmpty()) {
            throw new IllegalStateException("JSON not closed: " + out);
        }
        return out.toString();
    }

    private JsonWriter close(char bracket) {
        if (open.isEmpty() || nameWritten || open.peek().object != (bracket == '}')) {
            throw new IllegalStateException("nothing to close with '" + bracket + "': " + out);
        }
        open.pop();
        out.append(bracket);
        return this;
    }

    private void beforeValue() {
        if (nameWritten) {
            nameWritten = false;
            return;
        }
        if (!open.isEmpty() && open.peek().object) {
            throw new IllegalStateException("a value inside an object needs a field name first: " + out);
        }
        comma();
    }

    private void comma() {
        if (open.isEmpty()) {
            if (out.length() > 0) {
                throw new IllegalStateException("one JSON document per writer: " + out);
            }
            return;
        }
        Container container = open.peek();
        if (container.hasElement) {
            out.append(',');
        }
        container.hasElement = true;
    }

    /** {@code s} as a JSON string literal (escaped as every value this writer writes), {@code null} for null. */
    public static String quoted(String s) {
        if (s == null) {
            return "null";
        }
        JsonWriter writer = new JsonWriter();
        writer.quote(s);
        return writer.out.toString();
    }

    private void quote(String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                // '<' escaped so that JSON embedded in a page can never close a script element
                case '<' -> out.append("\\u003c");
                default -> {
                    if (c < 0x20 || c == 0x2028 || c == 0x2029) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
