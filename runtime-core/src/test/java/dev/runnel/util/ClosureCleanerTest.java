package dev.runnel.util;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.functions.MapFunction;
import java.lang.reflect.Field;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class ClosureCleanerTest {

    /** Not a compile-time constant, so reading it really reads the enclosing object. */
    private final String prefix = String.valueOf(new StringBuilder("p-"));

    private static Object outerOf(Object function) throws Exception {
        for (Field f : function.getClass().getDeclaredFields()) {
            if (f.getName().startsWith("this$")) {
                f.setAccessible(true);
                return f.get(function);
            }
        }
        return "no this$ field";
    }

    @Test
    void dropsAnUnusedEnclosingReference() throws Exception {
        MapFunction<String, Integer> length = new MapFunction<>() {
            @Override
            public Integer map(String value) {
                return value.length();
            }
        };
        assertThat(outerOf(length)).isSameAs(this);
        ClosureCleaner.clean(length);
        assertThat(outerOf(length)).isNull();
        assertThat(length.map("abc")).isEqualTo(3);
        InstantiationUtil.serialize(length, "cleaned function");
    }

    @Test
    void keepsAReferenceTheFunctionReads() throws Exception {
        MapFunction<String, String> withPrefix = new MapFunction<>() {
            @Override
            public String map(String value) {
                return prefix + value;
            }
        };
        ClosureCleaner.clean(withPrefix);
        assertThat(outerOf(withPrefix)).isSameAs(this);
        assertThat(withPrefix.map("x")).isEqualTo("p-x");
        assertThatThrownBy(() -> InstantiationUtil.serialize(withPrefix, "function"))
                .hasMessageContaining("ClosureCleanerTest");
    }

    @Test
    void keepsAReferenceReadFromALambdaInside() throws Exception {
        MapFunction<String, String> viaLambda = new MapFunction<>() {
            @Override
            public String map(String value) {
                Supplier<String> s = () -> prefix + value;
                return s.get();
            }
        };
        ClosureCleaner.clean(viaLambda);
        assertThat(outerOf(viaLambda)).isSameAs(this);
        assertThat(viaLambda.map("y")).isEqualTo("p-y");
    }

    @Test
    void readsFieldFindsGetfieldInTheClassFile() {
        Object reads = new Object() {
            @Override
            public String toString() {
                return prefix;
            }
        };
        Object ignores = new Object() {
            @Override
            public String toString() {
                return "constant";
            }
        };
        assertThat(ClosureCleaner.readsField(reads.getClass(), "this$0")).isTrue();
        assertThat(ClosureCleaner.readsField(ignores.getClass(), "this$0")).isFalse();
    }
}
