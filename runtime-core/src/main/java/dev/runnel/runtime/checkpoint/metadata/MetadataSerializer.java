package dev.runnel.runtime.checkpoint.metadata;

import dev.runnel.core.execution.SavepointFormatType;
import dev.runnel.runtime.checkpoint.CheckpointProperties;
import dev.runnel.runtime.checkpoint.CompletedCheckpoint;
import dev.runnel.runtime.checkpoint.OperatorState;
import dev.runnel.runtime.checkpoint.OperatorSubtaskState;
import dev.runnel.runtime.state.IncrementalRemoteKeyedStateHandle;
import dev.runnel.runtime.state.IncrementalRemoteKeyedStateHandle.HandleAndLocalPath;
import dev.runnel.runtime.state.InputChannelStateHandle;
import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyGroupRangeOffsets;
import dev.runnel.runtime.state.KeyGroupsStateHandle;
import dev.runnel.runtime.state.KeyedStateHandle;
import dev.runnel.runtime.state.OperatorStateHandle;
import dev.runnel.runtime.state.OperatorStateHandle.StateMetaInfo;
import dev.runnel.runtime.state.OperatorStreamStateHandle;
import dev.runnel.runtime.state.StreamStateHandle;
import dev.runnel.runtime.state.snapshot.ByteStreamStateHandle;
import dev.runnel.runtime.state.snapshot.FileStateHandle;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.zip.CRC32;

/**
 * Writes and reads the {@code _metadata} file of a checkpoint or savepoint, in Runnel's own binary format
 * (big-endian throughout):
 *
 * <pre>
 * header   int    magic 0x524E4D44 ("RNMD")
 *          int    format version (2; version 1 files, which have no channel state, are still read)
 *          long   length of the body in bytes
 * body     string job id; long checkpoint id; long trigger timestamp; long completion timestamp
 *          byte   0 = checkpoint, 1 = savepoint, then for a savepoint: byte 0 = CANONICAL, 1 = NATIVE
 *          int    number of operators, then per operator:
 *                   string id; int parallelism; int max parallelism; handle coordinator state (or NONE)
 *                   int number of subtasks with state, then per subtask:
 *                     int index; int n, n keyed handles; int m, m operator handles;
 *                     (version 2) int c, c input channel handles
 * trailer  int    CRC32 of header and body
 *
 * string   int byte length, UTF-8 bytes
 * handle   byte type tag, then
 *   0  NONE
 *   1  BYTE_STREAM      string name; int length; bytes                 (state inline in the metadata)
 *   2  RELATIVE_FILE    string path relative to the metadata's folder ('/'-separated); long size
 *   3  ABSOLUTE_FILE    string absolute path; long size
 *   10 KEY_GROUPS       int first key group; int number of key groups; long offset per key group; handle
 *   11 INCREMENTAL      long, long backend UUID; int first key group; int number; long checkpoint id;
 *                       int n, n × (string local name, handle) shared; same for private; handle meta
 *   20 OPERATOR_STREAM  int n, n × (string state name; byte mode SPLIT_DISTRIBUTE 0, UNION 1,
 *                       BROADCAST 2; int k, k × long element offset); handle
 *   30 INPUT_CHANNEL    int gate index; string edge id; int producer subtask; long records; handle
 * </pre>
 *
 * <p>Files inside the folder the metadata is written to are recorded relative to it, so a savepoint folder
 * (which holds all its files) can be moved or copied and restored from where it is now. Files elsewhere
 * (a checkpoint's {@code ../shared/} files) are recorded with their absolute path, so a checkpoint folder
 * is only valid where its job's folder is. The folder itself is not recorded: a loaded checkpoint's
 * external pointer is where it was loaded from.
 *
 * <p>The body length in the header tells a truncated file from a damaged one; the checksum catches damage
 * anywhere. Reading checks the magic number, version, length and checksum before it parses anything.
 *
 * <p>Stateless and thread-safe; all methods are static.
 */
public final class MetadataSerializer {

    /** "RNMD". */
    public static final int MAGIC_NUMBER = 0x524E4D44;

    public static final int VERSION = 2;

    /** The first version, before unaligned checkpoints: subtasks have no channel state. Still read. */
    static final int VERSION_WITHOUT_CHANNEL_STATE = 1;

    /** Header (magic, version, body length) plus trailer (CRC32). */
    static final int FRAME_BYTES = 4 + 4 + 8 + 4;

    static final byte TAG_NONE = 0;
    static final byte TAG_BYTE_STREAM = 1;
    static final byte TAG_RELATIVE_FILE = 2;
    static final byte TAG_ABSOLUTE_FILE = 3;
    static final byte TAG_KEY_GROUPS = 10;
    static final byte TAG_INCREMENTAL = 11;
    static final byte TAG_OPERATOR_STREAM = 20;
    static final byte TAG_INPUT_CHANNEL = 30;

    private static final String RESTORE_ELSEWHERE =
            "restore from another checkpoint (a chk-N folder with a _metadata file) or a savepoint";

    private MetadataSerializer() {}

    /** What {@link #deserialize} read: the checkpoint and every file its handles name, for checking. */
    public record LoadedMetadata(CompletedCheckpoint checkpoint, List<FileStateHandle> files) {}

    // ---------------------------------------------------------------------------------------------
    // writing
    // ---------------------------------------------------------------------------------------------

    /**
     * The complete {@code _metadata} bytes of {@code checkpoint}, with files under {@code folder} recorded
     * relative to it.
     *
     * @throws IOException if a handle is of a type the format does not know (a bug in whoever made it)
     */
    public static byte[] serialize(CompletedCheckpoint checkpoint, Path folder) throws IOException {
        return serialize(checkpoint, folder, VERSION);
    }

    /** As {@link #serialize(CompletedCheckpoint, Path)} in format {@code version}; tests write old files so. */
    static byte[] serialize(CompletedCheckpoint checkpoint, Path folder, int version) throws IOException {
        if (version != VERSION && version != VERSION_WITHOUT_CHANNEL_STATE) {
            throw new IllegalArgumentException("unknown metadata version " + version);
        }
        Writer body = new Writer(folder.toAbsolutePath().normalize(), version);
        body.writeCheckpoint(checkpoint);
        byte[] bodyBytes = body.bytes.toByteArray();

        ByteArrayOutputStream frame = new ByteArrayOutputStream(bodyBytes.length + FRAME_BYTES);
        DataOutputStream out = new DataOutputStream(frame);
        out.writeInt(MAGIC_NUMBER);
        out.writeInt(version);
        out.writeLong(bodyBytes.length);
        out.write(bodyBytes);
        out.flush();
        CRC32 crc = new CRC32();
        crc.update(frame.toByteArray());
        out.writeInt((int) crc.getValue());
        out.flush();
        return frame.toByteArray();
    }

    private static final class Writer {
        final Path folder;
        final int version;
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream(4096);
        final DataOutputStream out = new DataOutputStream(bytes);

        Writer(Path folder, int version) {
            this.folder = folder;
            this.version = version;
        }

        void writeCheckpoint(CompletedCheckpoint checkpoint) throws IOException {
            writeString(checkpoint.getJobId());
            out.writeLong(checkpoint.getCheckpointID());
            out.writeLong(checkpoint.getTimestamp());
            out.writeLong(checkpoint.getCompletionTimestamp());
            CheckpointProperties properties = checkpoint.getProperties();
            out.writeByte(properties.savepoint() ? 1 : 0);
            if (properties.savepoint()) {
                // A code per constant, not the ordinal, so reordering the enum cannot change old files.
                SavepointFormatType format = properties.savepointFormat() == null
                        ? SavepointFormatType.DEFAULT : properties.savepointFormat();
                out.writeByte(format == SavepointFormatType.NATIVE ? 1 : 0);
            }
            out.writeInt(checkpoint.getOperatorStates().size());
            for (OperatorState operator : checkpoint.getOperatorStates().values()) {
                writeString(operator.getOperatorID());
                out.writeInt(operator.getParallelism());
                out.writeInt(operator.getMaxParallelism());
                writeStreamHandle(operator.getCoordinatorState());
                out.writeInt(operator.getSubtaskStates().size());
                for (Map.Entry<Integer, OperatorSubtaskState> subtask : operator.getSubtaskStates().entrySet()) {
                    out.writeInt(subtask.getKey());
                    List<KeyedStateHandle> keyed = subtask.getValue().managedKeyedState();
                    out.writeInt(keyed.size());
                    for (KeyedStateHandle handle : keyed) {
                        writeKeyedHandle(handle);
                    }
                    List<OperatorStateHandle> operatorHandles = subtask.getValue().managedOperatorState();
                    out.writeInt(operatorHandles.size());
                    for (OperatorStateHandle handle : operatorHandles) {
                        writeOperatorHandle(handle);
                    }
                    List<InputChannelStateHandle> channels = subtask.getValue().inputChannelState();
                    if (version == VERSION_WITHOUT_CHANNEL_STATE) {
                        if (!channels.isEmpty()) {
                            throw new IOException("metadata version 1 cannot hold input channel state");
                        }
                        continue;
                    }
                    out.writeInt(channels.size());
                    for (InputChannelStateHandle handle : channels) {
                        writeInputChannelHandle(handle);
                    }
                }
            }
            out.flush();
        }

        void writeStreamHandle(StreamStateHandle handle) throws IOException {
            if (handle == null) {
                out.writeByte(TAG_NONE);
            } else if (handle instanceof ByteStreamStateHandle inline) {
                out.writeByte(TAG_BYTE_STREAM);
                writeString(inline.getName());
                out.writeInt(inline.getData().length);
                out.write(inline.getData());
            } else if (handle instanceof FileStateHandle file) {
                Path path = file.getFilePath().toAbsolutePath().normalize();
                if (path.startsWith(folder) && !path.equals(folder)) {
                    out.writeByte(TAG_RELATIVE_FILE);
                    writeString(folder.relativize(path).toString().replace(path.getFileSystem().getSeparator(), "/"));
                } else {
                    out.writeByte(TAG_ABSOLUTE_FILE);
                    writeString(path.toString());
                }
                out.writeLong(file.getStateSize());
            } else {
                throw unknownType(handle);
            }
        }

        void writeKeyedHandle(KeyedStateHandle handle) throws IOException {
            if (handle instanceof KeyGroupsStateHandle keyGroups) {
                out.writeByte(TAG_KEY_GROUPS);
                KeyGroupRangeOffsets offsets = keyGroups.getKeyGroupRangeOffsets();
                KeyGroupRange range = offsets.getKeyGroupRange();
                writeRange(range);
                for (int keyGroup : range) {
                    out.writeLong(offsets.getKeyGroupOffset(keyGroup));
                }
                writeStreamHandle(keyGroups.getDelegateStateHandle());
            } else if (handle instanceof IncrementalRemoteKeyedStateHandle incremental) {
                out.writeByte(TAG_INCREMENTAL);
                out.writeLong(incremental.getBackendIdentifier().getMostSignificantBits());
                out.writeLong(incremental.getBackendIdentifier().getLeastSignificantBits());
                writeRange(incremental.getKeyGroupRange());
                out.writeLong(incremental.getCheckpointId());
                writeFiles(incremental.getSharedState());
                writeFiles(incremental.getPrivateState());
                writeStreamHandle(incremental.getMetaStateHandle());
            } else {
                throw unknownType(handle);
            }
        }

        void writeOperatorHandle(OperatorStateHandle handle) throws IOException {
            if (!(handle instanceof OperatorStreamStateHandle)) {
                throw unknownType(handle);
            }
            out.writeByte(TAG_OPERATOR_STREAM);
            Map<String, StateMetaInfo> states = handle.getStateNameToPartitionOffsets();
            out.writeInt(states.size());
            // Sorted, so the same state always gives the same bytes.
            for (String name : new java.util.TreeSet<>(states.keySet())) {
                StateMetaInfo info = states.get(name);
                writeString(name);
                out.writeByte(modeCode(info.distributionMode()));
                out.writeInt(info.offsets().length);
                for (long offset : info.offsets()) {
                    out.writeLong(offset);
                }
            }
            writeStreamHandle(handle.getDelegateStateHandle());
        }

        void writeInputChannelHandle(InputChannelStateHandle handle) throws IOException {
            out.writeByte(TAG_INPUT_CHANNEL);
            out.writeInt(handle.gateIndex());
            writeString(handle.edgeId());
            out.writeInt(handle.producerSubtask());
            out.writeLong(handle.records());
            writeStreamHandle(handle.delegate());
        }

        void writeFiles(List<HandleAndLocalPath> files) throws IOException {
            out.writeInt(files.size());
            for (HandleAndLocalPath file : files) {
                writeString(file.localPath());
                writeStreamHandle(file.handle());
            }
        }

        void writeRange(KeyGroupRange range) throws IOException {
            out.writeInt(range.getNumberOfKeyGroups() == 0 ? 0 : range.getStartKeyGroup());
            out.writeInt(range.getNumberOfKeyGroups());
        }

        void writeString(String s) throws IOException {
            byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            out.writeInt(utf8.length);
            out.write(utf8);
        }

        static IOException unknownType(Object handle) {
            return new IOException("Cannot write a state handle of type " + handle.getClass().getName()
                    + " to checkpoint metadata: the format knows ByteStreamStateHandle, FileStateHandle,"
                    + " KeyGroupsStateHandle, IncrementalRemoteKeyedStateHandle, OperatorStreamStateHandle and"
                    + " InputChannelStateHandle."
                    + " A new handle type needs a type tag in MetadataSerializer");
        }
    }

    private static byte modeCode(OperatorStateHandle.Mode mode) {
        switch (mode) {
            case SPLIT_DISTRIBUTE:
                return 0;
            case UNION:
                return 1;
            case BROADCAST:
                return 2;
            default:
                throw new IllegalArgumentException("unknown mode " + mode);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // reading
    // ---------------------------------------------------------------------------------------------

    /**
     * Reads {@code data}, the contents of {@code metadataFile}; relative file paths are resolved against
     * the file's folder, which also becomes the checkpoint's external pointer. Does not touch the files the
     * checkpoint names.
     *
     * @throws IOException naming {@code metadataFile} and what is wrong: truncated, not a metadata file,
     *     an unknown version, a checksum mismatch, an unknown handle type or a malformed body
     */
    public static LoadedMetadata deserialize(byte[] data, Path metadataFile) throws IOException {
        Path file = metadataFile.toAbsolutePath().normalize();
        if (data.length < 4) {
            throw new IOException(String.format("Checkpoint metadata file %s is truncated: it has %d bytes, but"
                    + " even an empty one has %d. It was not written completely; %s.",
                    file, data.length, FRAME_BYTES, RESTORE_ELSEWHERE));
        }
        ByteBuffer buffer = ByteBuffer.wrap(data);
        int magic = buffer.getInt();
        if (magic != MAGIC_NUMBER) {
            throw new IOException(String.format("%s is not a Runnel checkpoint metadata file: it starts with"
                    + " 0x%08X instead of the magic number 0x%08X. Point the restore at the _metadata file or the"
                    + " folder (chk-N or savepoint-...) of a Runnel checkpoint or savepoint.",
                    file, magic, MAGIC_NUMBER));
        }
        if (data.length < FRAME_BYTES) {
            throw new IOException(String.format("Checkpoint metadata file %s is truncated: it has %d bytes, but"
                    + " even an empty one has %d. It was not written completely; %s.",
                    file, data.length, FRAME_BYTES, RESTORE_ELSEWHERE));
        }
        int version = buffer.getInt();
        if (version != VERSION && version != VERSION_WITHOUT_CHANNEL_STATE) {
            throw new IOException(String.format("Checkpoint metadata file %s has format version %d, which this"
                    + " Runnel cannot read (it reads versions %d to %d). Restore it with the Runnel version that wrote"
                    + " it, or %s.", file, version, VERSION_WITHOUT_CHANNEL_STATE, VERSION, RESTORE_ELSEWHERE));
        }
        long bodyLength = buffer.getLong();
        long expected = bodyLength + FRAME_BYTES;
        if (bodyLength < 0 || data.length < expected) {
            throw new IOException(String.format("Checkpoint metadata file %s is truncated: it has %d bytes, but"
                    + " its header announces %d. It was not written completely or was cut short when copied; %s.",
                    file, data.length, expected, RESTORE_ELSEWHERE));
        }
        if (data.length > expected) {
            throw new IOException(String.format("Checkpoint metadata file %s is corrupt: it has %d bytes, but its"
                    + " header announces %d. Something was appended to it; %s.",
                    file, data.length, expected, RESTORE_ELSEWHERE));
        }
        CRC32 crc = new CRC32();
        crc.update(data, 0, data.length - 4);
        int stored = ByteBuffer.wrap(data, data.length - 4, 4).getInt();
        int computed = (int) crc.getValue();
        if (stored != computed) {
            throw new IOException(String.format("Checkpoint metadata file %s is corrupt: its CRC32 checksum is"
                    + " 0x%08X but its contents give 0x%08X. The file was damaged after it was written; %s.",
                    file, stored, computed, RESTORE_ELSEWHERE));
        }
        ByteBuffer body = ByteBuffer.wrap(data, 16, (int) bodyLength).slice();
        Reader reader = new Reader(body, file, version);
        try {
            CompletedCheckpoint checkpoint = reader.readCheckpoint();
            if (body.hasRemaining()) {
                throw reader.corrupt(body.remaining() + " unread bytes after the last operator");
            }
            return new LoadedMetadata(checkpoint, Collections.unmodifiableList(reader.files));
        } catch (BufferUnderflowException e) {
            throw reader.corrupt("the body ends in the middle of a value");
        } catch (IllegalArgumentException e) {
            throw reader.corrupt(e.getMessage());
        }
    }

    private static final class Reader {
        final ByteBuffer in;
        final Path file;
        final Path folder;
        final int version;
        final List<FileStateHandle> files = new ArrayList<>();
        String where = "checkpoint header";

        Reader(ByteBuffer in, Path file, int version) {
            this.in = in;
            this.file = file;
            this.folder = file.getParent();
            this.version = version;
        }

        CompletedCheckpoint readCheckpoint() throws IOException {
            String jobId = readString();
            long checkpointId = in.getLong();
            long triggerTimestamp = in.getLong();
            long completionTimestamp = in.getLong();
            CheckpointProperties properties;
            byte kind = in.get();
            if (kind == 0) {
                properties = CheckpointProperties.CHECKPOINT;
            } else if (kind == 1) {
                byte format = in.get();
                if (format != 0 && format != 1) {
                    throw corrupt("unknown savepoint format code " + format);
                }
                properties = CheckpointProperties.savepoint(
                        format == 1 ? SavepointFormatType.NATIVE : SavepointFormatType.CANONICAL);
            } else {
                throw corrupt("unknown checkpoint kind " + kind);
            }
            int operatorCount = readCount();
            Map<String, OperatorState> operators = new LinkedHashMap<>();
            for (int i = 0; i < operatorCount; i++) {
                where = "operator #" + i;
                String operatorId = readString();
                where = "operator " + operatorId;
                int parallelism = in.getInt();
                int maxParallelism = in.getInt();
                StreamStateHandle coordinator = readStreamHandle();
                int subtaskCount = readCount();
                Map<Integer, OperatorSubtaskState> subtasks = new HashMap<>();
                for (int s = 0; s < subtaskCount; s++) {
                    int index = in.getInt();
                    where = "operator " + operatorId + ", subtask " + index;
                    int keyedCount = readCount();
                    List<KeyedStateHandle> keyed = new ArrayList<>(keyedCount);
                    for (int k = 0; k < keyedCount; k++) {
                        keyed.add(readKeyedHandle());
                    }
                    int operatorHandleCount = readCount();
                    List<OperatorStateHandle> operatorHandles = new ArrayList<>(operatorHandleCount);
                    for (int k = 0; k < operatorHandleCount; k++) {
                        operatorHandles.add(readOperatorHandle());
                    }
                    List<InputChannelStateHandle> channels = new ArrayList<>();
                    if (version > VERSION_WITHOUT_CHANNEL_STATE) {
                        int channelCount = readCount();
                        for (int k = 0; k < channelCount; k++) {
                            channels.add(readInputChannelHandle());
                        }
                    }
                    subtasks.put(index, new OperatorSubtaskState(keyed, operatorHandles, channels));
                }
                operators.put(operatorId,
                        new OperatorState(operatorId, parallelism, maxParallelism, subtasks, coordinator));
            }
            return new CompletedCheckpoint(jobId, checkpointId, triggerTimestamp, completionTimestamp, operators,
                    properties, folder.toString());
        }

        StreamStateHandle readStreamHandle() throws IOException {
            int position = in.position();
            byte tag = in.get();
            switch (tag) {
                case TAG_NONE:
                    return null;
                case TAG_BYTE_STREAM: {
                    String name = readString();
                    byte[] bytes = new byte[readCount()];
                    in.get(bytes);
                    return new ByteStreamStateHandle(name, bytes);
                }
                case TAG_RELATIVE_FILE: {
                    String relative = readString();
                    if (relative.isEmpty() || relative.startsWith("/") || List.of(relative.split("/")).contains("..")) {
                        throw corrupt("relative state file path '" + relative + "' leaves the checkpoint folder");
                    }
                    return file(folder.resolve(relative), in.getLong());
                }
                case TAG_ABSOLUTE_FILE:
                    return file(Path.of(readString()), in.getLong());
                default:
                    throw unknownTag(tag, position, "a stream state handle");
            }
        }

        FileStateHandle file(Path path, long size) throws IOException {
            if (size < 0) {
                throw corrupt("negative size " + size + " of state file " + path);
            }
            FileStateHandle handle = new FileStateHandle(path, size);
            files.add(handle);
            return handle;
        }

        KeyedStateHandle readKeyedHandle() throws IOException {
            int position = in.position();
            byte tag = in.get();
            switch (tag) {
                case TAG_KEY_GROUPS: {
                    KeyGroupRange range = readRange();
                    long[] offsets = new long[range.getNumberOfKeyGroups()];
                    for (int i = 0; i < offsets.length; i++) {
                        offsets[i] = in.getLong();
                    }
                    StreamStateHandle delegate = requireHandle(readStreamHandle(), "key groups blob");
                    return new KeyGroupsStateHandle(new KeyGroupRangeOffsets(range, offsets), delegate);
                }
                case TAG_INCREMENTAL: {
                    UUID backend = new UUID(in.getLong(), in.getLong());
                    KeyGroupRange range = readRange();
                    long checkpointId = in.getLong();
                    List<HandleAndLocalPath> shared = readFiles();
                    List<HandleAndLocalPath> privateFiles = readFiles();
                    StreamStateHandle meta = requireHandle(readStreamHandle(), "incremental meta state");
                    return new IncrementalRemoteKeyedStateHandle(backend, range, checkpointId, shared, privateFiles,
                            meta);
                }
                default:
                    throw unknownTag(tag, position, "a keyed state handle");
            }
        }

        OperatorStateHandle readOperatorHandle() throws IOException {
            int position = in.position();
            byte tag = in.get();
            if (tag != TAG_OPERATOR_STREAM) {
                throw unknownTag(tag, position, "an operator state handle");
            }
            int stateCount = readCount();
            Map<String, StateMetaInfo> states = new HashMap<>();
            for (int i = 0; i < stateCount; i++) {
                String name = readString();
                byte mode = in.get();
                OperatorStateHandle.Mode distribution;
                switch (mode) {
                    case 0:
                        distribution = OperatorStateHandle.Mode.SPLIT_DISTRIBUTE;
                        break;
                    case 1:
                        distribution = OperatorStateHandle.Mode.UNION;
                        break;
                    case 2:
                        distribution = OperatorStateHandle.Mode.BROADCAST;
                        break;
                    default:
                        throw corrupt("unknown distribution mode " + mode + " of operator state '" + name + "'");
                }
                long[] offsets = new long[readCount()];
                for (int k = 0; k < offsets.length; k++) {
                    offsets[k] = in.getLong();
                }
                states.put(name, new StateMetaInfo(offsets, distribution));
            }
            return new OperatorStreamStateHandle(states, requireHandle(readStreamHandle(), "operator state blob"));
        }

        InputChannelStateHandle readInputChannelHandle() throws IOException {
            int position = in.position();
            byte tag = in.get();
            if (tag != TAG_INPUT_CHANNEL) {
                throw unknownTag(tag, position, "an input channel state handle");
            }
            int gate = in.getInt();
            String edge = readString();
            int producer = in.getInt();
            long records = in.getLong();
            StreamStateHandle delegate = requireHandle(readStreamHandle(), "input channel state blob");
            if (gate < 0 || producer < 0 || records < 0) {
                throw corrupt("input channel state of gate " + gate + ", producer " + producer + " with " + records
                        + " records");
            }
            return new InputChannelStateHandle(gate, edge, producer, records, delegate);
        }

        List<HandleAndLocalPath> readFiles() throws IOException {
            int count = readCount();
            List<HandleAndLocalPath> result = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                String localPath = readString();
                result.add(new HandleAndLocalPath(localPath, requireHandle(readStreamHandle(), localPath)));
            }
            return result;
        }

        KeyGroupRange readRange() throws IOException {
            int start = in.getInt();
            int count = in.getInt();
            if (start < 0 || count < 0 || (long) start + count - 1 > Integer.MAX_VALUE) {
                throw corrupt("invalid key group range start " + start + ", " + count + " key groups");
            }
            return count == 0 ? KeyGroupRange.EMPTY_KEY_GROUP_RANGE : KeyGroupRange.of(start, start + count - 1);
        }

        StreamStateHandle requireHandle(StreamStateHandle handle, String what) throws IOException {
            if (handle == null) {
                throw corrupt("the " + what + " has no state handle");
            }
            return handle;
        }

        /** A length or count: never negative and never more than the bytes left (each element takes one). */
        int readCount() throws IOException {
            int count = in.getInt();
            if (count < 0 || count > in.remaining()) {
                throw corrupt("a length of " + count + " with " + in.remaining() + " bytes left");
            }
            return count;
        }

        String readString() throws IOException {
            byte[] utf8 = new byte[readCount()];
            in.get(utf8);
            return new String(utf8, StandardCharsets.UTF_8);
        }

        IOException unknownTag(byte tag, int bodyPosition, String expected) {
            return new IOException(String.format("Checkpoint metadata file %s has an unknown state handle type tag"
                    + " %d at byte %d (%s, where %s was expected). It was written by a newer Runnel or is"
                    + " corrupt; restore it with the Runnel version that wrote it, or %s.",
                    file, tag, bodyPosition + 16, where, expected, RESTORE_ELSEWHERE));
        }

        IOException corrupt(String problem) {
            return new IOException(String.format("Checkpoint metadata file %s is corrupt at byte %d (%s): %s."
                    + " Its checksum matches, so the writer produced it this way (a bug); %s.",
                    file, in.position() + 16, where, problem, RESTORE_ELSEWHERE));
        }
    }
}
