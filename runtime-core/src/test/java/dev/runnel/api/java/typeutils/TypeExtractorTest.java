package dev.runnel.api.java.typeutils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.functions.FlatMapFunction;
import dev.runnel.api.common.functions.InvalidTypesException;
import dev.runnel.api.common.functions.MapFunction;
import dev.runnel.api.common.typeinfo.BasicTypeInfo;
import dev.runnel.api.common.typeinfo.PrimitiveArrayTypeInfo;
import dev.runnel.api.common.typeinfo.TypeHint;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.java.functions.KeySelector;
import dev.runnel.api.java.tuple.Tuple;
import dev.runnel.api.java.tuple.Tuple0;
import dev.runnel.api.java.tuple.Tuple2;
import dev.runnel.api.java.tuple.Tuple3;
import dev.runnel.util.Collector;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class TypeExtractorTest {

    record Trade(String symbol, long quantity, List<String> tags) {}

    record Node(String value, Node next) {}

    record Box<T>(T value) {}

    record Word(String word, int count) {}

    /** A named tuple type, as Flink users write them. */
    public static class WordCount extends Tuple2<String, Integer> {}

    public static class Pair<T> extends Tuple2<T, T> {}

    enum Color { RED }

    /** Types of the interface arguments fixed in a subclass, two levels up. */
    abstract static class KeyedMapper<A, B> implements MapFunction<A, Tuple2<A, B>> {}

    static final class CountingMapper extends KeyedMapper<String, Long> {
        @Override
        public Tuple2<String, Long> map(String value) {
            return Tuple2.of(value, 1L);
        }
    }

    /** Output bound through the input type. */
    static final class Identity<T> implements MapFunction<T, T> {
        @Override
        public T map(T value) {
            return value;
        }
    }

    static final class WithOne<T> implements MapFunction<T, Tuple2<T, Long>> {
        @Override
        public Tuple2<T, Long> map(T value) {
            return Tuple2.of(value, 1L);
        }
    }

    /** A function interface that binds the types itself, so even its lambdas are fully typed. */
    interface Splitter extends FlatMapFunction<String, String> {}

    @SuppressWarnings("rawtypes")
    static final class RawMapper implements MapFunction {
        @Override
        public Object map(Object value) {
            return value;
        }
    }

    static Tuple2<String, Integer> pair(String s) {
        return Tuple2.of(s, s.length());
    }

    static void split(String line, Collector<String> out) {
        for (String word : line.split(" ")) {
            out.collect(word);
        }
    }

    static <T> T same(T value) {
        return value;
    }

    @Nested
    class CreateTypeInfo {

        @Test
        void basicTypesAndPrimitives() {
            assertThat(TypeExtractor.createTypeInfo(String.class)).isSameAs(BasicTypeInfo.STRING_TYPE_INFO);
            assertThat(TypeExtractor.createTypeInfo(int.class)).isSameAs(BasicTypeInfo.INT_TYPE_INFO);
            assertThat(TypeExtractor.createTypeInfo(Integer.class)).isSameAs(BasicTypeInfo.INT_TYPE_INFO);
            assertThat(TypeExtractor.createTypeInfo(double.class)).isSameAs(BasicTypeInfo.DOUBLE_TYPE_INFO);
            assertThat(TypeExtractor.createTypeInfo(char.class)).isSameAs(BasicTypeInfo.CHAR_TYPE_INFO);
            assertThat(TypeExtractor.createTypeInfo(byte[].class)).isSameAs(PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO);
        }

        @Test
        void otherConcreteClassesAreGeneric() {
            assertThat(TypeExtractor.createTypeInfo(ArrayList.class)).isEqualTo(new GenericTypeInfo<>(ArrayList.class));
            assertThat(new TypeHint<ArrayList<String>>() {}.getTypeInfo()).isEqualTo(new GenericTypeInfo<>(ArrayList.class));
        }

        @Test
        void enumsHaveTheirOwnType() {
            assertThat(TypeExtractor.createTypeInfo(Color.class)).isEqualTo(new EnumTypeInfo<>(Color.class))
                    .isEqualTo(Types.ENUM(Color.class))
                    .hasToString("EnumTypeInfo<" + Color.class.getName() + ">");
        }

        @Test
        void tuples() {
            assertThat(new TypeHint<Tuple2<String, Long>>() {}.getTypeInfo())
                    .isEqualTo(new TupleTypeInfo<>(Types.STRING, Types.LONG))
                    .hasToString("Tuple2<String, Long>");
            assertThat(TypeExtractor.createTypeInfo(Tuple0.class)).isEqualTo(new TupleTypeInfo<>());
            assertThat(TypeExtractor.createTypeInfo(WordCount.class))
                    .isEqualTo(new TupleTypeInfo<>(WordCount.class, Types.STRING, Types.INT));
            // Nested tuples re-bind the same Tuple2 variables at each level.
            assertThat(new TypeHint<Tuple2<Tuple2<String, Long>, Tuple3<Integer, Tuple2<Byte, Short>, Double>>>() {}.getTypeInfo())
                    .hasToString("Tuple2<Tuple2<String, Long>, Tuple3<Integer, Tuple2<Byte, Short>, Double>>");
            assertThat(new TypeHint<Pair<String>>() {}.getTypeInfo())
                    .isEqualTo(new TupleTypeInfo<>(Pair.class, Types.STRING, Types.STRING));
        }

        @Test
        void rawTuplesAreErrors() {
            assertThatThrownBy(() -> TypeExtractor.createTypeInfo(Tuple2.class))
                    .isInstanceOf(InvalidTypesException.class)
                    .hasMessageContaining("Tuple2 is used raw");
            assertThatThrownBy(() -> TypeExtractor.createTypeInfo(Pair.class)).isInstanceOf(InvalidTypesException.class);
            assertThatThrownBy(() -> TypeExtractor.createTypeInfo(Tuple.class))
                    .isInstanceOf(InvalidTypesException.class)
                    .hasMessageContaining("does not fix the number and types");
        }

        @Test
        void records() {
            TypeInformation<?> trade = TypeExtractor.createTypeInfo(Trade.class);
            assertThat(trade).isEqualTo(new RecordTypeInfo<>(Trade.class, Types.STRING, Types.LONG, Types.LIST(Types.STRING)));
            assertThat(trade).hasToString("Trade(symbol: String, quantity: Long, tags: List<String>)");
            assertThat(new TypeHint<Box<Tuple2<String, Integer>>>() {}.getTypeInfo())
                    .isEqualTo(new RecordTypeInfo<>(Box.class, Types.TUPLE(Types.STRING, Types.INT)));
        }

        @Test
        void recordsThatCannotBeDescribedFallBackToKryo() {
            assertThat(TypeExtractor.createTypeInfo(Node.class)).isEqualTo(new GenericTypeInfo<>(Node.class));
            assertThat(TypeExtractor.createTypeInfo(Box.class)).isEqualTo(new GenericTypeInfo<>(Box.class));
        }

        @Test
        void listsAndMaps() {
            assertThat(new TypeHint<Map<String, List<Long>>>() {}.getTypeInfo())
                    .isEqualTo(Types.MAP(Types.STRING, Types.LIST(Types.LONG)))
                    .hasToString("Map<String, List<Long>>");
            assertThatThrownBy(() -> TypeExtractor.createTypeInfo(List.class))
                    .isInstanceOf(InvalidTypesException.class)
                    .hasMessageContaining("used raw");
        }

        @Test
        void wildcardsAndTypeVariablesAreErrors() {
            assertThatThrownBy(() -> new TypeHint<List<? extends Number>>() {})
                    .isInstanceOf(InvalidTypesException.class)
                    .hasMessageContaining("wildcard");
            assertThatThrownBy(TypeExtractorTest::hintWithTypeVariable)
                    .isInstanceOf(InvalidTypesException.class)
                    .hasMessageContaining("type variable T");
        }
    }

    private static <T> TypeHint<Tuple2<T, String>> hintWithTypeVariable() {
        return new TypeHint<Tuple2<T, String>>() {};
    }

    @Nested
    class OutputTypesOfClasses {

        @Test
        void anonymousClassGivesTheFullTupleType() {
            MapFunction<String, Tuple2<String, Integer>> f = new MapFunction<>() {
                @Override
                public Tuple2<String, Integer> map(String value) {
                    return Tuple2.of(value, 1);
                }
            };
            assertThat(TypeExtractor.<Tuple2<String, Integer>>getOutputType(f, MapFunction.class, 1, Types.STRING))
                    .isEqualTo(Types.TUPLE(Types.STRING, Types.INT));
        }

        @Test
        void anonymousFlatMapGivesTheCollectorType() {
            FlatMapFunction<String, Tuple2<String, Long>> f = new FlatMapFunction<>() {
                @Override
                public void flatMap(String value, Collector<Tuple2<String, Long>> out) {
                    out.collect(Tuple2.of(value, 1L));
                }
            };
            assertThat(TypeExtractor.getOutputType(f, FlatMapFunction.class, 1, Types.STRING))
                    .isEqualTo(Types.TUPLE(Types.STRING, Types.LONG));
        }

        @Test
        void typeArgumentsResolveThroughTheClassHierarchy() {
            assertThat(TypeExtractor.getOutputType(new CountingMapper(), MapFunction.class, 1))
                    .isEqualTo(Types.TUPLE(Types.STRING, Types.LONG));
        }

        @Test
        void typeVariablesBindToTheInputType() {
            assertThat(TypeExtractor.getOutputType(new Identity<String>(), MapFunction.class, 1, Types.STRING))
                    .isEqualTo(Types.STRING);
            assertThat(TypeExtractor.getOutputType(new WithOne<List<String>>(), MapFunction.class, 1, Types.LIST(Types.STRING)))
                    .isEqualTo(Types.TUPLE(Types.LIST(Types.STRING), Types.LONG));
            assertThatThrownBy(() -> TypeExtractor.getOutputType(new Identity<String>(), MapFunction.class, 1))
                    .isInstanceOf(InvalidTypesException.class)
                    .hasMessageContaining("type variable T")
                    .hasMessageContaining(Identity.class.getName());
        }

        @Test
        void inputVariablesBindStructurally() {
            MapFunction<Tuple2<String, Long>, Long> byField = new GenericField<>();
            assertThat(TypeExtractor.getOutputType(byField, MapFunction.class, 1, Types.TUPLE(Types.STRING, Types.LONG)))
                    .isEqualTo(Types.LONG);
        }

        @Test
        void anOutputThatIsAKnownInputIsReturnedAsIs() {
            TypeInformation<?> in = Types.TUPLE(Types.STRING, Types.INT);
            assertThat(TypeExtractor.getOutputType(new Identity<>(), MapFunction.class, 0, in)).isSameAs(in);
        }

        @Test
        @SuppressWarnings("unchecked")
        void rawImplementationsAreReported() {
            assertThatThrownBy(() -> TypeExtractor.getOutputType(new RawMapper(), MapFunction.class, 1, Types.STRING))
                    .isInstanceOf(InvalidTypesException.class)
                    .hasMessageContaining("raw type")
                    .hasMessageContaining("returns(");
        }

        @Test
        void keySelectorsWork() {
            KeySelector<Tuple2<String, Integer>, String> selector = new KeySelector<>() {
                @Override
                public String getKey(Tuple2<String, Integer> value) {
                    return value.f0;
                }
            };
            assertThat(TypeExtractor.getOutputType(selector, KeySelector.class, 1)).isEqualTo(Types.STRING);
        }
    }

    static final class GenericField<K, V> implements MapFunction<Tuple2<K, V>, V> {
        @Override
        public V map(Tuple2<K, V> value) {
            return value.f1;
        }
    }

    @Nested
    class OutputTypesOfLambdas {

        @Test
        void lambdasReturningBasicTypesResolve() {
            MapFunction<String, String> upper = s -> s.toUpperCase();
            MapFunction<String, Integer> length = s -> s.length();
            MapFunction<String, Long> parsed = s -> Long.parseLong(s) * 2;
            assertThat(TypeExtractor.getOutputType(upper, MapFunction.class, 1, Types.STRING)).isEqualTo(Types.STRING);
            assertThat(TypeExtractor.getOutputType(length, MapFunction.class, 1, Types.STRING)).isEqualTo(Types.INT);
            assertThat(TypeExtractor.getOutputType(parsed, MapFunction.class, 1, Types.STRING)).isEqualTo(Types.LONG);
        }

        @Test
        void capturingLambdasResolve() {
            int offset = 3;
            MapFunction<String, Integer> shifted = s -> s.length() + offset;
            assertThat(TypeExtractor.getOutputType(shifted, MapFunction.class, 1, Types.STRING)).isEqualTo(Types.INT);
            assertThat(TypeExtractor.getOutputType(new Holder().lambdaUsingThis(), MapFunction.class, 1, Types.STRING))
                    .isEqualTo(Types.DOUBLE);
        }

        @Test
        void lambdaReturningATupleIsErased() {
            MapFunction<String, Tuple2<String, Integer>> f = s -> Tuple2.of(s, 1);
            assertThatThrownBy(() -> TypeExtractor.getOutputType(f, MapFunction.class, 1, Types.STRING))
                    .isInstanceOf(InvalidTypesException.class)
                    .hasMessageContaining("cannot determine the output type OUT of MapFunction")
                    .hasMessageContaining("the lambda lambda$")
                    .hasMessageContaining("raw type " + Tuple2.class.getName())
                    .hasMessageContaining("returns(new TypeHint<")
                    .hasMessageEndingWith(", whose type arguments Java erased (it does so for every lambda). Declare the"
                            + " output type explicitly: implement the function as a class that names its type arguments"
                            + " (e.g. an anonymous class), or give the type to the resulting stream with returns(...),"
                            + " e.g. returns(new TypeHint<Tuple2<String, Integer>>(){}) or"
                            + " returns(Types.TUPLE(Types.STRING, Types.INT)).");
        }

        @Test
        void lambdaReturningARecordResolves() {
            MapFunction<String, Word> f = s -> new Word(s, 1);
            assertThat(TypeExtractor.getOutputType(f, MapFunction.class, 1, Types.STRING))
                    .isEqualTo(new RecordTypeInfo<>(Word.class, Types.STRING, Types.INT));
        }

        @Test
        void flatMapLambdaIsErased() {
            FlatMapFunction<String, String> f = (line, out) -> out.collect(line);
            assertThatThrownBy(() -> TypeExtractor.getOutputType(f, FlatMapFunction.class, 1, Types.STRING))
                    .isInstanceOf(InvalidTypesException.class)
                    .hasMessageContaining("Collector")
                    .hasMessageContaining("erases the generic types of a lambda's parameters")
                    .hasMessageContaining("returns(");
        }

        @Test
        void lambdaOfAnInterfaceThatBindsItsTypesResolves() {
            Splitter f = (line, out) -> out.collect(line);
            assertThat(TypeExtractor.getOutputType(f, FlatMapFunction.class, 1, Types.STRING)).isEqualTo(Types.STRING);
        }

        @Test
        void methodReferences() {
            MapFunction<String, Integer> length = String::length;
            assertThat(TypeExtractor.getOutputType(length, MapFunction.class, 1, Types.STRING)).isEqualTo(Types.INT);
            MapFunction<String, Long> parse = Long::parseLong;
            assertThat(TypeExtractor.getOutputType(parse, MapFunction.class, 1, Types.STRING)).isEqualTo(Types.LONG);
            String prefix = ">";
            MapFunction<String, String> bound = prefix::concat;
            assertThat(TypeExtractor.getOutputType(bound, MapFunction.class, 1, Types.STRING)).isEqualTo(Types.STRING);
        }

        @Test
        void methodReferencesKeepDeclaredGenericTypes() {
            MapFunction<String, Tuple2<String, Integer>> f = TypeExtractorTest::pair;
            assertThat(TypeExtractor.getOutputType(f, MapFunction.class, 1, Types.STRING))
                    .isEqualTo(Types.TUPLE(Types.STRING, Types.INT));
            FlatMapFunction<String, String> splitter = TypeExtractorTest::split;
            assertThat(TypeExtractor.getOutputType(splitter, FlatMapFunction.class, 1, Types.STRING)).isEqualTo(Types.STRING);
        }

        @Test
        void genericMethodReferencesBindToTheInput() {
            MapFunction<Long, Long> same = TypeExtractorTest::same;
            assertThat(TypeExtractor.getOutputType(same, MapFunction.class, 1, Types.LONG)).isEqualTo(Types.LONG);
            assertThatThrownBy(() -> TypeExtractor.getOutputType(same, MapFunction.class, 1))
                    .isInstanceOf(InvalidTypesException.class)
                    .hasMessageContaining("type variable T");
        }

        @Test
        void constructorReferences() {
            MapFunction<String, StringBuilder> builder = StringBuilder::new;
            assertThat(TypeExtractor.getOutputType(builder, MapFunction.class, 1, Types.STRING))
                    .isEqualTo(new GenericTypeInfo<>(StringBuilder.class));
            MapFunction<Integer, ArrayList<String>> list = ArrayList::new;
            assertThatThrownBy(() -> TypeExtractor.getOutputType(list, MapFunction.class, 1, Types.INT))
                    .isInstanceOf(InvalidTypesException.class)
                    .hasMessageContaining("raw type java.util.ArrayList")
                    .hasMessageContaining("ArrayList::new");
        }

        @Test
        void keySelectorLambdas() {
            KeySelector<Tuple2<String, Integer>, String> byWord = t -> t.f0;
            assertThat(TypeExtractor.getOutputType(byWord, KeySelector.class, 1, Types.TUPLE(Types.STRING, Types.INT)))
                    .isEqualTo(Types.STRING);
        }

        @Test
        void lambdasWhoseResultIsGenericWhereWrittenAreErased() {
            MapFunction<String, String> f = identityLambda();
            assertThatThrownBy(() -> TypeExtractor.getOutputType(f, MapFunction.class, 1))
                    .isInstanceOf(InvalidTypesException.class)
                    .hasMessageContaining("erased to Object");
            // With the input known, the output (the same type variable) is simply the input.
            assertThat(TypeExtractor.getOutputType(f, MapFunction.class, 0, Types.STRING)).isEqualTo(Types.STRING);
        }
    }

    private static <T> MapFunction<T, T> identityLambda() {
        return value -> value;
    }

    /** Lambdas that capture {@code this} compile to instance methods. */
    static final class Holder {
        private final double factor = 1.5;

        MapFunction<String, Double> lambdaUsingThis() {
            return s -> s.length() * factor;
        }
    }

    @Test
    void typeInformationOfClassExplainsTypeHints() {
        assertThatThrownBy(() -> TypeInformation.of(Tuple2.class))
                .isInstanceOf(InvalidTypesException.class)
                .hasMessageContaining("TypeInformation.of(TypeHint)");
        assertThat(TypeInformation.of(String.class)).isEqualTo(Types.STRING);
        assertThat(TypeInformation.of(new TypeHint<Tuple2<String, Long>>() {})).isEqualTo(Types.TUPLE(Types.STRING, Types.LONG));
    }

    @Test
    void argumentsAreValidated() {
        MapFunction<String, String> f = s -> s;
        assertThatThrownBy(() -> TypeExtractor.getOutputType(f, FlatMapFunction.class, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("does not implement");
        assertThatThrownBy(() -> TypeExtractor.getOutputType(f, MapFunction.class, 2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no type argument 2");
    }
}
