package dev.runnel.examples.wordcount;

import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.api.common.functions.FlatMapFunction;
import dev.runnel.api.java.tuple.Tuple2;
import dev.runnel.connector.file.src.FileSource;
import dev.runnel.connector.file.src.reader.TextLineInputFormat;
import dev.runnel.core.fs.Path;
import dev.runnel.streaming.api.datastream.DataStream;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.util.Collector;
import java.util.Locale;

/**
 * Counts words, the classic streaming example: every line is split into lower-case words, and a
 * running count per word is printed as {@code (word,count)} each time the word occurs.
 *
 * <pre>
 *   WordCount                  counts a built-in text
 *   WordCount --input PATH     counts the lines of a file or of every file in a directory
 *   WordCount --parallelism N  (default: the environment's, e.g. bin/runnel run -p N)
 * </pre>
 */
public final class WordCount {

    /** The text counted when no input is given. */
    public static final String[] TEXT = {
        "To be, or not to be, that is the question:",
        "Whether 'tis nobler in the mind to suffer",
        "The slings and arrows of outrageous fortune,",
        "Or to take arms against a sea of troubles",
        "And by opposing end them. To die - to sleep,",
        "No more; and by a sleep to say we end",
        "The heart-ache and the thousand natural shocks",
        "That flesh is heir to: 'tis a consummation",
        "Devoutly to be wish'd."
    };

    private WordCount() {}

    public static void main(String[] args) throws Exception {
        String input = null;
        int parallelism = 0;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--input" -> input = value(args, ++i, "--input");
                case "--parallelism" -> parallelism = Integer.parseInt(value(args, ++i, "--parallelism"));
                default -> {
                    System.err.println("Unknown argument '" + args[i] + "'. Usage: WordCount [--input PATH] [--parallelism N]");
                    System.exit(2);
                }
            }
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        if (parallelism > 0) {
            env.setParallelism(parallelism); // else the environment's default: the cores here, -p on a cluster
        }
        DataStream<String> lines = input == null
                ? env.fromElements(TEXT).name("built-in text")
                : env.fromSource(FileSource.forRecordStreamFormat(new TextLineInputFormat(), new Path(input)).build(),
                        WatermarkStrategy.noWatermarks(), "file " + input);
        counts(lines).print().name("print");
        env.execute("WordCount");
    }

    /** The running count of every word in {@code lines}. */
    public static DataStream<Tuple2<String, Integer>> counts(DataStream<String> lines) {
        return lines.flatMap(new Tokenizer()).name("tokenize")
                .keyBy(pair -> pair.f0)
                .sum(1).name("count");
    }

    private static String value(String[] args, int i, String flag) {
        if (i >= args.length) {
            System.err.println(flag + " needs a value");
            System.exit(2);
        }
        return args[i];
    }

    /** Splits a line into lower-case words, emitting {@code (word, 1)}. */
    public static final class Tokenizer implements FlatMapFunction<String, Tuple2<String, Integer>> {
        @Override
        public void flatMap(String line, Collector<Tuple2<String, Integer>> out) {
            for (String word : line.toLowerCase(Locale.ROOT).split("\\W+")) {
                if (!word.isEmpty()) {
                    out.collect(Tuple2.of(word, 1));
                }
            }
        }
    }
}
