package dev.runnel.runtime.state.heap;

import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyedStateHandle;
import dev.runnel.runtime.state.snapshot.format.KeyedSnapshotReader;
import dev.runnel.runtime.state.snapshot.format.SnapshotSection;
import dev.runnel.runtime.state.snapshot.format.StateMetaInfo;
import java.io.IOException;
import java.util.Collection;
import java.util.LinkedHashMap;

/**
 * A state restored from snapshots but not registered yet: its metadata and its checksum-verified raw
 * sections, one slot per key group of the backend's range. The heap store decodes them when the
 * operator registers the state (only then are its serializers known), and writes them into later
 * snapshots unchanged while it does not, so unregistered state is never lost.
 *
 * <p>Task thread only.
 */
final class RestoredState {

    final StateMetaInfo metaInfo;
    /** The first snapshot this state came from, for messages. */
    final String source;
    /** By key group offset in the backend's range; null where the state has no entries. */
    final SnapshotSection[] sections;

    private RestoredState(StateMetaInfo metaInfo, String source, int keyGroups) {
        this.metaInfo = metaInfo;
        this.source = source;
        this.sections = new SnapshotSection[keyGroups];
    }

    /**
     * Reads the key groups of {@code range} from every handle (seeking past the others; handles that
     * hold none of them are not opened) and groups the sections by state name, in order of first
     * appearance.
     */
    static LinkedHashMap<String, RestoredState> read(Collection<KeyedStateHandle> handles, KeyGroupRange range)
            throws IOException {
        LinkedHashMap<String, RestoredState> states = new LinkedHashMap<>();
        int first = range.getStartKeyGroup();
        for (KeyedStateHandle handle : handles) {
            KeyGroupRange common = handle.getKeyGroupRange().getIntersection(range);
            if (common.getNumberOfKeyGroups() == 0) {
                continue;
            }
            try (KeyedSnapshotReader reader = KeyedSnapshotReader.open(KeyedSnapshotReader.requireCanonical(handle, "The heap store"))) {
                for (int kg = common.getStartKeyGroup(); kg <= common.getEndKeyGroup(); kg++) {
                    for (SnapshotSection section : reader.readKeyGroup(kg)) {
                        StateMetaInfo meta = section.metaInfo();
                        RestoredState state = states.get(meta.name());
                        if (state == null) {
                            state = new RestoredState(meta, handle.describe(), range.getNumberOfKeyGroups());
                            states.put(meta.name(), state);
                        } else if (!state.metaInfo.equals(meta)) {
                            throw new IllegalStateException("State '" + meta.name() + "' is described differently by"
                                    + " snapshot " + state.source + " (" + state.metaInfo + ") and snapshot "
                                    + handle.describe() + " (" + meta + "): restore from snapshots of one checkpoint");
                        }
                        SnapshotSection previous = state.sections[kg - first];
                        if (previous != null) {
                            throw new IllegalStateException("Key group " + kg + " of state '" + meta.name()
                                    + "' is in two snapshots, " + previous.snapshotDescription() + " and "
                                    + handle.describe() + ": each key group must be restored from one snapshot only");
                        }
                        state.sections[kg - first] = section;
                    }
                }
            }
        }
        return states;
    }
}
