package dev.runnel.streaming.runtime.operators.windowing;

import dev.runnel.api.common.functions.AggregateFunction;
import dev.runnel.api.common.functions.Function;
import dev.runnel.api.common.functions.OpenContext;
import dev.runnel.api.common.functions.ReduceFunction;
import dev.runnel.api.common.functions.RichFunction;
import dev.runnel.api.common.functions.RuntimeContext;
import dev.runnel.api.common.state.KeyedStateStore;
import dev.runnel.streaming.api.functions.windowing.ProcessWindowFunction;
import dev.runnel.streaming.api.functions.windowing.WindowFunction;
import dev.runnel.streaming.api.windowing.windows.Window;
import dev.runnel.util.Collector;
import dev.runnel.util.OutputTag;
import java.util.Collections;

/**
 * The window operator's single view of the user's window function, whatever its form: a
 * {@link ProcessWindowFunction} or {@link WindowFunction} over the window's contents (an iterable)
 * or over a pre-aggregated single value, or nothing (pass the value through).
 *
 * <p>Opens and closes the wrapped function if it is rich. Task thread only.
 */
public abstract class InternalWindowFunction<IN, OUT, KEY, W extends Window> implements RichFunction {

    private static final long serialVersionUID = 1L;

    private transient RuntimeContext runtimeContext;

    /** The window operator's context for one window. */
    public interface InternalWindowContext {
        long currentProcessingTime();

        long currentWatermark();

        KeyedStateStore windowState();

        KeyedStateStore globalState();

        <X> void output(OutputTag<X> outputTag, X value);
    }

    public abstract void process(KEY key, W window, InternalWindowContext context, IN input, Collector<OUT> out)
            throws Exception;

    public void clear(W window, InternalWindowContext context) throws Exception {}

    /** The user's function, or null when there is none. */
    protected abstract Function wrapped();

    @Override
    public void open(OpenContext openContext) throws Exception {
        if (wrapped() instanceof RichFunction rich) {
            rich.open(openContext);
        }
    }

    @Override
    public void close() throws Exception {
        if (wrapped() instanceof RichFunction rich) {
            rich.close();
        }
    }

    @Override
    public RuntimeContext getRuntimeContext() {
        return runtimeContext;
    }

    @Override
    public void setRuntimeContext(RuntimeContext context) {
        this.runtimeContext = context;
        if (wrapped() instanceof RichFunction rich) {
            rich.setRuntimeContext(context);
        }
    }

    /** Contents as an iterable, to a {@link ProcessWindowFunction}. */
    public static <IN, OUT, KEY, W extends Window> InternalWindowFunction<Iterable<IN>, OUT, KEY, W> iterable(
            ProcessWindowFunction<IN, OUT, KEY, W> function) {
        return new ProcessAdapter<>(function, false);
    }

    /** A single pre-aggregated value, to a {@link ProcessWindowFunction}. */
    public static <IN, OUT, KEY, W extends Window> InternalWindowFunction<IN, OUT, KEY, W> singleValue(
            ProcessWindowFunction<IN, OUT, KEY, W> function) {
        return new ProcessAdapter<>(function, true);
    }

    /** Contents as an iterable, to a {@link WindowFunction}. */
    public static <IN, OUT, KEY, W extends Window> InternalWindowFunction<Iterable<IN>, OUT, KEY, W> iterable(
            WindowFunction<IN, OUT, KEY, W> function) {
        return new WindowAdapter<>(function, false);
    }

    /** A single pre-aggregated value, to a {@link WindowFunction}. */
    public static <IN, OUT, KEY, W extends Window> InternalWindowFunction<IN, OUT, KEY, W> singleValue(
            WindowFunction<IN, OUT, KEY, W> function) {
        return new WindowAdapter<>(function, true);
    }

    /** Emits the pre-aggregated value itself (reduce or aggregate without a window function). */
    public static <T, KEY, W extends Window> InternalWindowFunction<T, T, KEY, W> passThrough() {
        return new PassThrough<>();
    }

    /**
     * Reduces the contents and hands the result to {@code function} (which takes a single value);
     * nothing happens for empty contents.
     */
    public static <T, OUT, KEY, W extends Window> InternalWindowFunction<Iterable<T>, OUT, KEY, W> reducing(
            ReduceFunction<T> reduce, InternalWindowFunction<T, OUT, KEY, W> function) {
        return new Composed<>(function) {
            private static final long serialVersionUID = 1L;

            @Override
            T combine(Iterable<T> contents) throws Exception {
                T result = null;
                for (T value : contents) {
                    result = result == null ? value : reduce.reduce(result, value);
                }
                return result;
            }
        };
    }

    /** Aggregates the contents and hands the aggregate's result to {@code function} (which takes a single value). */
    public static <T, ACC, V, OUT, KEY, W extends Window> InternalWindowFunction<Iterable<T>, OUT, KEY, W> aggregating(
            AggregateFunction<T, ACC, V> aggregate, InternalWindowFunction<V, OUT, KEY, W> function) {
        return new Composed<>(function) {
            private static final long serialVersionUID = 1L;

            @Override
            V combine(Iterable<T> contents) {
                ACC accumulator = aggregate.createAccumulator();
                for (T value : contents) {
                    accumulator = aggregate.add(value, accumulator);
                }
                return aggregate.getResult(accumulator);
            }
        };
    }

    /** Combines the window's elements into one value for a single-value function. */
    private abstract static class Composed<T, V, OUT, KEY, W extends Window> extends InternalWindowFunction<Iterable<T>, OUT, KEY, W> {
        private static final long serialVersionUID = 1L;
        private final InternalWindowFunction<V, OUT, KEY, W> function;

        Composed(InternalWindowFunction<V, OUT, KEY, W> function) {
            this.function = function;
        }

        /** The single value, or null for none. */
        abstract V combine(Iterable<T> contents) throws Exception;

        @Override
        protected Function wrapped() {
            return function;
        }

        @Override
        public void process(KEY key, W window, InternalWindowContext context, Iterable<T> input, Collector<OUT> out)
                throws Exception {
            V value = combine(input);
            if (value != null) {
                function.process(key, window, context, value, out);
            }
        }

        @Override
        public void clear(W window, InternalWindowContext context) throws Exception {
            function.clear(window, context);
        }
    }

    private static final class ProcessAdapter<IN, OUT, KEY, W extends Window, X> extends InternalWindowFunction<X, OUT, KEY, W> {
        private static final long serialVersionUID = 1L;
        private final ProcessWindowFunction<IN, OUT, KEY, W> function;
        private final boolean single;
        private transient ContextImpl context;

        ProcessAdapter(ProcessWindowFunction<IN, OUT, KEY, W> function, boolean single) {
            this.function = function;
            this.single = single;
        }

        @Override
        protected Function wrapped() {
            return function;
        }

        @Override
        @SuppressWarnings("unchecked")
        public void process(KEY key, W window, InternalWindowContext ctx, X input, Collector<OUT> out) throws Exception {
            ContextImpl c = context();
            c.window = window;
            c.internal = ctx;
            Iterable<IN> elements = single ? Collections.singletonList((IN) input) : (Iterable<IN>) input;
            function.process(key, c, elements, out);
        }

        @Override
        public void clear(W window, InternalWindowContext ctx) throws Exception {
            ContextImpl c = context();
            c.window = window;
            c.internal = ctx;
            function.clear(c);
        }

        private ContextImpl context() {
            if (context == null) {
                context = new ContextImpl();
            }
            return context;
        }

        private final class ContextImpl extends ProcessWindowFunction<IN, OUT, KEY, W>.Context {
            private W window;
            private InternalWindowContext internal;

            ContextImpl() {
                function.super();
            }

            @Override
            public W window() {
                return window;
            }

            @Override
            public long currentProcessingTime() {
                return internal.currentProcessingTime();
            }

            @Override
            public long currentWatermark() {
                return internal.currentWatermark();
            }

            @Override
            public KeyedStateStore windowState() {
                return internal.windowState();
            }

            @Override
            public KeyedStateStore globalState() {
                return internal.globalState();
            }

            @Override
            public <Y> void output(OutputTag<Y> outputTag, Y value) {
                internal.output(outputTag, value);
            }
        }
    }

    private static final class WindowAdapter<IN, OUT, KEY, W extends Window, X> extends InternalWindowFunction<X, OUT, KEY, W> {
        private static final long serialVersionUID = 1L;
        private final WindowFunction<IN, OUT, KEY, W> function;
        private final boolean single;

        WindowAdapter(WindowFunction<IN, OUT, KEY, W> function, boolean single) {
            this.function = function;
            this.single = single;
        }

        @Override
        protected Function wrapped() {
            return function;
        }

        @Override
        @SuppressWarnings("unchecked")
        public void process(KEY key, W window, InternalWindowContext ctx, X input, Collector<OUT> out) throws Exception {
            function.apply(key, window, single ? Collections.singletonList((IN) input) : (Iterable<IN>) input, out);
        }
    }

    private static final class PassThrough<T, KEY, W extends Window> extends InternalWindowFunction<T, T, KEY, W> {
        private static final long serialVersionUID = 1L;

        @Override
        protected Function wrapped() {
            return null;
        }

        @Override
        public void process(KEY key, W window, InternalWindowContext context, T input, Collector<T> out) {
            out.collect(input);
        }
    }
}
