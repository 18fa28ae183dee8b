package dev.runnel.core.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.configuration.MemorySize;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class PathTest {

    @Test
    void localPathsAndFileUrisNameLocalFiles() {
        assertThat(new Path("/tmp/in/a.txt").toLocalPath()).isEqualTo(Paths.get("/tmp/in/a.txt"));
        assertThat(new Path("file:///tmp/in/a.txt").toLocalPath()).isEqualTo(Paths.get("/tmp/in/a.txt"));
        assertThat(new Path("relative/x").toLocalPath()).isEqualTo(Paths.get("relative/x"));
        assertThat(new Path("/tmp/in/").getName()).isEqualTo("in");
        assertThat(new Path("/tmp/in/a.txt").getName()).isEqualTo("a.txt");
        assertThat(new Path(new Path("/tmp/in"), "b").toString()).isEqualTo("/tmp/in/b");
        assertThat(new Path("/tmp/x")).isEqualTo(new Path("/tmp/x")).hasSameHashCodeAs(new Path("/tmp/x"));
        assertThat(new Path("/tmp/x").toUri().getScheme()).isEqualTo("file");
    }

    @Test
    void otherSchemesAndEmptyPathsAreRejected() {
        assertThatThrownBy(() -> new Path("hdfs://nn/data").toLocalPath()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("hdfs://nn/data").hasMessageContaining("hdfs");
        assertThatThrownBy(() -> new Path("")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void memorySizeValues() {
        assertThat(MemorySize.ofMebiBytes(2).getBytes()).isEqualTo(2L << 20);
        assertThat(MemorySize.parse("3 kb")).isEqualTo(MemorySize.ofKibiBytes(3));
        assertThat(MemorySize.parseBytes("1g")).isEqualTo(1L << 30);
        assertThatThrownBy(() -> MemorySize.ofBytes(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
