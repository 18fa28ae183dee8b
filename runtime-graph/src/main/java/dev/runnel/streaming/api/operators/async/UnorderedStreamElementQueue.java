package dev.runnel.streaming.api.operators.async;

import java.util.ArrayDeque;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Emits records as they complete, but never across a watermark: the records between two watermarks form
 * a segment, a segment's records go out only once every earlier segment and its closing watermark have,
 * and a watermark goes out only after every record added before it. Task thread only.
 */
final class UnorderedStreamElementQueue implements StreamElementQueue {

    /** The records between two watermarks, and the watermark that closes them (null while open). */
    private static final class Segment {
        final Set<Entry> pending = Collections.newSetFromMap(new IdentityHashMap<>());
        final ArrayDeque<Entry> done = new ArrayDeque<>();
        Entry watermark;
    }

    private final ArrayDeque<Segment> segments = new ArrayDeque<>();
    private final Map<Entry, Segment> segmentOf = new IdentityHashMap<>();
    private final int capacity;
    private int size;

    UnorderedStreamElementQueue(int capacity) {
        this.capacity = capacity;
    }

    @Override
    public void add(Entry entry) {
        Segment open = openSegment();
        if (entry.isWatermark()) {
            open.watermark = entry;
        } else {
            open.pending.add(entry);
            segmentOf.put(entry, open);
        }
        size++;
    }

    private Segment openSegment() {
        Segment last = segments.peekLast();
        if (last == null || last.watermark != null) {
            last = new Segment();
            segments.add(last);
        }
        return last;
    }

    @Override
    public void completed(Entry entry) {
        Segment segment = segmentOf.remove(entry);
        if (segment != null && segment.pending.remove(entry)) {
            segment.done.add(entry);
        }
    }

    @Override
    public void emitCompleted() {
        Segment head;
        while ((head = segments.peekFirst()) != null) {
            Entry entry;
            while ((entry = head.done.poll()) != null) {
                size--;
                entry.emit();
            }
            if (!head.pending.isEmpty() || head.watermark == null) {
                return;
            }
            segments.pollFirst();
            size--;
            head.watermark.emit();
        }
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public boolean hasRoom() {
        return size < capacity;
    }
}
