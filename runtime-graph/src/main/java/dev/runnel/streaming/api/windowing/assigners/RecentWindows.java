package dev.runnel.streaming.api.windowing.assigners;

import dev.runnel.streaming.api.windowing.windows.TimeWindow;
import java.util.Collections;
import java.util.List;

/**
 * The one-window lists the tumbling assigners return, reused while records keep falling into the window handed out
 * last (in time order almost all do). Every state entry and timer of a window then refers to one window object
 * instead of one per record, which the entries and timers would keep alive until the window fires: fewer objects
 * for each young collection to copy, and a window that is already in the cache when the state compares it.
 *
 * <p>The lists are immutable and their element is reached through a final field, so an assigner shared by several
 * task threads may race on the field that holds the last list: a thread sees some complete list, at worst an older
 * one, and then makes a new one.
 */
final class RecentWindows {

    private RecentWindows() {}

    /** {@code last} if it holds the window {@code [start, start + size)}, else a new list holding that window. */
    static List<TimeWindow> reuseOrCreate(List<TimeWindow> last, long start, long size) {
        if (last != null) {
            TimeWindow window = last.get(0);
            if (window.getStart() == start && window.getEnd() == start + size) {
                return last;
            }
        }
        return Collections.singletonList(new TimeWindow(start, start + size));
    }
}
