package dev.runnel.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.java.tuple.Tuple2;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.util.Collector;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Keeps the README honest: its word-count example compiles, and its explain output is what the code gives. */
class ReadmeTest {

    /** The README's example, with parallelism 2 as the README says. */
    static StreamExecutionEnvironment readmeWordCount() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        env.fromElements("to be or not to be")
                .flatMap((String line, Collector<Tuple2<String, Integer>> out) -> {
                    for (String word : line.split(" ")) {
                        out.collect(Tuple2.of(word, 1));
                    }
                })
                .returns(Types.TUPLE(Types.STRING, Types.INT))
                .keyBy(pair -> pair.f0)
                .sum(1)
                .print();
        return env;
    }

    @Test
    void theReadmeShowsTheRealExplainOutput() throws Exception {
        String readme = Files.readString(readmePath());
        String plan = readmeWordCount().getExecutionPlan();
        assertThat(readme).as("README.md must contain the current getExecutionPlan() of its word count")
                .contains(plan);
    }

    private static Path readmePath() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.exists(p.resolve("README.md")) && Files.isDirectory(p.resolve("runtime-core"))) {
                return p.resolve("README.md");
            }
        }
        throw new IllegalStateException("README.md not found above " + Path.of("").toAbsolutePath());
    }

    /** Prints the plan, to paste into the README when the compiler's output changes. */
    public static void main(String[] args) {
        System.out.println(readmeWordCount().getExecutionPlan());
    }
}
