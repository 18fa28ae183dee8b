package dev.runnel.streaming.api.windowing.windows;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.core.memory.DataInputView;
import dev.runnel.core.memory.DataOutputView;
import dev.runnel.util.MathUtils;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * The time interval {@code [start, end)}; its max timestamp is {@code end - 1}. Immutable.
 */
public final class TimeWindow extends Window {

    private final long start;
    private final long end;

    public TimeWindow(long start, long end) {
        this.start = start;
        this.end = end;
    }

    public long getStart() {
        return start;
    }

    public long getEnd() {
        return end;
    }

    @Override
    public long maxTimestamp() {
        return end - 1;
    }

    /** Whether the two windows overlap or touch. */
    public boolean intersects(TimeWindow other) {
        return this.start <= other.end && this.end >= other.start;
    }

    /** The smallest window containing both. */
    public TimeWindow cover(TimeWindow other) {
        return new TimeWindow(Math.min(start, other.start), Math.max(end, other.end));
    }

    /**
     * The start of the window of size {@code windowSize} (shifted by {@code offset}) that
     * {@code timestamp} falls in; correct for negative timestamps too.
     */
    public static long getWindowStartWithOffset(long timestamp, long offset, long windowSize) {
        long remainder = (timestamp - offset) % windowSize;
        return remainder < 0 ? timestamp - (remainder + windowSize) : timestamp - remainder;
    }

    /**
     * Merges overlapping windows of {@code windows} and reports each merge of two or more windows to
     * {@code callback}, as session windows need.
     */
    public static void mergeWindows(Collection<TimeWindow> windows,
            dev.runnel.streaming.api.windowing.assigners.MergingWindowAssigner.MergeCallback<TimeWindow> callback) {
        List<TimeWindow> sorted = new ArrayList<>(windows);
        sorted.sort(Comparator.comparingLong(TimeWindow::getStart));
        List<TimeWindow> mergedGroupWindows = new ArrayList<>();
        TimeWindow current = null;
        Set<TimeWindow> group = new java.util.LinkedHashSet<>();
        List<Set<TimeWindow>> groups = new ArrayList<>();
        for (TimeWindow candidate : sorted) {
            if (current == null) {
                current = candidate;
                group.add(candidate);
            } else if (current.intersects(candidate)) {
                current = current.cover(candidate);
                group.add(candidate);
            } else {
                mergedGroupWindows.add(current);
                groups.add(group);
                current = candidate;
                group = new java.util.LinkedHashSet<>();
                group.add(candidate);
            }
        }
        if (current != null) {
            mergedGroupWindows.add(current);
            groups.add(group);
        }
        for (int i = 0; i < groups.size(); i++) {
            if (groups.get(i).size() > 1) {
                callback.merge(groups.get(i), mergedGroupWindows.get(i));
            }
        }
    }

    @Override
    public boolean equals(Object o) {
        return this == o || (o instanceof TimeWindow other && start == other.start && end == other.end);
    }

    @Override
    public int hashCode() {
        return MathUtils.fmix((int) (start + end) ^ (int) ((start + end) >>> 32));
    }

    @Override
    public String toString() {
        return "TimeWindow{start=" + start + ", end=" + end + '}';
    }

    /** Serializes a window as its start and end. Stateless singleton. */
    public static final class Serializer extends TypeSerializer<TimeWindow> {
        private static final long serialVersionUID = 1L;

        public static final Serializer INSTANCE = new Serializer();

        @Override
        public boolean isImmutableType() {
            return true;
        }

        @Override
        public TimeWindow createInstance() {
            return null;
        }

        @Override
        public TimeWindow copy(TimeWindow from) {
            return from;
        }

        @Override
        public int getLength() {
            return 16;
        }

        @Override
        public void serialize(TimeWindow record, DataOutputView target) throws IOException {
            target.writeLong(record.start);
            target.writeLong(record.end);
        }

        @Override
        public TimeWindow deserialize(DataInputView source) throws IOException {
            return new TimeWindow(source.readLong(), source.readLong());
        }

        @Override
        public boolean equals(Object obj) {
            return obj instanceof Serializer;
        }

        @Override
        public int hashCode() {
            return Serializer.class.hashCode();
        }
    }
}
