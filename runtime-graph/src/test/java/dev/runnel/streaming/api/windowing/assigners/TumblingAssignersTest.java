package dev.runnel.streaming.api.windowing.assigners;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.streaming.api.windowing.windows.TimeWindow;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The tumbling assigners hand out one window object per window, not per record (see {@link RecentWindows}), and
 * still the right window for every timestamp, whatever order the records come in.
 */
@Timeout(60)
class TumblingAssignersTest {

    private static final WindowAssigner.WindowAssignerContext NO_CONTEXT = new WindowAssigner.WindowAssignerContext() {
        @Override
        public long getCurrentProcessingTime() {
            return 0;
        }
    };

    @Test
    void recordsOfOneWindowShareItsObjectAndOthersGetTheirOwn() {
        TumblingEventTimeWindows assigner = TumblingEventTimeWindows.of(Duration.ofMillis(1000));
        Collection<TimeWindow> first = assigner.assignWindows("a", 1_001, NO_CONTEXT);
        Collection<TimeWindow> second = assigner.assignWindows("b", 1_999, NO_CONTEXT);
        assertThat(second).isSameAs(first).containsExactly(new TimeWindow(1_000, 2_000));

        Collection<TimeWindow> next = assigner.assignWindows("c", 2_000, NO_CONTEXT);
        assertThat(next).containsExactly(new TimeWindow(2_000, 3_000));
        Collection<TimeWindow> late = assigner.assignWindows("d", 1_500, NO_CONTEXT);
        assertThat(late).containsExactly(new TimeWindow(1_000, 2_000));
        assertThat(assigner.assignWindows("e", -1, NO_CONTEXT)).containsExactly(new TimeWindow(-1_000, 0));
    }

    @Test
    void anOffsetIsKeptAndTheListCannotBeChanged() {
        TumblingEventTimeWindows assigner = TumblingEventTimeWindows.of(Duration.ofMillis(1000), Duration.ofMillis(250));
        Collection<TimeWindow> windows = assigner.assignWindows("a", 1_100, NO_CONTEXT);
        assertThat(windows).containsExactly(new TimeWindow(250, 1_250));
        assertThat(assigner.assignWindows("b", 1_250, NO_CONTEXT)).containsExactly(new TimeWindow(1_250, 2_250));
        assertThatThrownBy(() -> windows.add(new TimeWindow(0, 1))).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void processingTimeWindowsFollowTheClock() {
        TumblingProcessingTimeWindows assigner = TumblingProcessingTimeWindows.of(Duration.ofMillis(100));
        long[] now = {1_050};
        WindowAssigner.WindowAssignerContext clock = new WindowAssigner.WindowAssignerContext() {
            @Override
            public long getCurrentProcessingTime() {
                return now[0];
            }
        };
        Collection<TimeWindow> first = assigner.assignWindows("a", 0, clock);
        assertThat(assigner.assignWindows("b", 0, clock)).isSameAs(first).containsExactly(new TimeWindow(1_000, 1_100));
        now[0] = 1_100;
        assertThat(assigner.assignWindows("c", 0, clock)).containsExactly(new TimeWindow(1_100, 1_200));
    }

    @Test
    void threadsSharingAnAssignerEachGetTheirRecordsWindow() throws Exception {
        TumblingEventTimeWindows assigner = TumblingEventTimeWindows.of(Duration.ofMillis(10));
        List<Throwable> failures = new ArrayList<>();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int phase = t * 7;
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                    for (long ts = phase; ts < 200_000; ts += 3) {
                        TimeWindow window = assigner.assignWindows("x", ts, NO_CONTEXT).iterator().next();
                        if (window.getStart() != ts - ts % 10 || window.getEnd() != window.getStart() + 10) {
                            throw new AssertionError("timestamp " + ts + " got " + window);
                        }
                    }
                } catch (Throwable e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                }
            });
            thread.start();
            threads.add(thread);
        }
        start.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        assertThat(failures).isEmpty();
    }
}
