package dev.runnel.runtime.network.netty;

import dev.runnel.configuration.SecurityOptions;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Mutual challenge-response from the cluster secret: each side sends a fresh nonce, and each proves that it
 * knows the secret with {@code HMAC-SHA256(secret, role || clientNonce || serverNonce)}, the server with role
 * "S", the client with role "C". The secret never crosses the wire, a proof cannot be replayed (fresh nonces
 * on both sides), and neither side's proof can stand in for the other's (the role). Thread-safe.
 */
final class Authenticator {

    private static final SecureRandom RANDOM = new SecureRandom();

    private final SecretKeySpec key;

    Authenticator(String secret) {
        if (secret == null || secret.isBlank()) {
            throw new IllegalArgumentException("The network shuffle needs a cluster secret: set "
                    + SecurityOptions.CLUSTER_SECRET.key() + " to the same random string on every TaskManager"
                    + " (for example the output of 'openssl rand -hex 32'); connections without it are refused.");
        }
        this.key = new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256");
    }

    static byte[] nonce() {
        byte[] nonce = new byte[Protocol.NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        return nonce;
    }

    byte[] serverProof(byte[] clientNonce, byte[] serverNonce) {
        return mac('S', clientNonce, serverNonce);
    }

    byte[] clientProof(byte[] clientNonce, byte[] serverNonce) {
        return mac('C', clientNonce, serverNonce);
    }

    /** Compares in constant time. */
    static boolean matches(byte[] expected, byte[] actual) {
        return MessageDigest.isEqual(expected, actual);
    }

    private byte[] mac(char role, byte[] clientNonce, byte[] serverNonce) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            mac.update((byte) role);
            mac.update(clientNonce);
            mac.update(serverNonce);
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available in this JVM", e);
        }
    }
}
