package dev.runnel.connector.testutils;

import dev.runnel.api.connector.source.SourceSplit;
import dev.runnel.api.connector.source.SplitEnumeratorContext;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.function.BiConsumer;

/** Records what an enumerator assigns; every subtask below the parallelism counts as registered. */
public final class TestingEnumeratorContext<SplitT extends SourceSplit> implements SplitEnumeratorContext<SplitT> {

    private final int parallelism;
    private final Map<Integer, List<SplitT>> assigned = new LinkedHashMap<>();
    private final Set<Integer> noMoreSplits = new HashSet<>();
    private final List<Runnable> scheduled = new ArrayList<>();

    public TestingEnumeratorContext(int parallelism) {
        this.parallelism = parallelism;
    }

    @Override
    public int currentParallelism() {
        return parallelism;
    }

    @Override
    public Set<Integer> registeredReaders() {
        Set<Integer> all = new TreeSet<>();
        for (int i = 0; i < parallelism; i++) {
            all.add(i);
        }
        return all;
    }

    @Override
    public void assignSplit(SplitT split, int subtask) {
        assigned.computeIfAbsent(subtask, s -> new ArrayList<>()).add(split);
    }

    @Override
    public void signalNoMoreSplits(int subtask) {
        noMoreSplits.add(subtask);
    }

    /**
     * Records the call; {@link #runScheduledCalls()} runs it (the callable, then the handler), as the
     * runtime would on its coordinator thread at each period.
     */
    @Override
    public <T> void callAsync(Callable<T> callable, BiConsumer<T, Throwable> handler, long initialDelayMillis,
            long periodMillis) {
        scheduled.add(() -> {
            T result;
            try {
                result = callable.call();
            } catch (Throwable t) {
                handler.accept(null, t);
                return;
            }
            handler.accept(result, null);
        });
    }

    /** Runs every call scheduled with {@link #callAsync} once, in the order they were scheduled. */
    public void runScheduledCalls() {
        new ArrayList<>(scheduled).forEach(Runnable::run);
    }

    public List<SplitT> assignedTo(int subtask) {
        return assigned.getOrDefault(subtask, List.of());
    }

    public List<SplitT> allAssigned() {
        List<SplitT> all = new ArrayList<>();
        assigned.values().forEach(all::addAll);
        return all;
    }

    public boolean noMoreSplitsSignalled(int subtask) {
        return noMoreSplits.contains(subtask);
    }
}
