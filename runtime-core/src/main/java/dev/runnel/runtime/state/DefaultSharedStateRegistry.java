package dev.runnel.runtime.state;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link SharedStateRegistry} of one job, in memory: for each key the handle registered first and the
 * highest checkpoint id that used it.
 *
 * <pre>
 *   register(k, h1, 5)   → h1          k: h1, last used 5
 *   register(k, h1, 6)   → h1          k: h1, last used 6
 *   register(k, h2, 7)   → h1          h2 deleted (a second upload of the same piece); k: h1, last used 7
 *   unregisterUnusedState(8)           k deleted: last used 7 &lt; 8
 * </pre>
 *
 * <p>Thread-safe: bookkeeping happens under one lock, deleting files outside it, so a slow file system does
 * not hold up registrations. A deletion that fails is logged with the file and not retried: the file is
 * then left over, never deleted while a checkpoint might use it. After {@link #close()} nothing is deleted
 * any more (registrations are still answered).
 */
public final class DefaultSharedStateRegistry implements SharedStateRegistry {

    private static final Logger LOG = LoggerFactory.getLogger(DefaultSharedStateRegistry.class);

    private static final class Entry {
        final StreamStateHandle handle;
        long lastUsedCheckpointId;

        Entry(StreamStateHandle handle, long lastUsedCheckpointId) {
            this.handle = handle;
            this.lastUsedCheckpointId = lastUsedCheckpointId;
        }
    }

    private final Object lock = new Object();
    private final Map<SharedStateRegistryKey, Entry> entries = new HashMap<>();
    private boolean closed;

    @Override
    public StreamStateHandle registerReference(SharedStateRegistryKey key, StreamStateHandle handle,
            long checkpointId) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(handle, "handle");
        StreamStateHandle kept;
        boolean deleteNewcomer;
        synchronized (lock) {
            Entry entry = entries.get(key);
            if (entry == null) {
                entries.put(key, new Entry(handle, checkpointId));
                return handle;
            }
            entry.lastUsedCheckpointId = Math.max(entry.lastUsedCheckpointId, checkpointId);
            kept = entry.handle;
            deleteNewcomer = !closed && kept != handle && !kept.equals(handle);
        }
        if (deleteNewcomer) {
            LOG.debug("Shared state {} registered again by checkpoint {} with another copy; deleting the copy {}"
                    + " and keeping {}", key, checkpointId, handle.describe(), kept.describe());
            discard(handle);
        }
        return kept;
    }

    @Override
    public StreamStateHandle getRegisteredHandle(SharedStateRegistryKey key) {
        synchronized (lock) {
            Entry entry = entries.get(key);
            return entry == null ? null : entry.handle;
        }
    }

    @Override
    public void unregisterUnusedState(long lowestRetainedCheckpointId) {
        List<StreamStateHandle> unused = new ArrayList<>();
        synchronized (lock) {
            if (closed) {
                return;
            }
            for (Iterator<Entry> it = entries.values().iterator(); it.hasNext(); ) {
                Entry entry = it.next();
                if (entry.lastUsedCheckpointId < lowestRetainedCheckpointId) {
                    unused.add(entry.handle);
                    it.remove();
                }
            }
        }
        for (StreamStateHandle handle : unused) {
            discard(handle);
        }
    }

    /** The number of registered pieces (for tests and metrics). */
    public int size() {
        synchronized (lock) {
            return entries.size();
        }
    }

    @Override
    public void close() {
        synchronized (lock) {
            closed = true;
        }
    }

    private static void discard(StreamStateHandle handle) {
        try {
            handle.discardState();
        } catch (IOException | RuntimeException e) {
            LOG.warn("Could not delete shared checkpoint state {}; it is left over and may be deleted by hand"
                    + " once no checkpoint of the job refers to it", handle.describe(), e);
        }
    }

    @Override
    public String toString() {
        synchronized (lock) {
            return "DefaultSharedStateRegistry{" + entries.size() + " entries" + (closed ? ", closed" : "") + '}';
        }
    }
}
