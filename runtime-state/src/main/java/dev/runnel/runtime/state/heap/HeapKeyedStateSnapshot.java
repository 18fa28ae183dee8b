package dev.runnel.runtime.state.heap;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.core.memory.DataOutputSerializer;
import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyGroupRangeOffsets;
import dev.runnel.runtime.state.backend.AbstractKeyedStateSnapshot;
import dev.runnel.runtime.state.snapshot.format.KeyedSnapshotWriter;
import dev.runnel.runtime.state.snapshot.format.SnapshotSection;
import dev.runnel.runtime.state.snapshot.format.StateMetaInfo;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/**
 * A heap backend's state at one moment, written out later: the state tables' entries as they shared
 * them ({@link StateTableSnapshot}, kept unchanged by copy-on-write while this snapshot's version is
 * pinned), the timer queues' elements copied at that moment (timers are immutable, so copying the
 * references suffices), and the raw sections of restored states nobody registered.
 *
 * <p>Built on the task thread by {@link HeapKeyedStateBackend#snapshotSync}; written by any one
 * thread with a codec of its own. Writing reads only what the snapshot captured and the final
 * configuration of the tables; freeing unpins the version, after which the task thread stops
 * copying entries.
 */
final class HeapKeyedStateSnapshot extends AbstractKeyedStateSnapshot {

    /** One timer queue's elements per key group of the snapshot's range, and their serializer. */
    record QueueSnapshot(TypeSerializer<?> serializer, Object[][] elementsByKeyGroup) {}

    private final int numberOfKeyGroups;
    /** The first key group of the backend's range: entries know their key group as an offset from it. */
    private final int backendFirstKeyGroup;
    /** In snapshot order: tables, then queues, then unregistered restored states. */
    private final List<StateMetaInfo> metaInfos;
    private final long ttlNow;
    private final SnapshotVersions.Pin pin;
    // not final: dropped when freed, so that a snapshot object kept around does not keep its entries
    private List<StateTableSnapshot<?, ?, ?>> tables;
    private List<QueueSnapshot> queues;
    private List<RestoredState> restored;

    HeapKeyedStateSnapshot(KeyGroupRange range, String description, int numberOfKeyGroups, int backendFirstKeyGroup,
            List<StateMetaInfo> metaInfos, List<StateTableSnapshot<?, ?, ?>> tables, List<QueueSnapshot> queues,
            List<RestoredState> restored, long ttlNow, SnapshotVersions.Pin pin) {
        super(range, description);
        this.numberOfKeyGroups = numberOfKeyGroups;
        this.backendFirstKeyGroup = backendFirstKeyGroup;
        this.metaInfos = metaInfos;
        this.tables = tables;
        this.queues = queues;
        this.restored = restored;
        this.ttlNow = ttlNow;
        this.pin = pin;
    }

    @Override
    protected KeyGroupRangeOffsets write(OutputStream out) throws IOException {
        KeyGroupRange range = getKeyGroupRange();
        KeyedSnapshotWriter writer = KeyedSnapshotWriter.start(out, range, metaInfos);
        HeapStateCodec codec = new HeapStateCodec(numberOfKeyGroups);
        for (int kg = range.getStartKeyGroup(); kg <= range.getEndKeyGroup(); kg++) {
            checkNotReleased();
            writer.startKeyGroup(kg);
            int stateIndex = 0;
            for (StateTableSnapshot<?, ?, ?> table : tables) {
                DataOutputSerializer section = writer.startSection(stateIndex++);
                writer.endSection(codec.writeKeyGroup(table, kg - backendFirstKeyGroup, section, ttlNow));
            }
            for (QueueSnapshot queue : queues) {
                DataOutputSerializer section = writer.startSection(stateIndex++);
                Object[] elements = queue.elementsByKeyGroup()[kg - range.getStartKeyGroup()];
                writer.endSection(codec.writeQueue(elements, queue.serializer(), section));
            }
            for (RestoredState state : restored) {
                SnapshotSection section = state.sections[kg - backendFirstKeyGroup];
                if (section != null) {
                    writer.writeRawSection(stateIndex, section.entryCount(), section.array(), section.offset(),
                            section.length());
                }
                stateIndex++;
            }
        }
        return writer.finish();
    }

    @Override
    protected void free() {
        pin.release();
        tables = List.of();
        queues = List.of();
        restored = List.of();
    }
}
