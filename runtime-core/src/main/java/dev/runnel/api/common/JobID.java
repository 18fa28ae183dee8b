package dev.runnel.api.common;

import java.io.Serializable;
import java.security.SecureRandom;
import java.util.HexFormat;

/** Identifies one submitted job: 16 random bytes, shown as 32 hex digits. Immutable. */
public final class JobID implements Serializable {

    private static final long serialVersionUID = 1L;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final byte[] bytes;

    private JobID(byte[] bytes) {
        this.bytes = bytes;
    }

    public static JobID generate() {
        byte[] b = new byte[16];
        RANDOM.nextBytes(b);
        return new JobID(b);
    }

    /** Parses 32 hex digits. */
    public static JobID fromHexString(String hex) {
        if (hex == null || hex.length() != 32) {
            throw new IllegalArgumentException("A job id is 32 hex digits, got '" + hex + "'");
        }
        return new JobID(HexFormat.of().parseHex(hex));
    }

    public String toHexString() {
        return HexFormat.of().formatHex(bytes);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof JobID other && java.util.Arrays.equals(bytes, other.bytes);
    }

    @Override
    public int hashCode() {
        return java.util.Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return toHexString();
    }
}
