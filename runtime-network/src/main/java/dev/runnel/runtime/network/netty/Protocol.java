package dev.runnel.runtime.network.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;

/**
 * The data plane's wire protocol, version {@value #VERSION}. Every frame is
 * {@code [int length][byte type][body]}, length counting type and body, big-endian:
 *
 * <pre>
 *   HELLO            client → server   magic "RNL1", version, client TaskManager id, 16-byte nonce
 *   CHALLENGE        server → client   version, server TaskManager id, 16-byte nonce, HMAC proof of the server
 *   RESPONSE         client → server   HMAC proof of the client
 *   AUTH_OK          server → client   (empty) the connection is authenticated
 *   PARTITION_REQUEST client → server  receiver channel id, edge id, producer subtask, consumer subtask, credit
 *   ADD_CREDIT       client → server   receiver channel id, credit
 *   CANCEL           client → server   receiver channel id: the consumer no longer wants the channel
 *   BUFFER           server → client   receiver channel id, backlog, buffer bytes (length-prefixed records)
 *   EVENT            server → client   receiver channel id, one event in ChannelEventCodec's form
 *   PRIORITY_EVENT   server → client   as EVENT, for an event that overtook the channel's queued buffers (an
 *                                      unaligned barrier); its in-order copy follows later as an EVENT
 *   BACKLOG          server → client   receiver channel id, backlog: buffers wait but the channel has no credit
 *   ERROR            server → client   receiver channel id (-1: the whole connection), message
 * </pre>
 *
 * Records inside a buffer are {@code [int length][long timestamp][serialized value]}, length counting
 * timestamp and value; a record may continue in the channel's next buffer. Stateless.
 */
final class Protocol {

    static final int MAGIC = 0x524E4C31; // "RNL1"
    static final int VERSION = 1;
    static final int NONCE_BYTES = 16;
    static final int MAC_BYTES = 32;
    /** Bytes of a frame beyond its buffer payload: length, type, channel id, backlog. */
    static final int BUFFER_FRAME_OVERHEAD = 4 + 1 + 4 + 4;

    static final byte HELLO = 1;
    static final byte CHALLENGE = 2;
    static final byte RESPONSE = 3;
    static final byte AUTH_OK = 4;
    static final byte PARTITION_REQUEST = 10;
    static final byte ADD_CREDIT = 11;
    static final byte CANCEL = 12;
    static final byte BUFFER = 20;
    static final byte EVENT = 21;
    static final byte BACKLOG = 22;
    static final byte PRIORITY_EVENT = 23;
    static final byte ERROR = 30;

    private Protocol() {}

    /** The largest frame a peer may send: a full buffer plus headers, or a small control message. */
    static int maxFrameLength(int segmentSize) {
        return Math.max(segmentSize + 64, 64 * 1024);
    }

    /** A frame with room for {@code bodyBytes}; the length is filled in by {@link #finish}. */
    static ByteBuf start(ByteBufAllocator alloc, byte type, int bodyBytes) {
        ByteBuf frame = alloc.buffer(5 + bodyBytes);
        frame.writeInt(0);
        frame.writeByte(type);
        return frame;
    }

    static ByteBuf finish(ByteBuf frame) {
        frame.setInt(0, frame.readableBytes() - 4);
        return frame;
    }

    static void writeString(ByteBuf out, String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        out.writeShort(bytes.length);
        out.writeBytes(bytes);
    }

    static String readString(ByteBuf in) {
        int length = in.readUnsignedShort();
        if (length > in.readableBytes()) {
            throw new ProtocolException("a string of " + length + " bytes in a frame with " + in.readableBytes() + " left");
        }
        return in.readCharSequence(length, StandardCharsets.UTF_8).toString();
    }

    static String typeName(byte type) {
        return switch (type) {
            case HELLO -> "HELLO";
            case CHALLENGE -> "CHALLENGE";
            case RESPONSE -> "RESPONSE";
            case AUTH_OK -> "AUTH_OK";
            case PARTITION_REQUEST -> "PARTITION_REQUEST";
            case ADD_CREDIT -> "ADD_CREDIT";
            case CANCEL -> "CANCEL";
            case BUFFER -> "BUFFER";
            case EVENT -> "EVENT";
            case BACKLOG -> "BACKLOG";
            case PRIORITY_EVENT -> "PRIORITY_EVENT";
            case ERROR -> "ERROR";
            default -> "unknown type " + type;
        };
    }

    /** A peer broke the protocol; the message says how. The connection is closed. */
    static final class ProtocolException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ProtocolException(String message) {
            super(message);
        }
    }
}
