package dev.runnel.streaming.api.datastream;

import dev.runnel.api.common.functions.CoGroupFunction;
import dev.runnel.api.common.functions.InvalidTypesException;
import dev.runnel.api.common.functions.MapFunction;
import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.java.functions.KeySelector;
import dev.runnel.api.java.operators.translation.WrappingFunction;
import dev.runnel.api.java.typeutils.TypeExtractor;
import dev.runnel.core.memory.CorruptDataException;
import dev.runnel.core.memory.DataInputView;
import dev.runnel.core.memory.DataOutputView;
import dev.runnel.streaming.api.functions.windowing.WindowFunction;
import dev.runnel.streaming.api.windowing.assigners.WindowAssigner;
import dev.runnel.streaming.api.windowing.evictors.Evictor;
import dev.runnel.streaming.api.windowing.time.Time;
import dev.runnel.streaming.api.windowing.triggers.Trigger;
import dev.runnel.streaming.api.windowing.windows.Window;
import dev.runnel.util.Collector;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Two streams co-grouped by key over windows ({@code first.coGroup(second).where(key1).equalTo(key2)
 * .window(assigner).apply(coGroupFunction)}): for every key and window, the function sees the
 * elements of both streams, either side possibly empty.
 *
 * <p>As in Flink, both streams are tagged with their side ({@link TaggedUnion}), united, keyed and
 * windowed as one stream, so triggers, evictors and allowed lateness work as for any window; the
 * window's elements are split by side when it fires. Window contents are held in keyed state.
 *
 * @param <T1> the type of the first stream's elements
 * @param <T2> the type of the second stream's elements
 */
public class CoGroupedStreams<T1, T2> {

    private final DataStream<T1> input1;
    private final DataStream<T2> input2;

    public CoGroupedStreams(DataStream<T1> input1, DataStream<T2> input2) {
        this.input1 = Objects.requireNonNull(input1, "input1");
        this.input2 = Objects.requireNonNull(input2, "input2");
    }

    /** The key of the first stream's elements. */
    public <KEY> Where<KEY> where(KeySelector<T1, KEY> keySelector) {
        return where(keySelector, keyType(keySelector, input1, "where"));
    }

    public <KEY> Where<KEY> where(KeySelector<T1, KEY> keySelector, TypeInformation<KEY> keyType) {
        return new Where<>(DataStream.clean(keySelector), Objects.requireNonNull(keyType, "keyType"));
    }

    static <T, KEY> TypeInformation<KEY> keyType(KeySelector<T, KEY> keySelector, DataStream<T> input, String method) {
        try {
            return TypeExtractor.getOutputType(keySelector, KeySelector.class, 1, input.typeOrNull());
        } catch (InvalidTypesException e) {
            throw new InvalidTypesException("The key type of " + method + "(...) could not be determined: "
                    + e.getMessage() + " Pass it explicitly: " + method + "(selector, Types.STRING).", e);
        }
    }

    /** A co-group with the first stream's key. */
    public class Where<KEY> {

        private final KeySelector<T1, KEY> keySelector1;
        private final TypeInformation<KEY> keyType;

        Where(KeySelector<T1, KEY> keySelector1, TypeInformation<KEY> keyType) {
            this.keySelector1 = keySelector1;
            this.keyType = keyType;
        }

        /** The key of the second stream's elements; of the same type as the first's. */
        public EqualTo equalTo(KeySelector<T2, KEY> keySelector) {
            return equalTo(keySelector, keyType(keySelector, input2, "equalTo"));
        }

        public EqualTo equalTo(KeySelector<T2, KEY> keySelector, TypeInformation<KEY> keyType) {
            if (!this.keyType.equals(keyType)) {
                throw new IllegalArgumentException("The keys for the two inputs are not equal: first key = "
                        + this.keyType + " , second key = " + keyType);
            }
            return new EqualTo(DataStream.clean(keySelector));
        }

        /** A co-group with both keys. */
        public class EqualTo {

            private final KeySelector<T2, KEY> keySelector2;

            EqualTo(KeySelector<T2, KEY> keySelector2) {
                this.keySelector2 = keySelector2;
            }

            /** The windows in which elements of equal keys are grouped. */
            public <W extends Window> WithWindow<T1, T2, KEY, W> window(WindowAssigner<? super TaggedUnion<T1, T2>, W> assigner) {
                return new WithWindow<>(input1, input2, keySelector1, keySelector2, keyType, assigner);
            }
        }
    }

    /**
     * A co-group with keys and windows: set trigger, evictor or lateness, then {@code apply}. As in
     * Flink, each setting returns a new instance and leaves this one as it was.
     */
    public static class WithWindow<T1, T2, KEY, W extends Window> {

        private final DataStream<T1> input1;
        private final DataStream<T2> input2;
        private final KeySelector<T1, KEY> keySelector1;
        private final KeySelector<T2, KEY> keySelector2;
        private final TypeInformation<KEY> keyType;
        private final WindowAssigner<? super TaggedUnion<T1, T2>, W> windowAssigner;
        private final Trigger<? super TaggedUnion<T1, T2>, ? super W> trigger;
        private final Evictor<? super TaggedUnion<T1, T2>, ? super W> evictor;
        private final Duration allowedLateness;

        WithWindow(DataStream<T1> input1, DataStream<T2> input2, KeySelector<T1, KEY> keySelector1,
                KeySelector<T2, KEY> keySelector2, TypeInformation<KEY> keyType,
                WindowAssigner<? super TaggedUnion<T1, T2>, W> windowAssigner) {
            this(input1, input2, keySelector1, keySelector2, keyType, windowAssigner, null, null, null);
        }

        private WithWindow(DataStream<T1> input1, DataStream<T2> input2, KeySelector<T1, KEY> keySelector1,
                KeySelector<T2, KEY> keySelector2, TypeInformation<KEY> keyType,
                WindowAssigner<? super TaggedUnion<T1, T2>, W> windowAssigner,
                Trigger<? super TaggedUnion<T1, T2>, ? super W> trigger, Evictor<? super TaggedUnion<T1, T2>, ? super W> evictor,
                Duration allowedLateness) {
            this.input1 = input1;
            this.input2 = input2;
            this.keySelector1 = keySelector1;
            this.keySelector2 = keySelector2;
            this.keyType = keyType;
            this.windowAssigner = Objects.requireNonNull(windowAssigner, "windowAssigner");
            this.trigger = trigger;
            this.evictor = evictor;
            this.allowedLateness = allowedLateness;
        }

        public WithWindow<T1, T2, KEY, W> trigger(Trigger<? super TaggedUnion<T1, T2>, ? super W> newTrigger) {
            return new WithWindow<>(input1, input2, keySelector1, keySelector2, keyType, windowAssigner, newTrigger, evictor,
                    allowedLateness);
        }

        /** Removes elements from windows when they fire (windows then keep all their elements anyway). */
        public WithWindow<T1, T2, KEY, W> evictor(Evictor<? super TaggedUnion<T1, T2>, ? super W> newEvictor) {
            return new WithWindow<>(input1, input2, keySelector1, keySelector2, keyType, windowAssigner, trigger, newEvictor,
                    allowedLateness);
        }

        public WithWindow<T1, T2, KEY, W> allowedLateness(Duration newLateness) {
            return new WithWindow<>(input1, input2, keySelector1, keySelector2, keyType, windowAssigner, trigger, evictor,
                    newLateness);
        }

        public WithWindow<T1, T2, KEY, W> allowedLateness(Time newLateness) {
            return allowedLateness(newLateness == null ? null : newLateness.toDuration());
        }

        /** Calls {@code function} for every key and window with the elements of both streams. */
        public <T> SingleOutputStreamOperator<T> apply(CoGroupFunction<T1, T2, T> function) {
            return OutputTypes.ofTwoInputFunction(function, CoGroupFunction.class, input1, input2, type -> apply(function, type));
        }

        public <T> SingleOutputStreamOperator<T> apply(CoGroupFunction<T1, T2, T> function, TypeInformation<T> resultType) {
            UnionTypeInfo<T1, T2> unionType = new UnionTypeInfo<>(input1.getType(), input2.getType());
            DataStream<TaggedUnion<T1, T2>> tagged1 = input1.map(new Input1Tagger<T1, T2>(), unionType)
                    .setParallelism(input1.getParallelism());
            DataStream<TaggedUnion<T1, T2>> tagged2 = input2.map(new Input2Tagger<T1, T2>(), unionType)
                    .setParallelism(input2.getParallelism());
            WindowedStream<TaggedUnion<T1, T2>, KEY, W> windowed = new KeyedStream<>(tagged1.union(tagged2),
                    new UnionKeySelector<>(keySelector1, keySelector2), keyType).window(windowAssigner);
            if (trigger != null) {
                windowed.trigger(trigger);
            }
            if (evictor != null) {
                windowed.evictor(evictor);
            }
            if (allowedLateness != null) {
                windowed.allowedLateness(allowedLateness);
            }
            return windowed.apply(new CoGroupWindowFunction<T1, T2, T, KEY, W>(DataStream.clean(function)), resultType);
        }

        /** @deprecated as in Flink: {@link #apply(CoGroupFunction)} returns the same operator. */
        @Deprecated
        public <T> SingleOutputStreamOperator<T> with(CoGroupFunction<T1, T2, T> function) {
            return apply(function);
        }

        /** @deprecated as in Flink: {@link #apply(CoGroupFunction, TypeInformation)} returns the same operator. */
        @Deprecated
        public <T> SingleOutputStreamOperator<T> with(CoGroupFunction<T1, T2, T> function, TypeInformation<T> resultType) {
            return apply(function, resultType);
        }
    }

    // ------------------------------------------------------------------ the union of both sides

    /**
     * An element of either side of a co-group or join: exactly one of {@link #getOne()} and
     * {@link #getTwo()} is set. Window assigners, triggers and evictors of joins see these.
     */
    public static class TaggedUnion<T1, T2> {

        private final T1 one;
        private final T2 two;

        private TaggedUnion(T1 one, T2 two) {
            this.one = one;
            this.two = two;
        }

        public boolean isOne() {
            return one != null;
        }

        public boolean isTwo() {
            return two != null;
        }

        public T1 getOne() {
            return one;
        }

        public T2 getTwo() {
            return two;
        }

        public static <T1, T2> TaggedUnion<T1, T2> one(T1 one) {
            return new TaggedUnion<>(Objects.requireNonNull(one, "one"), null);
        }

        public static <T1, T2> TaggedUnion<T1, T2> two(T2 two) {
            return new TaggedUnion<>(null, Objects.requireNonNull(two, "two"));
        }

        @Override
        public boolean equals(Object obj) {
            return obj instanceof TaggedUnion<?, ?> other && Objects.equals(one, other.one) && Objects.equals(two, other.two);
        }

        @Override
        public int hashCode() {
            return Objects.hash(one, two);
        }

        @Override
        public String toString() {
            return isOne() ? "One(" + one + ")" : "Two(" + two + ")";
        }
    }

    /** The type of {@link TaggedUnion}s of two types. */
    public static class UnionTypeInfo<T1, T2> extends TypeInformation<TaggedUnion<T1, T2>> {

        private static final long serialVersionUID = 1L;

        private final TypeInformation<T1> oneType;
        private final TypeInformation<T2> twoType;

        public UnionTypeInfo(TypeInformation<T1> oneType, TypeInformation<T2> twoType) {
            this.oneType = Objects.requireNonNull(oneType, "oneType");
            this.twoType = Objects.requireNonNull(twoType, "twoType");
        }

        @Override
        public boolean isBasicType() {
            return false;
        }

        @Override
        public boolean isTupleType() {
            return false;
        }

        @Override
        public int getArity() {
            return 2;
        }

        @Override
        @SuppressWarnings({"unchecked", "rawtypes"})
        public Class<TaggedUnion<T1, T2>> getTypeClass() {
            return (Class) TaggedUnion.class;
        }

        @Override
        public boolean isKeyType() {
            return false;
        }

        @Override
        public TypeSerializer<TaggedUnion<T1, T2>> createSerializer(SerializerConfig config) {
            return new UnionSerializer<>(oneType.createSerializer(config), twoType.createSerializer(config));
        }

        @Override
        public String toString() {
            return "TaggedUnion<" + oneType + ", " + twoType + ">";
        }

        @Override
        public boolean equals(Object obj) {
            return obj instanceof UnionTypeInfo<?, ?> other && oneType.equals(other.oneType) && twoType.equals(other.twoType);
        }

        @Override
        public int hashCode() {
            return 31 * oneType.hashCode() + twoType.hashCode();
        }
    }

    /** Writes the side (1 or 2) as a byte, then the element with that side's serializer. */
    public static class UnionSerializer<T1, T2> extends TypeSerializer<TaggedUnion<T1, T2>> {

        private static final long serialVersionUID = 1L;

        private final TypeSerializer<T1> oneSerializer;
        private final TypeSerializer<T2> twoSerializer;

        public UnionSerializer(TypeSerializer<T1> oneSerializer, TypeSerializer<T2> twoSerializer) {
            this.oneSerializer = Objects.requireNonNull(oneSerializer, "oneSerializer");
            this.twoSerializer = Objects.requireNonNull(twoSerializer, "twoSerializer");
        }

        @Override
        public boolean isImmutableType() {
            return oneSerializer.isImmutableType() && twoSerializer.isImmutableType();
        }

        @Override
        public TaggedUnion<T1, T2> createInstance() {
            return null;
        }

        @Override
        public TaggedUnion<T1, T2> copy(TaggedUnion<T1, T2> from) {
            return from.isOne() ? TaggedUnion.one(oneSerializer.copy(from.one)) : TaggedUnion.two(twoSerializer.copy(from.two));
        }

        @Override
        public int getLength() {
            return -1;
        }

        @Override
        public void serialize(TaggedUnion<T1, T2> record, DataOutputView target) throws IOException {
            if (record.isOne()) {
                target.writeByte(1);
                oneSerializer.serialize(record.one, target);
            } else {
                target.writeByte(2);
                twoSerializer.serialize(record.two, target);
            }
        }

        @Override
        public TaggedUnion<T1, T2> deserialize(DataInputView source) throws IOException {
            int position = source.position();
            byte tag = source.readByte();
            return switch (tag) {
                case 1 -> TaggedUnion.one(oneSerializer.deserialize(source));
                case 2 -> TaggedUnion.two(twoSerializer.deserialize(source));
                default -> throw new CorruptDataException("TaggedUnion at position " + position + ": side " + tag
                        + " is neither 1 nor 2");
            };
        }

        @Override
        public boolean equals(Object obj) {
            return obj instanceof UnionSerializer<?, ?> other && oneSerializer.equals(other.oneSerializer)
                    && twoSerializer.equals(other.twoSerializer);
        }

        @Override
        public int hashCode() {
            return 31 * oneSerializer.hashCode() + twoSerializer.hashCode();
        }

        @Override
        public String toString() {
            return "UnionSerializer<" + oneSerializer + ", " + twoSerializer + ">";
        }
    }

    private static final class Input1Tagger<T1, T2> implements MapFunction<T1, TaggedUnion<T1, T2>> {
        private static final long serialVersionUID = 1L;

        @Override
        public TaggedUnion<T1, T2> map(T1 value) {
            return TaggedUnion.one(value);
        }
    }

    private static final class Input2Tagger<T1, T2> implements MapFunction<T2, TaggedUnion<T1, T2>> {
        private static final long serialVersionUID = 1L;

        @Override
        public TaggedUnion<T1, T2> map(T2 value) {
            return TaggedUnion.two(value);
        }
    }

    /** The key of a tagged element: the key selector of its side. */
    private static final class UnionKeySelector<T1, T2, KEY> implements KeySelector<TaggedUnion<T1, T2>, KEY> {
        private static final long serialVersionUID = 1L;
        private final KeySelector<T1, KEY> keySelector1;
        private final KeySelector<T2, KEY> keySelector2;

        UnionKeySelector(KeySelector<T1, KEY> keySelector1, KeySelector<T2, KEY> keySelector2) {
            this.keySelector1 = keySelector1;
            this.keySelector2 = keySelector2;
        }

        @Override
        public KEY getKey(TaggedUnion<T1, T2> value) throws Exception {
            return value.isOne() ? keySelector1.getKey(value.getOne()) : keySelector2.getKey(value.getTwo());
        }
    }

    /** Splits a fired window's tagged elements by side and hands both lists to the co-group function. */
    private static final class CoGroupWindowFunction<T1, T2, T, KEY, W extends Window>
            extends WrappingFunction<CoGroupFunction<T1, T2, T>> implements WindowFunction<TaggedUnion<T1, T2>, T, KEY, W> {
        private static final long serialVersionUID = 1L;

        CoGroupWindowFunction(CoGroupFunction<T1, T2, T> function) {
            super(function);
        }

        @Override
        public void apply(KEY key, W window, Iterable<TaggedUnion<T1, T2>> values, Collector<T> out) throws Exception {
            List<T1> ones = new ArrayList<>();
            List<T2> twos = new ArrayList<>();
            for (TaggedUnion<T1, T2> value : values) {
                if (value.isOne()) {
                    ones.add(value.getOne());
                } else {
                    twos.add(value.getTwo());
                }
            }
            wrappedFunction.coGroup(ones, twos, out);
        }
    }
}
