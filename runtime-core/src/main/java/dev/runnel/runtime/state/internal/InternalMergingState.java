package dev.runnel.runtime.state.internal;

import dev.runnel.api.common.state.MergingState;
import java.util.Collection;

/** Appending state whose namespaces can be merged, as session windows merge. */
public interface InternalMergingState<K, N, IN, SV, OUT>
        extends InternalAppendingState<K, N, IN, SV, OUT>, MergingState<IN, OUT> {

    /**
     * Merges the current key's entries of {@code sources} into {@code target} and clears the sources.
     * Sources without an entry are skipped; {@code target} may also be among the sources.
     */
    void mergeNamespaces(N target, Collection<N> sources) throws Exception;
}
