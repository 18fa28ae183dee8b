package dev.runnel.streaming.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.java.tuple.Tuple2;
import dev.runnel.configuration.Configuration;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;

/** The embedded runtime with two TaskManagers: the same job gives the same answer, over the network shuffle. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TwoTaskManagersTest {

    @Test
    void aKeyedCountAcrossTwoTaskManagersMatchesTheSequentialAnswer() throws Exception {
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        log.start();
        // By name: the engine's tests may not depend on the network module's classes.
        Logger shuffleLog = (Logger) LoggerFactory.getLogger("dev.runnel.runtime.network.netty.NettyShuffleEnvironment");
        shuffleLog.addAppender(log);
        try {
            Configuration conf = new Configuration().setString("taskmanager.count", "2");
            StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2, conf);
            List<Tuple2<Long, Long>> out = env.fromSequence(0, 99_999)
                    .rebalance()
                    .map(x -> Tuple2.of(x % 97, 1L), Types.TUPLE(Types.LONG, Types.LONG))
                    .keyBy(t -> t.f0, Types.LONG)
                    .sum(1)
                    .executeAndCollect(100_000);
            Map<Long, Long> last = new HashMap<>();
            for (Tuple2<Long, Long> t : out) {
                last.merge(t.f0, t.f1, Math::max);
            }
            assertThat(last).hasSize(97);
            for (long key = 0; key < 97; key++) {
                long expected = (99_999 - key) / 97 + 1;
                assertThat(last.get(key)).as("count of key " + key).isEqualTo(expected);
            }
            assertThat(log.list).as("both TaskManagers started a data server")
                    .anyMatch(e -> e.getFormattedMessage().startsWith("TaskManager tm-0 data server listens on /127.0.0.1:"))
                    .anyMatch(e -> e.getFormattedMessage().startsWith("TaskManager tm-1 data server listens on /127.0.0.1:"));
        } finally {
            shuffleLog.detachAppender(log);
        }
    }
}
