package dev.runnel.streaming.api.operators.async;

import java.util.ArrayDeque;

/** Emits elements strictly in the order they were added: a done element waits for all before it. Task thread only. */
final class OrderedStreamElementQueue implements StreamElementQueue {

    private final ArrayDeque<Entry> entries = new ArrayDeque<>();
    private final int capacity;

    OrderedStreamElementQueue(int capacity) {
        this.capacity = capacity;
    }

    @Override
    public void add(Entry entry) {
        entries.add(entry);
    }

    @Override
    public void completed(Entry entry) {}

    @Override
    public void emitCompleted() {
        while (!entries.isEmpty() && entries.peek().isDone()) {
            entries.poll().emit();
        }
    }

    @Override
    public int size() {
        return entries.size();
    }

    @Override
    public boolean hasRoom() {
        return entries.size() < capacity;
    }
}
