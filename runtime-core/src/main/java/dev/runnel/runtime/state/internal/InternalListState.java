package dev.runnel.runtime.state.internal;

import dev.runnel.api.common.state.ListState;
import java.util.List;

/** Internal form of {@link ListState}. */
public interface InternalListState<K, N, T>
        extends InternalMergingState<K, N, T, List<T>, Iterable<T>>, ListState<T> {}
