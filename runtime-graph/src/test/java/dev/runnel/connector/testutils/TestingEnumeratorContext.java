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

/** Records what an enumerator assigns; every subtask below the parallelism counts as registered. */
public final class TestingEnumeratorContext<SplitT extends SourceSplit> implements SplitEnumeratorContext<SplitT> {

    private final int parallelism;
    private final Map<Integer, List<SplitT>> assigned = new LinkedHashMap<>();
    private final Set<Integer> noMoreSplits = new HashSet<>();

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
