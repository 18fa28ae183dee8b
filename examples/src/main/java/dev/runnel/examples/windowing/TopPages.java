package dev.runnel.examples.windowing;

import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.api.common.functions.AggregateFunction;
import dev.runnel.api.common.functions.OpenContext;
import dev.runnel.api.common.state.ListState;
import dev.runnel.api.common.state.ListStateDescriptor;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.streaming.api.datastream.DataStream;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.KeyedProcessFunction;
import dev.runnel.streaming.api.functions.windowing.ProcessWindowFunction;
import dev.runnel.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import dev.runnel.streaming.api.windowing.windows.TimeWindow;
import dev.runnel.util.Collector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The most viewed pages of every ten-second window of event time: views are counted per page and
 * window with an incremental aggregate, then the counts of each window are gathered per window and
 * ranked when the watermark passes the window's end.
 */
public final class TopPages {

    public static final Duration WINDOW = Duration.ofSeconds(10);

    private TopPages() {}

    /** A page view at an event time (ms). */
    public record PageView(String page, long timestamp) {}

    /** The views of one page in one window. */
    public record PageCount(String page, long windowEnd, long views) {}

    /** The ranking of one window: pages with their views, most viewed first. */
    public record Ranking(long windowEnd, List<PageCount> top) {}

    public static void main(String[] args) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        top(env.fromCollection(views(20_000, 7)), 3).print().name("rankings");
        env.execute("TopPages");
    }

    /** For every window, its {@code n} most viewed pages. */
    public static DataStream<Ranking> top(DataStream<PageView> views, int n) {
        return views
                .assignTimestampsAndWatermarks(WatermarkStrategy.<PageView>forBoundedOutOfOrderness(Duration.ofSeconds(2))
                        .withTimestampAssigner((v, ts) -> v.timestamp()))
                .keyBy(PageView::page, Types.STRING)
                .window(TumblingEventTimeWindows.of(WINDOW))
                .aggregate(new CountViews(), new WithWindowEnd()).name("count-views")
                .keyBy(PageCount::windowEnd, Types.LONG)
                .process(new RankWindow(n)).name("rank");
    }

    /** Random views of 30 pages with a skewed popularity, in slightly shuffled time order. */
    public static List<PageView> views(int count, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<PageView> list = new ArrayList<>(count);
        long time = 0;
        for (int i = 0; i < count; i++) {
            time += random.nextInt(20);
            int page = (int) Math.floor(Math.pow(random.nextDouble(), 2) * 30);
            long jitter = random.nextInt(1500);
            list.add(new PageView("/page/" + page, Math.max(0, time - jitter)));
        }
        return list;
    }

    static final class CountViews implements AggregateFunction<PageView, Long, Long> {
        @Override
        public Long createAccumulator() {
            return 0L;
        }

        @Override
        public Long add(PageView value, Long accumulator) {
            return accumulator + 1;
        }

        @Override
        public Long getResult(Long accumulator) {
            return accumulator;
        }

        @Override
        public Long merge(Long a, Long b) {
            return a + b;
        }
    }

    static final class WithWindowEnd extends ProcessWindowFunction<Long, PageCount, String, TimeWindow> {
        @Override
        public void process(String page, Context context, Iterable<Long> counts, Collector<PageCount> out) {
            out.collect(new PageCount(page, context.window().getEnd(), counts.iterator().next()));
        }
    }

    /** Collects the counts of one window and ranks them once the window's end has passed. */
    static final class RankWindow extends KeyedProcessFunction<Long, PageCount, Ranking> {
        private final int n;
        private transient ListState<PageCount> counts;

        RankWindow(int n) {
            this.n = n;
        }

        @Override
        public void open(OpenContext openContext) {
            counts = getRuntimeContext().getListState(new ListStateDescriptor<>("counts",
                    TypeInformation.of(PageCount.class)));
        }

        @Override
        public void processElement(PageCount count, Context ctx, Collector<Ranking> out) throws Exception {
            counts.add(count);
            // Every count of the window carries timestamp windowEnd - 1, so all are in once the
            // watermark reaches windowEnd.
            ctx.timerService().registerEventTimeTimer(count.windowEnd());
        }

        @Override
        public void onTimer(long timestamp, OnTimerContext ctx, Collector<Ranking> out) throws Exception {
            List<PageCount> all = new ArrayList<>();
            counts.get().forEach(all::add);
            all.sort(Comparator.comparingLong(PageCount::views).reversed().thenComparing(PageCount::page));
            out.collect(new Ranking(ctx.getCurrentKey(), List.copyOf(all.subList(0, Math.min(n, all.size())))));
            counts.clear();
        }
    }
}
