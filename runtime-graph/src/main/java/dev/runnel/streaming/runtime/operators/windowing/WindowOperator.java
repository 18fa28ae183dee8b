package dev.runnel.streaming.runtime.operators.windowing;

import dev.runnel.api.common.state.AggregatingState;
import dev.runnel.api.common.state.AggregatingStateDescriptor;
import dev.runnel.api.common.state.AppendingState;
import dev.runnel.api.common.state.KeyedStateStore;
import dev.runnel.api.common.state.ListState;
import dev.runnel.api.common.state.ListStateDescriptor;
import dev.runnel.api.common.state.MapState;
import dev.runnel.api.common.state.MapStateDescriptor;
import dev.runnel.api.common.state.MergingState;
import dev.runnel.api.common.state.ReducingState;
import dev.runnel.api.common.state.ReducingStateDescriptor;
import dev.runnel.api.common.state.State;
import dev.runnel.api.common.state.StateDescriptor;
import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.java.tuple.Tuple2;
import dev.runnel.api.java.typeutils.runtime.TupleSerializer;
import dev.runnel.metrics.Counter;
import dev.runnel.metrics.MetricGroup;
import dev.runnel.runtime.state.VoidNamespace;
import dev.runnel.runtime.state.VoidNamespaceSerializer;
import dev.runnel.runtime.state.internal.InternalAppendingState;
import dev.runnel.runtime.state.internal.InternalListState;
import dev.runnel.runtime.state.internal.InternalMergingState;
import dev.runnel.runtime.timers.InternalTimer;
import dev.runnel.runtime.timers.InternalTimerService;
import dev.runnel.runtime.timers.Triggerable;
import dev.runnel.streaming.api.operators.AbstractUdfStreamOperator;
import dev.runnel.streaming.api.operators.OneInputStreamOperator;
import dev.runnel.streaming.api.operators.TimestampedCollector;
import dev.runnel.streaming.api.windowing.assigners.MergingWindowAssigner;
import dev.runnel.streaming.api.windowing.assigners.WindowAssigner;
import dev.runnel.streaming.api.windowing.triggers.Trigger;
import dev.runnel.streaming.api.windowing.triggers.TriggerResult;
import dev.runnel.streaming.api.windowing.windows.Window;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;
import dev.runnel.util.OutputTag;
import java.util.Collection;

/**
 * Keyed windows on keyed state and timers, with Flink's semantics. For each record: assign windows,
 * drop those already past their cleanup time, add the record to each window's state (a list, a
 * running reduction, or an accumulator), and ask the trigger. A firing window's contents go to the
 * window function, stamped with the window's max timestamp. Each window's state is removed at its
 * cleanup time: end of the window plus the allowed lateness (event time), or its end (processing
 * time). Records too late for every window go to the late-data side output, or are counted as
 * dropped.
 *
 * <p>Session windows (merging assigners) keep a per-key {@link MergingWindowSet}; merged windows'
 * state is merged into one namespace and their triggers and cleanup timers are merged too.
 *
 * <p>What a window's state holds and how it is evaluated are two hooks,
 * {@link #addToWindowState} and {@link #emitWindowContents}; {@link EvictingWindowOperator}
 * overrides them to keep timestamped elements and evict some when the window fires.
 *
 * @param <K> key type
 * @param <IN> record type
 * @param <ACC> the type of what a window's state holds and hands to the function
 * @param <OUT> output type
 * @param <W> window type
 */
public class WindowOperator<K, IN, ACC, OUT, W extends Window>
        extends AbstractUdfStreamOperator<OUT, InternalWindowFunction<ACC, OUT, K, W>>
        implements OneInputStreamOperator<IN, OUT>, Triggerable<K, W> {

    private static final long serialVersionUID = 1L;

    private final WindowAssigner<? super IN, W> windowAssigner;
    private final StateDescriptor<? extends AppendingState<IN, ACC>, ?> windowStateDescriptor;
    private final TypeSerializer<W> windowSerializer;
    private final Trigger<? super IN, ? super W> trigger;
    private final long allowedLateness;
    private final OutputTag<IN> lateDataOutputTag;
    /** Whether the window state is a list (an empty list is an empty window, which does not fire). */
    private final boolean listContents;

    private transient InternalAppendingState<K, W, IN, ACC, ACC> windowState;
    private transient InternalMergingState<K, W, IN, ACC, ACC> windowMergingState;
    private transient InternalListState<K, VoidNamespace, Tuple2<W, W>> mergingSetsState;
    private transient InternalTimerService<W> timers;
    private transient TimestampedCollector<OUT> collector;
    private transient TriggerContextImpl triggerContext;
    private transient WindowContext processContext;
    private transient WindowAssigner.WindowAssignerContext assignerContext;
    private transient Counter lateRecordsDropped;

    public WindowOperator(WindowAssigner<? super IN, W> windowAssigner, TypeSerializer<W> windowSerializer,
            StateDescriptor<? extends AppendingState<IN, ACC>, ?> windowStateDescriptor,
            InternalWindowFunction<ACC, OUT, K, W> windowFunction, Trigger<? super IN, ? super W> trigger,
            long allowedLateness, OutputTag<IN> lateDataOutputTag) {
        super(windowFunction);
        if (allowedLateness < 0) {
            throw new IllegalArgumentException("Allowed lateness must be >= 0, was " + allowedLateness);
        }
        if (windowAssigner instanceof MergingWindowAssigner<?, ?> && !trigger.canMerge()) {
            throw new UnsupportedOperationException("Trigger " + trigger + " cannot merge windows, but "
                    + windowAssigner + " merges them (sessions); use a trigger whose canMerge() is true.");
        }
        this.windowAssigner = windowAssigner;
        this.windowSerializer = windowSerializer;
        this.windowStateDescriptor = windowStateDescriptor;
        this.trigger = trigger;
        this.allowedLateness = allowedLateness;
        this.lateDataOutputTag = lateDataOutputTag;
        this.listContents = windowStateDescriptor instanceof ListStateDescriptor<?>;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void open() throws Exception {
        super.open();
        collector = new TimestampedCollector<>(output);
        timers = getInternalTimerService("window-timers", windowSerializer, this);
        triggerContext = new TriggerContextImpl();
        processContext = new WindowContext();
        assignerContext = new WindowAssigner.WindowAssignerContext() {
            @Override
            public long getCurrentProcessingTime() {
                return timers.currentProcessingTime();
            }
        };
        lateRecordsDropped = getRuntimeContext().getMetricGroup().counter("numLateRecordsDropped");
        windowState = (InternalAppendingState<K, W, IN, ACC, ACC>) getOrCreateKeyedState(windowSerializer,
                (StateDescriptor<AppendingState<IN, ACC>, ?>) windowStateDescriptor);
        if (windowAssigner instanceof MergingWindowAssigner<?, ?>) {
            if (!(windowState instanceof InternalMergingState<?, ?, ?, ?, ?>)) {
                throw new UnsupportedOperationException("Merging windows need mergeable window state; "
                        + windowStateDescriptor.getName() + " is not.");
            }
            windowMergingState = (InternalMergingState<K, W, IN, ACC, ACC>) windowState;
            TupleSerializer<Tuple2<W, W>> pairs = (TupleSerializer<Tuple2<W, W>>) (TupleSerializer<?>)
                    new TupleSerializer<>((Class<Tuple2<?, ?>>) (Class<?>) Tuple2.class,
                            new TypeSerializer<?>[] {windowSerializer, windowSerializer});
            mergingSetsState = (InternalListState<K, VoidNamespace, Tuple2<W, W>>) getOrCreateKeyedState(
                    VoidNamespaceSerializer.INSTANCE, new ListStateDescriptor<>("merging-window-set", pairs));
            mergingSetsState.setCurrentNamespace(VoidNamespace.INSTANCE);
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public void processElement(StreamRecord<IN> element) throws Exception {
        IN value = element.getValue();
        Collection<W> elementWindows = (Collection<W>) windowAssigner.assignWindows(value, element.getTimestamp(), assignerContext);
        boolean isSkippedElement = true;
        K key = (K) getCurrentKey();

        if (windowAssigner instanceof MergingWindowAssigner<?, ?>) {
            MergingWindowSet<W> mergingWindows = mergingWindowSet();
            for (W window : elementWindows) {
                W actualWindow = mergingWindows.addWindow(window, (mergeResult, mergedWindows, stateWindowResult, mergedStateWindows) -> {
                    if (windowAssigner.isEventTime() && mergeResult.maxTimestamp() + allowedLateness <= timers.currentWatermark()) {
                        throw new UnsupportedOperationException("The end timestamp of an event-time window cannot become "
                                + "earlier than the current watermark by merging. Current watermark: "
                                + timers.currentWatermark() + " window: " + mergeResult);
                    }
                    if (!windowAssigner.isEventTime() && mergeResult.maxTimestamp() <= timers.currentProcessingTime()) {
                        throw new UnsupportedOperationException("The end timestamp of a processing-time window cannot "
                                + "become earlier than the current processing time by merging. Window: " + mergeResult);
                    }
                    triggerContext.key = key;
                    triggerContext.window = mergeResult;
                    triggerContext.onMerge(mergedWindows);
                    for (W merged : mergedWindows) {
                        triggerContext.window = merged;
                        triggerContext.clear();
                        deleteCleanupTimer(merged);
                    }
                    windowMergingState.mergeNamespaces(stateWindowResult, mergedStateWindows);
                });
                if (isWindowLate(actualWindow)) {
                    mergingWindows.retireWindow(actualWindow);
                    continue;
                }
                isSkippedElement = false;
                W stateWindow = mergingWindows.getStateWindow(actualWindow);
                if (stateWindow == null) {
                    throw new IllegalStateException("Window " + window + " is not in the merging window set");
                }
                windowState.setCurrentNamespace(stateWindow);
                addToWindowState(element);
                triggerContext.key = key;
                triggerContext.window = actualWindow;
                onTriggerResult(triggerContext.onElement(element), actualWindow);
                registerCleanupTimer(actualWindow);
            }
            mergingWindows.persist();
        } else {
            for (W window : elementWindows) {
                if (isWindowLate(window)) {
                    continue;
                }
                isSkippedElement = false;
                windowState.setCurrentNamespace(window);
                addToWindowState(element);
                triggerContext.key = key;
                triggerContext.window = window;
                onTriggerResult(triggerContext.onElement(element), window);
                registerCleanupTimer(window);
            }
        }

        if (isSkippedElement && isElementLate(element)) {
            if (lateDataOutputTag != null) {
                output.collect(lateDataOutputTag, element);
            } else {
                lateRecordsDropped.inc();
            }
        }
    }

    @Override
    public void onEventTime(InternalTimer<K, W> timer) throws Exception {
        onTimer(timer.getKey(), timer.getNamespace(), timer.getTimestamp(), true);
    }

    /** By the timer's parts, so that a fired window timer allocates nothing. */
    @Override
    public void onEventTime(K key, W window, long timestamp) throws Exception {
        onTimer(key, window, timestamp, true);
    }

    @Override
    public void onProcessingTime(InternalTimer<K, W> timer) throws Exception {
        onTimer(timer.getKey(), timer.getNamespace(), timer.getTimestamp(), false);
    }

    private void onTimer(K key, W window, long timestamp, boolean eventTime) throws Exception {
        triggerContext.key = key;
        triggerContext.window = window;
        MergingWindowSet<W> mergingWindows = null;
        if (windowAssigner instanceof MergingWindowAssigner<?, ?>) {
            mergingWindows = mergingWindowSet();
            W stateWindow = mergingWindows.getStateWindow(triggerContext.window);
            if (stateWindow == null) {
                // A timer of a window that was merged away: nothing to do.
                return;
            }
            windowState.setCurrentNamespace(stateWindow);
        } else {
            windowState.setCurrentNamespace(triggerContext.window);
        }
        onTriggerResult(eventTime
                ? triggerContext.onEventTime(timestamp)
                : triggerContext.onProcessingTime(timestamp), triggerContext.window);
        if (windowAssigner.isEventTime() == eventTime && isCleanupTime(triggerContext.window, timestamp)) {
            clearAllState(triggerContext.window, mergingWindows);
        }
        if (mergingWindows != null) {
            mergingWindows.persist();
        }
    }

    private void clearAllState(W window, MergingWindowSet<W> mergingWindows) throws Exception {
        windowState.clear();
        triggerContext.clear();
        processContext.window = window;
        userFunction.clear(window, processContext);
        if (mergingWindows != null) {
            mergingWindows.retireWindow(window);
            mergingWindows.persist();
        }
    }

    /** Fires and purges the current window (its state namespace is set) as the trigger decided. */
    private void onTriggerResult(TriggerResult result, W window) throws Exception {
        if (result.isFire()) {
            emitWindowContents(window);
        }
        if (result.isPurge()) {
            windowState.clear();
        }
    }

    /** Adds {@code element} to the current window's state (its namespace is set). */
    protected void addToWindowState(StreamRecord<IN> element) throws Exception {
        windowState.add(element.getValue());
    }

    /**
     * Hands the current window's contents to the window function, unless the window is empty (it was
     * purged and fires again before new elements arrived), as in Flink. Its state namespace is set.
     */
    protected void emitWindowContents(W window) throws Exception {
        ACC contents = windowState.get();
        if (contents != null && !(listContents && !((Iterable<?>) contents).iterator().hasNext())) {
            processWindow(window, contents);
        }
    }

    /** Calls the window function for {@code window} of the current key; results carry its max timestamp. */
    @SuppressWarnings("unchecked")
    protected final void processWindow(W window, ACC contents) throws Exception {
        collector.setAbsoluteTimestamp(window.maxTimestamp());
        processContext.window = window;
        userFunction.process((K) triggerContext.key, window, processContext, contents, collector);
    }

    /** The window state, whatever it holds; its namespace is the window being processed. */
    protected InternalAppendingState<K, W, ?, ?, ?> windowState() {
        return windowState;
    }

    /** The timers (and time) of this operator's windows. */
    protected InternalTimerService<W> windowTimers() {
        return timers;
    }

    private MergingWindowSet<W> mergingWindowSet() throws Exception {
        @SuppressWarnings("unchecked")
        MergingWindowAssigner<? super IN, W> merging = (MergingWindowAssigner<? super IN, W>) windowAssigner;
        mergingSetsState.setCurrentNamespace(VoidNamespace.INSTANCE);
        return new MergingWindowSet<>(merging, mergingSetsState);
    }

    private boolean isWindowLate(W window) {
        return windowAssigner.isEventTime() && cleanupTime(window) <= timers.currentWatermark();
    }

    private boolean isElementLate(StreamRecord<IN> element) {
        return windowAssigner.isEventTime()
                && element.getTimestamp() + allowedLateness <= timers.currentWatermark();
    }

    private long cleanupTime(W window) {
        if (windowAssigner.isEventTime()) {
            long cleanup = window.maxTimestamp() + allowedLateness;
            return cleanup >= window.maxTimestamp() ? cleanup : Long.MAX_VALUE;
        }
        return window.maxTimestamp();
    }

    private boolean isCleanupTime(W window, long time) {
        return time == cleanupTime(window);
    }

    private void registerCleanupTimer(W window) {
        long cleanup = cleanupTime(window);
        if (cleanup == Long.MAX_VALUE) {
            return;
        }
        if (windowAssigner.isEventTime()) {
            triggerContext.registerEventTimeTimer(cleanup);
        } else {
            triggerContext.registerProcessingTimeTimer(cleanup);
        }
    }

    private void deleteCleanupTimer(W window) {
        long cleanup = cleanupTime(window);
        if (cleanup == Long.MAX_VALUE) {
            return;
        }
        if (windowAssigner.isEventTime()) {
            triggerContext.deleteEventTimeTimer(cleanup);
        } else {
            triggerContext.deleteProcessingTimeTimer(cleanup);
        }
    }

    /** Per-window state for triggers and window functions: the state of the current key under the window namespace. */
    private abstract class WindowScopedState implements KeyedStateStore {

        abstract W window();

        <S extends State> S windowState(StateDescriptor<S, ?> descriptor) {
            try {
                return getPartitionedState(window(), windowSerializer, descriptor);
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException("Cannot get window state '" + descriptor.getName() + "': " + e, e);
            }
        }

        @Override
        public <T> ValueState<T> getState(ValueStateDescriptor<T> d) {
            return windowState(d);
        }

        @Override
        public <T> ListState<T> getListState(ListStateDescriptor<T> d) {
            return windowState(d);
        }

        @Override
        public <T> ReducingState<T> getReducingState(ReducingStateDescriptor<T> d) {
            return windowState(d);
        }

        @Override
        public <I, A, O> AggregatingState<I, O> getAggregatingState(AggregatingStateDescriptor<I, A, O> d) {
            return windowState(d);
        }

        @Override
        public <UK, UV> MapState<UK, UV> getMapState(MapStateDescriptor<UK, UV> d) {
            return windowState(d);
        }
    }

    /** What window functions see. */
    private final class WindowContext extends WindowScopedState implements InternalWindowFunction.InternalWindowContext {
        private W window;

        @Override
        W window() {
            return window;
        }

        @Override
        public long currentProcessingTime() {
            return timers.currentProcessingTime();
        }

        @Override
        public long currentWatermark() {
            return timers.currentWatermark();
        }

        @Override
        public KeyedStateStore windowState() {
            return this;
        }

        @Override
        public KeyedStateStore globalState() {
            return new KeyedStateStore() {
                @Override
                public <T> ValueState<T> getState(ValueStateDescriptor<T> d) {
                    return getRuntimeContext().getState(d);
                }

                @Override
                public <T> ListState<T> getListState(ListStateDescriptor<T> d) {
                    return getRuntimeContext().getListState(d);
                }

                @Override
                public <T> ReducingState<T> getReducingState(ReducingStateDescriptor<T> d) {
                    return getRuntimeContext().getReducingState(d);
                }

                @Override
                public <I, A, O> AggregatingState<I, O> getAggregatingState(AggregatingStateDescriptor<I, A, O> d) {
                    return getRuntimeContext().getAggregatingState(d);
                }

                @Override
                public <UK, UV> MapState<UK, UV> getMapState(MapStateDescriptor<UK, UV> d) {
                    return getRuntimeContext().getMapState(d);
                }
            };
        }

        @Override
        public <X> void output(OutputTag<X> outputTag, X value) {
            output.collect(outputTag, new StreamRecord<>(value, window.maxTimestamp()));
        }
    }

    /** What triggers see: the current key and window, timers, trigger state. */
    private final class TriggerContextImpl extends WindowScopedState implements Trigger.OnMergeContext {
        private Object key;
        private W window;
        private Collection<W> mergedWindows;

        @Override
        W window() {
            return window;
        }

        @Override
        public long getCurrentProcessingTime() {
            return timers.currentProcessingTime();
        }

        @Override
        public MetricGroup getMetricGroup() {
            return getRuntimeContext().getMetricGroup();
        }

        @Override
        public long getCurrentWatermark() {
            return timers.currentWatermark();
        }

        @Override
        public void registerProcessingTimeTimer(long time) {
            timers.registerProcessingTimeTimer(window, time);
        }

        @Override
        public void registerEventTimeTimer(long time) {
            timers.registerEventTimeTimer(window, time);
        }

        @Override
        public void deleteProcessingTimeTimer(long time) {
            timers.deleteProcessingTimeTimer(window, time);
        }

        @Override
        public void deleteEventTimeTimer(long time) {
            timers.deleteEventTimeTimer(window, time);
        }

        @Override
        public <S extends State> S getPartitionedState(StateDescriptor<S, ?> stateDescriptor) {
            return windowState(stateDescriptor);
        }

        @Override
        @SuppressWarnings("unchecked")
        public <S extends MergingState<?, ?>> void mergePartitionedState(StateDescriptor<S, ?> stateDescriptor) {
            if (mergedWindows == null || mergedWindows.isEmpty()) {
                return;
            }
            try {
                S state = getOrCreateKeyedState(windowSerializer, stateDescriptor);
                if (!(state instanceof InternalMergingState<?, ?, ?, ?, ?>)) {
                    throw new IllegalArgumentException("Trigger state '" + stateDescriptor.getName()
                            + "' cannot be merged: use a list, reducing or aggregating state.");
                }
                ((InternalMergingState<K, W, ?, ?, ?>) state).mergeNamespaces(window, mergedWindows);
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException("Cannot merge trigger state '" + stateDescriptor.getName() + "': " + e, e);
            }
        }

        @SuppressWarnings("unchecked")
        TriggerResult onElement(StreamRecord<IN> element) throws Exception {
            return ((Trigger<IN, W>) trigger).onElement(element.getValue(), element.getTimestamp(), window, this);
        }

        @SuppressWarnings("unchecked")
        TriggerResult onEventTime(long time) throws Exception {
            return ((Trigger<IN, W>) trigger).onEventTime(time, window, this);
        }

        @SuppressWarnings("unchecked")
        TriggerResult onProcessingTime(long time) throws Exception {
            return ((Trigger<IN, W>) trigger).onProcessingTime(time, window, this);
        }

        @SuppressWarnings("unchecked")
        void onMerge(Collection<W> merged) throws Exception {
            this.mergedWindows = merged;
            ((Trigger<IN, W>) trigger).onMerge(window, this);
            this.mergedWindows = null;
        }

        @SuppressWarnings("unchecked")
        void clear() throws Exception {
            ((Trigger<IN, W>) trigger).clear(window, this);
        }
    }
}
