package dev.runnel.runtime.state.ttl;

import dev.runnel.api.common.state.StateTtlConfig;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.runtime.state.TtlTimeProvider;
import dev.runnel.runtime.state.internal.InternalListState;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

/**
 * {@link dev.runnel.api.common.state.ListState} with a time-to-live per element, over a raw list state
 * of {@link TtlValue}s. Reading drops expired elements from the store (returning them that one time
 * with {@code ReturnExpiredIfNotCleanedUp}); with {@code OnReadAndWrite} it also restarts the clock of
 * the elements read. {@link #get()} returns a new list of the user values.
 *
 * <p>Task thread only. Null elements are rejected.
 */
public final class TtlListState<K, N, T>
        extends AbstractTtlState<K, N, List<T>, InternalListState<K, N, TtlValue<T>>>
        implements InternalListState<K, N, T> {

    public TtlListState(InternalListState<K, N, TtlValue<T>> raw, StateTtlConfig config,
            TtlTimeProvider timeProvider, TypeSerializer<List<T>> userValueSerializer) {
        super(raw, config, timeProvider, userValueSerializer);
    }

    @Override
    public Iterable<T> get() throws Exception {
        List<T> values = read();
        return values == null ? Collections.emptyList() : values;
    }

    @Override
    public void add(T value) throws Exception {
        raw.add(new TtlValue<>(checkElement(value), now()));
    }

    @Override
    public void addAll(List<T> values) throws Exception {
        raw.addAll(wrap(values));
    }

    @Override
    public void update(List<T> values) throws Exception {
        raw.update(wrap(values));
    }

    @Override
    public List<T> getInternal() throws Exception {
        return read();
    }

    @Override
    public void updateInternal(List<T> valueToStore) throws Exception {
        raw.updateInternal(valueToStore == null ? null : wrap(valueToStore));
    }

    @Override
    public void mergeNamespaces(N target, Collection<N> sources) throws Exception {
        // merging concatenates the TtlValues; expired ones are dropped on the next read
        raw.mergeNamespaces(target, sources);
    }

    /** The unexpired user values (plus expired ones if they may be returned once), or null if none. */
    private List<T> read() throws Exception {
        List<TtlValue<T>> stored = raw.getInternal();
        if (stored == null || stored.isEmpty()) {
            return null;
        }
        long now = now();
        int n = stored.size();
        List<T> result = new ArrayList<>(n);
        List<TtlValue<T>> kept = null;
        for (int i = 0; i < n; i++) {
            TtlValue<T> element = stored.get(i);
            boolean isExpired = expired(element, now);
            if (isExpired || updateOnRead) {
                if (kept == null) {
                    kept = new ArrayList<>(stored.subList(0, i));
                }
                if (!isExpired) {
                    kept.add(new TtlValue<>(element.getUserValue(), now));
                }
            } else if (kept != null) {
                kept.add(element);
            }
            if (!isExpired || returnExpired) {
                result.add(element.getUserValue());
            }
        }
        if (kept != null) {
            raw.updateInternal(kept.isEmpty() ? null : kept);
        }
        return result.isEmpty() ? null : result;
    }

    private List<TtlValue<T>> wrap(List<T> values) {
        if (values == null) {
            throw new NullPointerException("the list of values must not be null; use clear() or an empty list"
                    + " to remove all values");
        }
        long now = now();
        List<TtlValue<T>> wrapped = new ArrayList<>(values.size());
        for (T value : values) {
            wrapped.add(new TtlValue<>(checkElement(value), now));
        }
        return wrapped;
    }

    private static <T> T checkElement(T value) {
        if (value == null) {
            throw new NullPointerException("list state cannot hold null: filter out null values before adding them");
        }
        return value;
    }
}
