package dev.runnel.streaming.api.datastream;

import dev.runnel.api.common.functions.CoGroupFunction;
import dev.runnel.api.common.functions.FlatJoinFunction;
import dev.runnel.api.common.functions.JoinFunction;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.java.functions.KeySelector;
import dev.runnel.api.java.operators.translation.WrappingFunction;
import dev.runnel.streaming.api.datastream.CoGroupedStreams.TaggedUnion;
import dev.runnel.streaming.api.windowing.assigners.WindowAssigner;
import dev.runnel.streaming.api.windowing.evictors.Evictor;
import dev.runnel.streaming.api.windowing.time.Time;
import dev.runnel.streaming.api.windowing.triggers.Trigger;
import dev.runnel.streaming.api.windowing.windows.Window;
import dev.runnel.util.Collector;
import java.time.Duration;

/**
 * Two streams joined by key over windows ({@code first.join(second).where(key1).equalTo(key2)
 * .window(assigner).apply(joinFunction)}): an inner join that, when a window fires, calls the
 * function for every pair of elements of one key in it, one from each stream.
 *
 * <p>Built on {@link CoGroupedStreams}, as in Flink: the co-group function of a window forms the
 * pairs. Window contents are held in keyed state until the window fires.
 *
 * @param <T1> the type of the first stream's elements
 * @param <T2> the type of the second stream's elements
 */
public class JoinedStreams<T1, T2> {

    private final CoGroupedStreams<T1, T2> coGrouped;
    private final DataStream<T1> input1;
    private final DataStream<T2> input2;

    public JoinedStreams(DataStream<T1> input1, DataStream<T2> input2) {
        this.coGrouped = new CoGroupedStreams<>(input1, input2);
        this.input1 = input1;
        this.input2 = input2;
    }

    /** The key of the first stream's elements. */
    public <KEY> Where<KEY> where(KeySelector<T1, KEY> keySelector) {
        return new Where<>(coGrouped.where(keySelector));
    }

    public <KEY> Where<KEY> where(KeySelector<T1, KEY> keySelector, TypeInformation<KEY> keyType) {
        return new Where<>(coGrouped.where(keySelector, keyType));
    }

    /** A join with the first stream's key. */
    public class Where<KEY> {

        private final CoGroupedStreams<T1, T2>.Where<KEY> where;

        Where(CoGroupedStreams<T1, T2>.Where<KEY> where) {
            this.where = where;
        }

        /** The key of the second stream's elements; of the same type as the first's. */
        public EqualTo equalTo(KeySelector<T2, KEY> keySelector) {
            return new EqualTo(where.equalTo(keySelector));
        }

        public EqualTo equalTo(KeySelector<T2, KEY> keySelector, TypeInformation<KEY> keyType) {
            return new EqualTo(where.equalTo(keySelector, keyType));
        }

        /** A join with both keys. */
        public class EqualTo {

            private final CoGroupedStreams<T1, T2>.Where<KEY>.EqualTo equalTo;

            EqualTo(CoGroupedStreams<T1, T2>.Where<KEY>.EqualTo equalTo) {
                this.equalTo = equalTo;
            }

            /** The windows in which elements of equal keys are joined. */
            public <W extends Window> WithWindow<T1, T2, KEY, W> window(WindowAssigner<? super TaggedUnion<T1, T2>, W> assigner) {
                return new WithWindow<>(input1, input2, equalTo.window(assigner));
            }
        }
    }

    /**
     * A join with keys and windows: set trigger, evictor or lateness, then {@code apply}. As in Flink,
     * each setting returns a new instance and leaves this one as it was.
     */
    public static class WithWindow<T1, T2, KEY, W extends Window> {

        private final DataStream<T1> input1;
        private final DataStream<T2> input2;
        private final CoGroupedStreams.WithWindow<T1, T2, KEY, W> coGroup;

        WithWindow(DataStream<T1> input1, DataStream<T2> input2, CoGroupedStreams.WithWindow<T1, T2, KEY, W> coGroup) {
            this.input1 = input1;
            this.input2 = input2;
            this.coGroup = coGroup;
        }

        public WithWindow<T1, T2, KEY, W> trigger(Trigger<? super TaggedUnion<T1, T2>, ? super W> newTrigger) {
            return new WithWindow<>(input1, input2, coGroup.trigger(newTrigger));
        }

        /** Removes elements from windows when they fire, before the pairs are formed (or after). */
        public WithWindow<T1, T2, KEY, W> evictor(Evictor<? super TaggedUnion<T1, T2>, ? super W> newEvictor) {
            return new WithWindow<>(input1, input2, coGroup.evictor(newEvictor));
        }

        public WithWindow<T1, T2, KEY, W> allowedLateness(Duration newLateness) {
            return new WithWindow<>(input1, input2, coGroup.allowedLateness(newLateness));
        }

        public WithWindow<T1, T2, KEY, W> allowedLateness(Time newLateness) {
            return new WithWindow<>(input1, input2, coGroup.allowedLateness(newLateness));
        }

        /** Calls {@code function} for every pair of one key in a fired window. */
        public <T> SingleOutputStreamOperator<T> apply(JoinFunction<T1, T2, T> function) {
            return OutputTypes.ofTwoInputFunction(function, JoinFunction.class, input1, input2, type -> apply(function, type));
        }

        public <T> SingleOutputStreamOperator<T> apply(JoinFunction<T1, T2, T> function, TypeInformation<T> resultType) {
            return coGroup.apply(new JoinCoGroupFunction<>(DataStream.clean(function)), resultType);
        }

        /** Calls {@code function} for every pair of one key in a fired window; it emits any number of results. */
        public <T> SingleOutputStreamOperator<T> apply(FlatJoinFunction<T1, T2, T> function) {
            return OutputTypes.ofTwoInputFunction(function, FlatJoinFunction.class, input1, input2, type -> apply(function, type));
        }

        public <T> SingleOutputStreamOperator<T> apply(FlatJoinFunction<T1, T2, T> function, TypeInformation<T> resultType) {
            return coGroup.apply(new FlatJoinCoGroupFunction<>(DataStream.clean(function)), resultType);
        }

        /** @deprecated as in Flink: {@link #apply(JoinFunction)} returns the same operator. */
        @Deprecated
        public <T> SingleOutputStreamOperator<T> with(JoinFunction<T1, T2, T> function) {
            return apply(function);
        }

        /** @deprecated as in Flink: {@link #apply(JoinFunction, TypeInformation)} returns the same operator. */
        @Deprecated
        public <T> SingleOutputStreamOperator<T> with(JoinFunction<T1, T2, T> function, TypeInformation<T> resultType) {
            return apply(function, resultType);
        }

        /** @deprecated as in Flink: {@link #apply(FlatJoinFunction)} returns the same operator. */
        @Deprecated
        public <T> SingleOutputStreamOperator<T> with(FlatJoinFunction<T1, T2, T> function) {
            return apply(function);
        }

        /** @deprecated as in Flink: {@link #apply(FlatJoinFunction, TypeInformation)} returns the same operator. */
        @Deprecated
        public <T> SingleOutputStreamOperator<T> with(FlatJoinFunction<T1, T2, T> function, TypeInformation<T> resultType) {
            return apply(function, resultType);
        }
    }

    /** The pairs of a window's two sides, each joined by the user's function. */
    private static final class JoinCoGroupFunction<T1, T2, T> extends WrappingFunction<JoinFunction<T1, T2, T>>
            implements CoGroupFunction<T1, T2, T> {
        private static final long serialVersionUID = 1L;

        JoinCoGroupFunction(JoinFunction<T1, T2, T> function) {
            super(function);
        }

        @Override
        public void coGroup(Iterable<T1> first, Iterable<T2> second, Collector<T> out) throws Exception {
            for (T1 one : first) {
                for (T2 two : second) {
                    out.collect(wrappedFunction.join(one, two));
                }
            }
        }
    }

    /** The pairs of a window's two sides, each handed to the user's flat join function. */
    private static final class FlatJoinCoGroupFunction<T1, T2, T> extends WrappingFunction<FlatJoinFunction<T1, T2, T>>
            implements CoGroupFunction<T1, T2, T> {
        private static final long serialVersionUID = 1L;

        FlatJoinCoGroupFunction(FlatJoinFunction<T1, T2, T> function) {
            super(function);
        }

        @Override
        public void coGroup(Iterable<T1> first, Iterable<T2> second, Collector<T> out) throws Exception {
            for (T1 one : first) {
                for (T2 two : second) {
                    wrappedFunction.join(one, two, out);
                }
            }
        }
    }
}
