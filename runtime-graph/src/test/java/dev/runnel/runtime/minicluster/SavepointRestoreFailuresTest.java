package dev.runnel.runtime.minicluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.connector.source.util.ratelimit.RateLimiterStrategy;
import dev.runnel.configuration.Configuration;
import dev.runnel.connector.datagen.source.DataGeneratorSource;
import dev.runnel.core.execution.JobClient;
import dev.runnel.core.execution.SavepointFormatType;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.KeyedProcessFunction;
import dev.runnel.streaming.api.functions.sink.SinkFunction;
import dev.runnel.util.Collector;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Restores that cannot work fail with a message that names what is wrong. */
@Timeout(120)
class SavepointRestoreFailuresTest {

    static final AtomicLong PROCESSED = new AtomicLong();

    @TempDir
    Path dir;

    @Test
    void aMissingSavepointFailsTheStartNamingThePath() {
        StreamExecutionEnvironment env = environment(dir.resolve("no-such-savepoint").toString());
        job(env, Types.LONG);
        assertThatThrownBy(() -> env.execute("missing savepoint"))
                .hasStackTraceContaining("no-such-savepoint").hasStackTraceContaining("does not exist");
    }

    @Test
    void aSavepointWithoutMetadataFailsTheStartNamingTheFile() throws Exception {
        Path broken = Files.createDirectories(dir.resolve("savepoint-broken"));
        StreamExecutionEnvironment env = environment(broken.toString());
        job(env, Types.LONG);
        assertThatThrownBy(() -> env.execute("broken savepoint"))
                .hasStackTraceContaining("_metadata");
    }

    @Test
    void aStateWhoseTypeChangedFailsNamingTheStateAndBothTypes() throws Exception {
        PROCESSED.set(0);
        StreamExecutionEnvironment first = environment(null);
        job(first, Types.LONG);
        JobClient client = first.executeAsync("typed state");
        while (PROCESSED.get() < 2_000) {
            Thread.sleep(5);
        }
        String savepoint = client.stopWithSavepoint(false, dir.resolve("savepoints").toString(),
                SavepointFormatType.CANONICAL).get(60, TimeUnit.SECONDS);
        client.getJobExecutionResult().get(60, TimeUnit.SECONDS);

        StreamExecutionEnvironment second = environment(savepoint);
        job(second, Types.STRING);
        assertThatThrownBy(() -> second.execute("changed type"))
                .hasStackTraceContaining("State 'count'")
                .hasStackTraceContaining("LongSerializer")
                .hasStackTraceContaining("StringSerializer");
    }

    private StreamExecutionEnvironment environment(String savepoint) {
        Configuration conf = new Configuration();
        conf.setString("execution.checkpointing.dir", dir.resolve("checkpoints").toString());
        conf.setString("restart-strategy.type", "none");
        if (savepoint != null) {
            conf.setString("execution.state-recovery.path", savepoint);
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        return env;
    }

    /** A keyed job whose state "count" has the type {@code stateType}. */
    private static <S> void job(StreamExecutionEnvironment env, TypeInformation<S> stateType) {
        env.fromSource(new DataGeneratorSource<>(i -> i, 200_000, RateLimiterStrategy.perSecond(20_000), Types.LONG),
                        WatermarkStrategy.noWatermarks(), "numbers").uid("numbers")
                .keyBy(v -> v % 10)
                .process(new KeyedProcessFunction<Long, Long, Long>() {
                    private transient ValueState<S> count;

                    @Override
                    public void open(dev.runnel.api.common.functions.OpenContext context) {
                        count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", stateType));
                    }

                    @Override
                    @SuppressWarnings("unchecked")
                    public void processElement(Long value, Context ctx, Collector<Long> out) throws Exception {
                        PROCESSED.incrementAndGet();
                        if (stateType == Types.LONG) {
                            Long current = (Long) count.value();
                            count.update((S) Long.valueOf(current == null ? 1 : current + 1));
                        } else {
                            count.update((S) "seen");
                        }
                    }
                }).uid("counter")
                .addSink(new SinkFunction<Long>() {}).uid("sink");
    }
}
