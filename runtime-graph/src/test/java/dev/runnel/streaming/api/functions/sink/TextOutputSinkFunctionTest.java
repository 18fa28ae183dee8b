package dev.runnel.streaming.api.functions.sink;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OVERWRITE layout change of {@code writeAsText} when its subtasks open at the same moment, as they do on
 * two TaskManagers: a file left by a parallelism-1 run must give way to a directory however the subtasks'
 * removals and directory creations interleave.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TextOutputSinkFunctionTest {

    @TempDir
    Path dir;

    @Test
    void subtasksOpeningTogetherReplaceAFileWithTheirDirectory() throws Exception {
        for (int parallelism : new int[] {2, 3}) {
            ExecutorService subtasks = Executors.newFixedThreadPool(parallelism);
            try {
                for (int round = 0; round < 300; round++) {
                    Path out = dir.resolve("out-" + parallelism + "-" + round);
                    Files.writeString(out, "left by a parallelism-1 run\n");
                    openTogether(out, parallelism, subtasks);
                    assertThat(Files.isDirectory(out)).as("round %d", round).isTrue();
                    try (var files = Files.list(out)) {
                        List<String> names = files.map(f -> f.getFileName().toString()).sorted().toList();
                        assertThat(names).as("round %d", round).isEqualTo(
                                IntStream.rangeClosed(1, parallelism).mapToObj(Integer::toString).toList());
                    }
                    for (int i = 1; i <= parallelism; i++) {
                        assertThat(Files.readAllLines(out.resolve(Integer.toString(i)))).containsExactly("subtask " + (i - 1));
                    }
                }
            } finally {
                subtasks.shutdownNow();
            }
        }
    }

    @Test
    void aDirectoryGivesWayToTheFileOfParallelismOne() throws Exception {
        Path out = dir.resolve("out");
        Files.createDirectories(out.resolve("nested"));
        Files.writeString(out.resolve("1"), "old\n");
        Files.writeString(out.resolve("nested").resolve("x"), "old\n");
        try (BufferedWriter writer = TextOutputSinkFunction.openWriter(out.toString(), 0, 1, true)) {
            writer.write("new\n");
        }
        assertThat(Files.readAllLines(out)).containsExactly("new");
    }

    private static void openTogether(Path out, int parallelism, ExecutorService subtasks) throws Exception {
        CyclicBarrier start = new CyclicBarrier(parallelism);
        List<Future<?>> opened = new ArrayList<>();
        for (int index = 0; index < parallelism; index++) {
            int subtask = index;
            opened.add(subtasks.submit(() -> {
                start.await();
                try (BufferedWriter writer = TextOutputSinkFunction.openWriter(out.toString(), subtask, parallelism, true)) {
                    writer.write("subtask " + subtask + "\n");
                }
                return null;
            }));
        }
        for (Future<?> f : opened) {
            f.get(10, TimeUnit.SECONDS); // rethrows what a subtask's open threw
        }
    }
}
