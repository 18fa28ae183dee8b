package dev.runnel.api.java.typeutils.runtime.kryo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Class names in error messages are spelled as in Java source wherever Java source can spell them. */
class ClassNamesTest {

    static final class Nested {}

    @Test
    void arraysAndNestedClassesUseTheirSourceNames() {
        assertThat(ClassNames.sourceName(long[].class)).isEqualTo("long[]");
        assertThat(ClassNames.sourceName(String[][].class)).isEqualTo("java.lang.String[][]");
        assertThat(ClassNames.sourceName(Map.Entry.class)).isEqualTo("java.util.Map.Entry");
        assertThat(ClassNames.sourceName(Nested[].class)).isEqualTo(ClassNamesTest.class.getName() + ".Nested[]");
    }

    @Test
    void localClassesHaveNoSourceNameSoKeepTheirBinaryOne() {
        class Local {}
        assertThat(ClassNames.sourceName(Local.class)).isEqualTo(Local.class.getName());
        assertThat(ClassNames.sourceName(Local[][].class)).isEqualTo(Local.class.getName() + "[][]");
    }

    @Test
    void namesInParenthesesAreRewrittenWhenTheyCanBeFound() {
        String trace = "inner (" + Nested.class.getName() + ") outer (com.example.Missing$Gone)";
        assertThat(ClassNames.inParentheses(trace, Nested.class))
                .isEqualTo("inner (" + ClassNamesTest.class.getName() + ".Nested) outer (com.example.Missing$Gone)");
    }
}
