package dev.runnel.runtime.state.ttl;

import dev.runnel.api.common.state.StateTtlConfig;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.runtime.state.TtlTimeProvider;
import dev.runnel.runtime.state.internal.InternalMapState;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * {@link dev.runnel.api.common.state.MapState} with a time-to-live per entry, over a raw map state
 * whose values are {@link TtlValue}s. Reading an entry (by key or by iterating) drops it from the
 * store if expired (returning it that one time with {@code ReturnExpiredIfNotCleanedUp}); with
 * {@code OnReadAndWrite} it restarts the clock of the entries read. Null user values are allowed.
 *
 * <p>Iteration runs over a copy of the unexpired entries taken when the iterator is created; its
 * {@code remove()} removes the entry from the state. Task thread only.
 */
public final class TtlMapState<K, N, UK, UV>
        extends AbstractTtlState<K, N, Map<UK, UV>, InternalMapState<K, N, UK, TtlValue<UV>>>
        implements InternalMapState<K, N, UK, UV> {

    public TtlMapState(InternalMapState<K, N, UK, TtlValue<UV>> raw, StateTtlConfig config,
            TtlTimeProvider timeProvider, TypeSerializer<Map<UK, UV>> userValueSerializer) {
        super(raw, config, timeProvider, userValueSerializer);
    }

    @Override
    public UV get(UK key) throws Exception {
        TtlValue<UV> stored = readEntry(key);
        return stored == null ? null : stored.getUserValue();
    }

    @Override
    public boolean contains(UK key) throws Exception {
        return readEntry(key) != null;
    }

    /** The entry of {@code key} after the expiry check, or null if absent or expired and not returnable. */
    private TtlValue<UV> readEntry(UK key) throws Exception {
        TtlValue<UV> stored = raw.get(key);
        if (stored == null) {
            return null;
        }
        long now = now();
        if (expired(stored, now)) {
            raw.remove(key);
            return returnExpired ? stored : null;
        }
        if (updateOnRead) {
            raw.put(key, new TtlValue<>(stored.getUserValue(), now));
        }
        return stored;
    }

    @Override
    public void put(UK key, UV value) throws Exception {
        raw.put(key, new TtlValue<>(value, now()));
    }

    @Override
    public void putAll(Map<UK, UV> values) throws Exception {
        if (values == null || values.isEmpty()) {
            return;
        }
        long now = now();
        Map<UK, TtlValue<UV>> wrapped = new HashMap<>(values.size() * 2);
        for (Map.Entry<UK, UV> e : values.entrySet()) {
            wrapped.put(e.getKey(), new TtlValue<>(e.getValue(), now));
        }
        raw.putAll(wrapped);
    }

    @Override
    public void remove(UK key) throws Exception {
        raw.remove(key);
    }

    @Override
    public Iterable<Map.Entry<UK, UV>> entries() {
        return this::iterator;
    }

    @Override
    public Iterable<UK> keys() {
        return () -> {
            Iterator<Map.Entry<UK, UV>> entries = iterator();
            return new Iterator<>() {
                @Override
                public boolean hasNext() {
                    return entries.hasNext();
                }

                @Override
                public UK next() {
                    return entries.next().getKey();
                }

                @Override
                public void remove() {
                    entries.remove();
                }
            };
        };
    }

    @Override
    public Iterable<UV> values() {
        return () -> {
            Iterator<Map.Entry<UK, UV>> entries = iterator();
            return new Iterator<>() {
                @Override
                public boolean hasNext() {
                    return entries.hasNext();
                }

                @Override
                public UV next() {
                    return entries.next().getValue();
                }

                @Override
                public void remove() {
                    entries.remove();
                }
            };
        };
    }

    @Override
    public Iterator<Map.Entry<UK, UV>> iterator() {
        List<Map.Entry<UK, UV>> visible = readAll();
        return new Iterator<>() {
            private int next;
            private UK last;
            private boolean canRemove;

            @Override
            public boolean hasNext() {
                return next < visible.size();
            }

            @Override
            public Map.Entry<UK, UV> next() {
                if (next >= visible.size()) {
                    throw new NoSuchElementException();
                }
                Map.Entry<UK, UV> e = visible.get(next++);
                last = e.getKey();
                canRemove = true;
                return e;
            }

            @Override
            public void remove() {
                if (!canRemove) {
                    throw new IllegalStateException("next() was not called, or remove() was called twice");
                }
                canRemove = false;
                try {
                    raw.remove(last);
                } catch (Exception e) {
                    throw new IllegalStateException("could not remove map entry " + last, e);
                }
            }
        };
    }

    @Override
    public boolean isEmpty() {
        return readAll().isEmpty();
    }

    /** The visible entries, dropping expired ones from the store and refreshing the rest if configured. */
    private List<Map.Entry<UK, UV>> readAll() {
        try {
            long now = now();
            List<Map.Entry<UK, UV>> visible = new ArrayList<>();
            List<UK> expiredKeys = null;
            List<Map.Entry<UK, TtlValue<UV>>> refreshed = null;
            for (Map.Entry<UK, TtlValue<UV>> e : raw.entries()) {
                TtlValue<UV> stored = e.getValue();
                boolean isExpired = expired(stored, now);
                if (isExpired) {
                    if (expiredKeys == null) {
                        expiredKeys = new ArrayList<>();
                    }
                    expiredKeys.add(e.getKey());
                } else if (updateOnRead) {
                    if (refreshed == null) {
                        refreshed = new ArrayList<>();
                    }
                    refreshed.add(new AbstractMap.SimpleImmutableEntry<>(
                            e.getKey(), new TtlValue<>(stored.getUserValue(), now)));
                }
                if (!isExpired || returnExpired) {
                    visible.add(new AbstractMap.SimpleImmutableEntry<>(e.getKey(), stored.getUserValue()));
                }
            }
            // change the store only after iterating it
            if (expiredKeys != null) {
                for (UK key : expiredKeys) {
                    raw.remove(key);
                }
            }
            if (refreshed != null) {
                for (Map.Entry<UK, TtlValue<UV>> e : refreshed) {
                    raw.put(e.getKey(), e.getValue());
                }
            }
            return visible;
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("could not read map state " + raw, e);
        }
    }
}
