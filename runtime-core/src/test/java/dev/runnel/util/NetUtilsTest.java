package dev.runnel.util;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.configuration.IllegalConfigurationException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class NetUtilsTest {

    @Test
    void availablePortCanBeBoundAndIsReservedUntilClosed() throws Exception {
        int number;
        try (NetUtils.Port port = NetUtils.getAvailablePort()) {
            number = port.getPort();
            assertThat(NetUtils.isValidClientPort(number)).isTrue();
            assertThat(NetUtils.lockFileOf(number)).exists();
            try (ServerSocket server = new ServerSocket(number, 1, InetAddress.getLoopbackAddress())) {
                assertThat(server.getLocalPort()).isEqualTo(number);
            }
        }
        assertThat(NetUtils.lockFileOf(number)).doesNotExist();
    }

    @Test
    void reservedPortsAreDistinctWhileHeld() throws Exception {
        Set<Integer> seen = new HashSet<>();
        NetUtils.Port[] ports = new NetUtils.Port[5];
        try {
            for (int i = 0; i < ports.length; i++) {
                ports[i] = NetUtils.getAvailablePort();
                assertThat(seen.add(ports[i].getPort())).as("port %s handed out twice", ports[i].getPort()).isTrue();
            }
        } finally {
            for (NetUtils.Port port : ports) {
                if (port != null) {
                    port.close();
                    port.close(); // idempotent
                }
            }
        }
    }

    @Test
    void portRanges() {
        assertThat(NetUtils.isValidClientPort(0)).isFalse();
        assertThat(NetUtils.isValidClientPort(1)).isTrue();
        assertThat(NetUtils.isValidClientPort(65535)).isTrue();
        assertThat(NetUtils.isValidClientPort(65536)).isFalse();
        assertThat(NetUtils.isValidHostPort(0)).isTrue();
        assertThat(NetUtils.isValidHostPort(-1)).isFalse();
        assertThat(NetUtils.isValidHostPort(65535)).isTrue();
        assertThat(NetUtils.isValidHostPort(65536)).isFalse();
    }

    @Test
    void hostnameFromFqdn() {
        assertThat(NetUtils.getHostnameFromFQDN("worker1.example.com")).isEqualTo("worker1");
        assertThat(NetUtils.getHostnameFromFQDN("localhost")).isEqualTo("localhost");
        assertThat(NetUtils.getHostnameFromFQDN("")).isEqualTo("");
        assertThatThrownBy(() -> NetUtils.getHostnameFromFQDN(null)).isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessage("fqdn is null");
    }

    @Test
    void normalizedHostAndPort() {
        assertThat(NetUtils.unresolvedHostAndPortToNormalizedString(" JobManager.Example.COM ", 6123))
                .isEqualTo("jobmanager.example.com:6123");
        assertThat(NetUtils.unresolvedHostAndPortToNormalizedString("127.0.0.1", 0)).isEqualTo("127.0.0.1:0");
        assertThat(NetUtils.unresolvedHostAndPortToNormalizedString("2001:0DB8:0000:0000:0000:0000:0000:0001", 8081))
                .isEqualTo("[2001:db8::1]:8081");
        assertThat(NetUtils.unresolvedHostAndPortToNormalizedString("[::1]", 80)).isEqualTo("[::1]:80");
        assertThat(NetUtils.unresolvedHostToNormalizedString("fe80:0:0:1:0:0:0:1")).isEqualTo("[fe80:0:0:1::1]");
        assertThat(NetUtils.unresolvedHostToNormalizedString("1:0:0:2:0:0:3:4")).isEqualTo("[1::2:0:0:3:4]");
        assertThat(NetUtils.unresolvedHostToNormalizedString("2001:db8:0:1:1:1:1:1")).isEqualTo("[2001:db8:0:1:1:1:1:1]");
        assertThat(NetUtils.unresolvedHostToNormalizedString("0:0:0:0:0:0:0:0")).isEqualTo("[::]");
        assertThat(NetUtils.unresolvedHostToNormalizedString(null)).isEqualTo("");
    }

    @Test
    void badHostsAndPortsAreRejected() {
        assertThatThrownBy(() -> NetUtils.unresolvedHostAndPortToNormalizedString("localhost", 70000))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessage("Port is not within the valid range 0..65535: 70000");
        assertThatThrownBy(() -> NetUtils.unresolvedHostToNormalizedString(".example.com"))
                .isExactlyInstanceOf(IllegalConfigurationException.class).hasMessageContaining("'.example.com'");
        assertThatThrownBy(() -> NetUtils.unresolvedHostToNormalizedString("example.com."))
                .isExactlyInstanceOf(IllegalConfigurationException.class);
        assertThatThrownBy(() -> NetUtils.unresolvedHostToNormalizedString("host:8080"))
                .isExactlyInstanceOf(IllegalConfigurationException.class)
                .hasMessageContaining("'host:8080' contains ':' but is not an IPv6 address");
    }
}
