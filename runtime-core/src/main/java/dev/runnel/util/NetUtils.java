package dev.runnel.util;

import dev.runnel.configuration.IllegalConfigurationException;
import java.io.File;
import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.UnknownHostException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Small network helpers with Flink's names: finding a free port for a test server, validating
 * ports, and writing host names and addresses in one normalized form ({@code host:port}, IPv6 in
 * brackets).
 *
 * <p>Stateless; safe from any thread.
 */
public final class NetUtils {

    private static final Pattern IPV4 = Pattern.compile("^\\d{1,3}(\\.\\d{1,3}){3}$");
    private static final int PORT_ATTEMPTS = 50;

    private NetUtils() {}

    // ------------------------------------------------------------------ ports

    /**
     * Finds a port no one listens on now and reserves it until the returned {@link Port} is closed:
     * other callers of this method, in this JVM or another one on the machine, skip it meanwhile
     * (through a lock file in {@code java.io.tmpdir}). The port itself is not bound, so the caller's
     * server can bind it; use it in try-with-resources.
     *
     * @throws RuntimeException if no free port was found in 50 attempts
     */
    public static Port getAvailablePort() {
        for (int attempt = 0; attempt < PORT_ATTEMPTS; attempt++) {
            Port port = tryReserve(freePort());
            if (port != null) {
                return port;
            }
        }
        throw new RuntimeException("Could not find a free permitted port on the machine after " + PORT_ATTEMPTS
                + " attempts. Are ephemeral ports exhausted, or is " + System.getProperty("java.io.tmpdir")
                + " not writable?");
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            return 0;
        }
    }

    private static Port tryReserve(int port) {
        if (port == 0) {
            return null;
        }
        Path lockFile = Path.of(System.getProperty("java.io.tmpdir"), "runnel-port-" + port + ".lock");
        FileChannel channel = null;
        try {
            channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock = channel.tryLock();
            if (lock != null) {
                return new Port(port, lockFile, channel, lock);
            }
        } catch (IOException | OverlappingFileLockException e) {
            // Taken by another caller (OverlappingFileLockException: in this JVM); try another port.
        }
        closeQuietly(channel);
        return null;
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // nothing more to release
            }
        }
    }

    /** Whether {@code port} can be connected to: 1 to 65535. */
    public static boolean isValidClientPort(int port) {
        return 1 <= port && port <= 65535;
    }

    /** Whether a server can be bound to {@code port}: 0 (any free port) to 65535. */
    public static boolean isValidHostPort(int port) {
        return 0 <= port && port <= 65535;
    }

    // ------------------------------------------------------------------ host names

    /**
     * The host part of a fully qualified domain name: {@code "worker1.example.com"} gives
     * {@code "worker1"}; a name without dots is returned as it is.
     *
     * @throws IllegalArgumentException if {@code fqdn} is null
     */
    public static String getHostnameFromFQDN(String fqdn) {
        if (fqdn == null) {
            throw new IllegalArgumentException("fqdn is null");
        }
        int dot = fqdn.indexOf('.');
        return dot == -1 ? fqdn : fqdn.substring(0, dot);
    }

    /**
     * {@code host:port} in normalized form: the host trimmed and lower-cased, an IPv6 literal
     * compressed and bracketed ({@code "[2001:db8::1]:8081"}).
     *
     * @throws IllegalArgumentException if the port is outside 0..65535
     * @throws IllegalConfigurationException if the host is not a valid host name or address
     */
    public static String unresolvedHostAndPortToNormalizedString(String host, int port) {
        Preconditions.checkArgument(isValidHostPort(port), "Port is not within the valid range 0..65535: %s", port);
        return unresolvedHostToNormalizedString(host) + ":" + port;
    }

    /**
     * {@code host} trimmed and lower-cased (null counts as empty); an IPv6 literal, with or without
     * brackets, becomes its compressed form in brackets. No name is resolved.
     *
     * @throws IllegalConfigurationException for a host name that starts or ends with a dot or
     *     contains a colon without being an IPv6 address
     */
    public static String unresolvedHostToNormalizedString(String host) {
        String normalized = host == null ? "" : host.trim().toLowerCase(Locale.ROOT);
        if (normalized.startsWith("[") && normalized.endsWith("]")) {
            normalized = normalized.substring(1, normalized.length() - 1);
        }
        if (normalized.contains(":")) {
            return "[" + ipv6UrlForm(normalized) + "]";
        }
        if (!IPV4.matcher(normalized).matches() && (normalized.startsWith(".") || normalized.endsWith("."))) {
            throw new IllegalConfigurationException("The configured hostname is not valid: '" + host
                    + "' (a host name must not start or end with a dot).");
        }
        return normalized;
    }

    /** The RFC 5952 text form of an IPv6 literal: lower-case hex, the longest zero run as {@code ::}. */
    private static String ipv6UrlForm(String literal) {
        byte[] bytes = ipv6Bytes(literal);
        int[] groups = new int[8];
        for (int i = 0; i < 8; i++) {
            groups[i] = ((bytes[2 * i] & 0xff) << 8) | (bytes[2 * i + 1] & 0xff);
        }
        int[] run = longestZeroRun(groups);
        StringBuilder out = new StringBuilder(39);
        for (int i = 0; i < 8; i++) {
            if (i == run[0]) {
                out.append("::");
                i += run[1] - 1;
            } else {
                out.append(out.length() == 0 || out.charAt(out.length() - 1) == ':' ? "" : ":");
                out.append(Integer.toHexString(groups[i]));
            }
        }
        return out.toString();
    }

    private static byte[] ipv6Bytes(String literal) {
        if (!literal.matches("[0-9a-f:.]+(%[\\w.]+)?")) {
            throw invalidIpv6(literal, null);
        }
        try {
            InetAddress address = InetAddress.getByName(literal);
            if (address instanceof Inet6Address) {
                return address.getAddress();
            }
        } catch (UnknownHostException e) {
            throw invalidIpv6(literal, e);
        }
        throw invalidIpv6(literal, null);
    }

    private static IllegalConfigurationException invalidIpv6(String literal, Throwable cause) {
        return new IllegalConfigurationException("The configured hostname is not valid: '" + literal
                + "' contains ':' but is not an IPv6 address. Write a host name, an IPv4 address, or an IPv6 "
                + "address such as [2001:db8::1].", cause);
    }

    /** {start, length} of the first longest run of at least two zero groups; start is -1 if none. */
    private static int[] longestZeroRun(int[] groups) {
        int bestStart = -1;
        int bestLength = 1;
        for (int i = 0; i < groups.length; ) {
            int j = i;
            while (j < groups.length && groups[j] == 0) {
                j++;
            }
            if (j - i > bestLength) {
                bestStart = i;
                bestLength = j - i;
            }
            i = Math.max(j, i + 1);
        }
        return new int[] {bestStart, bestLength};
    }

    // ------------------------------------------------------------------ Port

    /**
     * A port reserved by {@link #getAvailablePort()}: {@link #getPort()} is the number; closing it
     * releases the reservation (idempotent). Not thread-safe.
     */
    public static final class Port implements AutoCloseable {

        private final int port;
        private final Path lockFile;
        private final FileChannel channel;
        private final FileLock lock;

        private Port(int port, Path lockFile, FileChannel channel, FileLock lock) {
            this.port = port;
            this.lockFile = lockFile;
            this.channel = channel;
            this.lock = lock;
        }

        /** The reserved port number. */
        public int getPort() {
            return port;
        }

        /** Releases the reservation and deletes its lock file. */
        @Override
        public void close() throws Exception {
            if (channel.isOpen()) {
                lock.release();
                channel.close();
                Files.deleteIfExists(lockFile);
            }
        }

        @Override
        public String toString() {
            return "Port " + port + (channel.isOpen() ? " (reserved)" : " (released)");
        }
    }

    /** The lock file that reserves {@code port}; for tests. */
    static File lockFileOf(int port) {
        return Path.of(System.getProperty("java.io.tmpdir"), "runnel-port-" + port + ".lock").toFile();
    }
}
