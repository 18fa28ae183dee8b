package dev.runnel.streaming.runtime.operators.windowing;

import dev.runnel.api.common.state.AppendingState;
import dev.runnel.api.common.state.ListStateDescriptor;
import dev.runnel.api.common.state.StateDescriptor;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.metrics.MetricGroup;
import dev.runnel.runtime.state.internal.InternalListState;
import dev.runnel.streaming.api.windowing.assigners.WindowAssigner;
import dev.runnel.streaming.api.windowing.evictors.Evictor;
import dev.runnel.streaming.api.windowing.triggers.Trigger;
import dev.runnel.streaming.api.windowing.windows.Window;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;
import dev.runnel.util.OutputTag;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link WindowOperator} whose windows keep every element with its timestamp, so that an
 * {@link Evictor} can remove elements when the window fires: before the window function sees them
 * and after it has. What remains is written back and is there when the window fires again. Windows,
 * triggers, lateness and cleanup behave as in the window operator; only the contents differ. A
 * window that is empty when it fires is not evaluated; one that the evictor empties before the
 * function is evaluated with no elements, as in Flink.
 *
 * @param <K> key type
 * @param <IN> record type
 * @param <OUT> output type
 * @param <W> window type
 */
public class EvictingWindowOperator<K, IN, OUT, W extends Window> extends WindowOperator<K, IN, Iterable<IN>, OUT, W> {

    private static final long serialVersionUID = 1L;

    private final Evictor<? super IN, ? super W> evictor;

    private transient InternalListState<K, W, TimestampedValue<IN>> contents;
    private transient Evictor.EvictorContext evictorContext;

    public EvictingWindowOperator(WindowAssigner<? super IN, W> windowAssigner, TypeSerializer<W> windowSerializer,
            TypeSerializer<IN> elementSerializer, InternalWindowFunction<Iterable<IN>, OUT, K, W> windowFunction,
            Trigger<? super IN, ? super W> trigger, Evictor<? super IN, ? super W> evictor, long allowedLateness,
            OutputTag<IN> lateDataOutputTag) {
        super(windowAssigner, windowSerializer, contentsDescriptor(elementSerializer), windowFunction, trigger,
                allowedLateness, lateDataOutputTag);
        this.evictor = java.util.Objects.requireNonNull(evictor, "evictor");
    }

    /**
     * The window state holds timestamped elements rather than elements: the window operator only
     * adds to, clears and merges it through the hooks this class overrides, so the cast is safe.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static <IN> StateDescriptor<? extends AppendingState<IN, Iterable<IN>>, ?> contentsDescriptor(
            TypeSerializer<IN> elementSerializer) {
        return (StateDescriptor) new ListStateDescriptor<>("window-contents",
                new TimestampedValue.Serializer<>(elementSerializer));
    }

    @Override
    @SuppressWarnings("unchecked")
    public void open() throws Exception {
        super.open();
        contents = (InternalListState<K, W, TimestampedValue<IN>>) windowState();
        evictorContext = new EvictorContextImpl();
    }

    @Override
    protected void addToWindowState(StreamRecord<IN> element) throws Exception {
        contents.add(TimestampedValue.from(element));
    }

    @Override
    @SuppressWarnings("unchecked")
    protected void emitWindowContents(W window) throws Exception {
        List<TimestampedValue<IN>> elements = new ArrayList<>();
        contents.get().forEach(elements::add);
        if (elements.isEmpty()) {
            return;
        }
        Evictor<IN, W> typedEvictor = (Evictor<IN, W>) evictor;
        typedEvictor.evictBefore(elements, elements.size(), window, evictorContext);
        processWindow(window, () -> elements.stream().map(TimestampedValue::getValue).iterator());
        typedEvictor.evictAfter(elements, elements.size(), window, evictorContext);
        contents.update(elements);
    }

    /** What evictors see. */
    private final class EvictorContextImpl implements Evictor.EvictorContext {
        @Override
        public long getCurrentProcessingTime() {
            return windowTimers().currentProcessingTime();
        }

        @Override
        public MetricGroup getMetricGroup() {
            return getRuntimeContext().getMetricGroup();
        }

        @Override
        public long getCurrentWatermark() {
            return windowTimers().currentWatermark();
        }
    }
}
