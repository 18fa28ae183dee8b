package dev.runnel.runtime.state.heap;

import java.util.Collection;

/**
 * Heap state whose values of several namespaces can be merged (list, reducing, aggregating).
 *
 * @param <K> the key type
 * @param <N> the namespace type
 * @param <SV> the stored value type
 */
abstract class AbstractHeapMergingState<K, N, SV> extends AbstractHeapState<K, N, SV> {

    AbstractHeapMergingState(StateTable<K, N, SV> table, N defaultNamespace) {
        super(table, defaultNamespace);
    }

    /**
     * Combines two stored values into one (may reuse {@code a}); a null result means "no value",
     * which TTL-wrapped merges return when both sides expired.
     */
    abstract SV mergeState(SV a, SV b) throws Exception;

    /** Merges the current key's values of {@code sources} into {@code target}; see the interface contract. */
    public final void mergeNamespaces(N target, Collection<N> sources) throws Exception {
        if (sources == null || sources.isEmpty()) {
            return;
        }
        SV merged = null;
        for (N source : sources) {
            // removing first also handles a target that is among the sources
            SV value = table.remove(source, source.hashCode());
            if (value != null) {
                merged = merged == null ? value : mergeState(merged, value);
            }
        }
        if (merged != null) {
            int targetHash = target.hashCode();
            SV existing = table.get(target, targetHash);
            SV result = existing == null ? merged : mergeState(existing, merged);
            if (result == null) {
                table.remove(target, targetHash);
            } else {
                table.put(target, targetHash, result);
            }
        }
    }
}
