package dev.runnel.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import dev.runnel.api.java.functions.KeySelector;
import dev.runnel.runtime.partitioner.BroadcastPartitioner;
import dev.runnel.runtime.partitioner.CustomPartitionerWrapper;
import dev.runnel.runtime.partitioner.ForwardForConsecutiveHashPartitioner;
import dev.runnel.runtime.partitioner.ForwardForUnspecifiedPartitioner;
import dev.runnel.runtime.partitioner.ForwardPartitioner;
import dev.runnel.runtime.partitioner.GlobalPartitioner;
import dev.runnel.runtime.partitioner.KeyGroupStreamPartitioner;
import dev.runnel.runtime.partitioner.RebalancePartitioner;
import dev.runnel.runtime.partitioner.RescalePartitioner;
import dev.runnel.runtime.partitioner.ShufflePartitioner;
import dev.runnel.runtime.partitioner.StreamPartitioner;
import dev.runnel.runtime.rescale.RescaleMappings;
import dev.runnel.runtime.rescale.SubtaskStateMapper;
import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyGroupRangeAssignment;
import dev.runnel.testutil.ConformanceVectors;
import dev.runnel.testutil.ConformanceVectors.Row;
import dev.runnel.util.MathUtils;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Asserts every row of the kernel's conformance vectors, produced by Apache Flink 1.20.5 itself.
 * The pointwise wiring files ({@code edges_*.tsv}) are asserted by the job compiler's tests in
 * runtime-graph; {@link #everyVectorFileIsCovered()} makes sure no file goes untested.
 */
class KernelConformanceTest {

    /** Files asserted here. */
    private static final Set<String> CORE_FILES = Set.of(
            "murmur_hash.tsv", "key_groups.tsv", "key_operator_index.tsv", "key_group_ranges.tsv",
            "operator_index_for_key_group.tsv", "default_max_parallelism.tsv", "subtask_state_mapper.tsv",
            "rescale_mappings.tsv", "partitioner_channels.tsv", "keyed_partitioner_channels.tsv",
            "partitioner_properties.tsv");

    /** Files asserted by runtime-graph's PointwiseWiringConformanceTest. */
    private static final Set<String> GRAPH_FILES = Set.of("edges_consumers.tsv", "edges_producers.tsv");

    /** Says how many rows were asserted, per file, so a run shows that every row was checked. */
    @AfterAll
    static void reportRowsChecked() {
        Map<String, Integer> read = ConformanceVectors.rowsRead();
        int total = read.values().stream().mapToInt(Integer::intValue).sum();
        System.out.println("conformance: checked " + total + " rows of " + read.size() + " Flink vector files " + read);
    }

    @Test
    void everyVectorFileIsCovered() {
        Set<String> uncovered = new TreeSet<>(ConformanceVectors.files());
        uncovered.removeAll(CORE_FILES);
        uncovered.removeAll(GRAPH_FILES);
        assertThat(uncovered).as("conformance files no test asserts").isEmpty();
        assertThat(ConformanceVectors.files()).containsAll(CORE_FILES).containsAll(GRAPH_FILES);
    }

    @Test
    void murmurHash() {
        List<Row> rows = ConformanceVectors.read("murmur_hash.tsv");
        for (Row row : rows) {
            assertThat(MathUtils.murmurHash(row.getInt("input"))).as(row.toString()).isEqualTo(row.getInt("murmur_hash"));
        }
        assertThat(rows).hasSizeGreaterThan(100);
    }

    @Test
    void keyGroups() {
        for (Row row : ConformanceVectors.read("key_groups.tsv")) {
            Object key = key(row);
            assertThat(key.hashCode()).as(row.toString()).isEqualTo(row.getInt("key_hash_code"));
            assertThat(MathUtils.murmurHash(key.hashCode())).as(row.toString()).isEqualTo(row.getInt("murmur_hash"));
            assertThat(KeyGroupRangeAssignment.assignToKeyGroup(key, row.getInt("max_parallelism")))
                    .as(row.toString()).isEqualTo(row.getInt("key_group"));
        }
    }

    @Test
    void keyOperatorIndex() {
        for (Row row : ConformanceVectors.read("key_operator_index.tsv")) {
            int actual = KeyGroupRangeAssignment.assignKeyToParallelOperator(
                    key(row), row.getInt("max_parallelism"), row.getInt("parallelism"));
            assertThat(actual).as(row.toString()).isEqualTo(row.getInt("operator_index"));
        }
    }

    @Test
    void keyGroupRanges() {
        for (Row row : ConformanceVectors.read("key_group_ranges.tsv")) {
            KeyGroupRange range = KeyGroupRangeAssignment.computeKeyGroupRangeForOperatorIndex(
                    row.getInt("max_parallelism"), row.getInt("parallelism"), row.getInt("operator_index"));
            assertThat(range.getStartKeyGroup()).as(row.toString()).isEqualTo(row.getInt("start_key_group"));
            assertThat(range.getEndKeyGroup()).as(row.toString()).isEqualTo(row.getInt("end_key_group"));
            assertThat(range.getNumberOfKeyGroups()).as(row.toString()).isEqualTo(row.getInt("number_of_key_groups"));
        }
    }

    @Test
    void operatorIndexForKeyGroup() {
        for (Row row : ConformanceVectors.read("operator_index_for_key_group.tsv")) {
            int actual = KeyGroupRangeAssignment.computeOperatorIndexForKeyGroup(
                    row.getInt("max_parallelism"), row.getInt("parallelism"), row.getInt("key_group"));
            assertThat(actual).as(row.toString()).isEqualTo(row.getInt("operator_index"));
        }
    }

    @Test
    void defaultMaxParallelism() {
        for (Row row : ConformanceVectors.read("default_max_parallelism.tsv")) {
            int parallelism = row.getInt("parallelism");
            if (row.isAbsent("exception")) {
                assertThat(KeyGroupRangeAssignment.computeDefaultMaxParallelism(parallelism))
                        .as(row.toString()).isEqualTo(row.getInt("default_max_parallelism"));
            } else {
                assertThrowsClass(row, () -> KeyGroupRangeAssignment.computeDefaultMaxParallelism(parallelism));
            }
        }
    }

    @Test
    void subtaskStateMapper() {
        for (Row row : ConformanceVectors.read("subtask_state_mapper.tsv")) {
            SubtaskStateMapper mapper = SubtaskStateMapper.valueOf(row.get("mapper"));
            assertThat(mapper.isAmbiguous()).as(row.toString()).isEqualTo(row.getBoolean("is_ambiguous"));
            int oldP = row.getInt("old_parallelism");
            int newP = row.getInt("new_parallelism");
            int index = row.getInt("new_subtask_index");
            if (row.isAbsent("exception")) {
                assertThat(ConformanceVectors.formatIntList(mapper.getOldSubtasks(index, oldP, newP)))
                        .as(row.toString()).isEqualTo(row.get("old_subtasks"));
            } else {
                assertThrowsClass(row, () -> mapper.getOldSubtasks(index, oldP, newP));
            }
        }
    }

    @Test
    void rescaleMappings() {
        for (Row row : ConformanceVectors.read("rescale_mappings.tsv")) {
            SubtaskStateMapper mapper = SubtaskStateMapper.valueOf(row.get("mapper"));
            int oldP = row.getInt("old_parallelism");
            int newP = row.getInt("new_parallelism");
            if (!row.isAbsent("exception")) {
                assertThrowsClass(row, () -> mapper.getNewToOldSubtasksMapping(oldP, newP));
                continue;
            }
            RescaleMappings mapping = mapper.getNewToOldSubtasksMapping(oldP, newP);
            assertThat(allMapped(mapping, newP)).as(row.toString()).isEqualTo(row.getIntListList("new_to_old"));
            assertThat(allMapped(mapping.invert(), oldP)).as(row.toString()).isEqualTo(row.getIntListList("old_to_new"));
            assertThat(ConformanceVectors.formatIntList(mapping.getAmbiguousTargets()))
                    .as(row.toString()).isEqualTo(row.get("ambiguous_old_subtasks"));
            assertThat(mapping.isIdentity()).as(row.toString()).isEqualTo(row.getBoolean("is_identity"));
        }
    }

    @Test
    void partitionerChannels() {
        StreamPartitioner<Object> current = null;
        String currentGroup = null;
        int checked = 0;
        for (Row row : ConformanceVectors.read("partitioner_channels.tsv")) {
            String group = row.get("partitioner") + "/" + row.get("num_channels") + "/" + row.get("initial_state");
            if (!group.equals(currentGroup)) {
                assertThat(row.getInt("record_index")).as("a sequence starts at record 0: " + row).isZero();
                current = freshPartitioner(row);
                currentGroup = group;
            }
            assertThat(current.selectChannel("record-" + row.get("record_index"))).as(row.toString())
                    .isEqualTo(row.getInt("channel"));
            checked++;
        }
        assertThat(checked).isGreaterThan(1000);
    }

    @Test
    void keyedPartitionerChannels() {
        Map<Integer, StreamPartitioner<String>> byChannels = new java.util.HashMap<>();
        for (Row row : ConformanceVectors.read("keyed_partitioner_channels.tsv")) {
            int maxParallelism = row.getInt("max_parallelism");
            int channels = row.getInt("num_channels");
            StreamPartitioner<String> partitioner = byChannels.computeIfAbsent(channels, n -> {
                KeySelector<String, String> identity = s -> s;
                StreamPartitioner<String> p = new KeyGroupStreamPartitioner<>(identity, maxParallelism);
                p.setup(n);
                return p;
            });
            assertThat(partitioner.selectChannel(row.get("key"))).as(row.toString()).isEqualTo(row.getInt("channel"));
        }
    }

    @Test
    void partitionerProperties() {
        List<Row> rows = ConformanceVectors.read("partitioner_properties.tsv");
        for (Row row : rows) {
            StreamPartitioner<Object> p = partitionerByFlinkClass(row.get("partitioner_class"));
            assertThat(p.toString()).as(row.toString()).isEqualTo(row.get("to_string"));
            assertThat(p.isPointwise()).as(row.toString()).isEqualTo(row.getBoolean("is_pointwise"));
            assertThat(p.isBroadcast()).as(row.toString()).isEqualTo(row.getBoolean("is_broadcast"));
            assertThat(p.getDistributionPattern().name()).as(row.toString()).isEqualTo(row.get("distribution_pattern"));
            assertMapper(row, "upstream_subtask_state_mapper", p::getUpstreamSubtaskStateMapper);
            assertMapper(row, "downstream_subtask_state_mapper", p::getDownstreamSubtaskStateMapper);
            assertThat(p.isSupportsUnalignedCheckpoint()).as(row.toString())
                    .isEqualTo(row.getBoolean("supports_unaligned_checkpoint"));
        }
        assertThat(rows).hasSize(10);
    }

    private static void assertMapper(Row row, String column, Supplier<SubtaskStateMapper> mapper) {
        String expected = row.get(column);
        if (expected.startsWith("EXCEPTION:")) {
            String exceptionClass = expected.substring("EXCEPTION:".length());
            assertThatThrownBy(mapper::get).as(row.toString())
                    .satisfies(t -> assertThat(t.getClass().getName()).isEqualTo(exceptionClass));
        } else {
            assertThat(mapper.get().name()).as(row + " " + column).isEqualTo(expected);
        }
    }

    private static StreamPartitioner<Object> partitionerByFlinkClass(String flinkClass) {
        KeySelector<Object, Object> identity = o -> o;
        return switch (flinkClass) {
            case "ForwardPartitioner" -> new ForwardPartitioner<>();
            case "RebalancePartitioner" -> new RebalancePartitioner<>();
            case "RescalePartitioner" -> new RescalePartitioner<>();
            case "ShufflePartitioner" -> new ShufflePartitioner<>();
            case "BroadcastPartitioner" -> new BroadcastPartitioner<>();
            case "GlobalPartitioner" -> new GlobalPartitioner<>();
            case "KeyGroupStreamPartitioner" -> new KeyGroupStreamPartitioner<>(identity, 128);
            case "CustomPartitionerWrapper" -> new CustomPartitionerWrapper<Object, Object>((k, n) -> 0, identity);
            case "ForwardForUnspecifiedPartitioner" -> new ForwardForUnspecifiedPartitioner<>();
            case "ForwardForConsecutiveHashPartitioner" ->
                    new ForwardForConsecutiveHashPartitioner<>(new KeyGroupStreamPartitioner<>(identity, 128));
            default -> throw new AssertionError("Runnel has no counterpart of Flink's " + flinkClass);
        };
    }

    private static StreamPartitioner<Object> freshPartitioner(Row row) {
        int channels = row.getInt("num_channels");
        StreamPartitioner<Object> p = switch (row.get("partitioner")) {
            case "REBALANCE" -> new RebalancePartitioner<>();
            case "RESCALE" -> new RescalePartitioner<>();
            case "GLOBAL" -> new GlobalPartitioner<>();
            case "FORWARD" -> new ForwardPartitioner<>();
            default -> throw new AssertionError("unknown partitioner in " + row);
        };
        p.setup(channels);
        if (p instanceof RebalancePartitioner<Object> rebalance) {
            rebalance.setCursor(row.getInt("initial_state"));
        }
        return p;
    }

    private static int[][] allMapped(RescaleMappings mapping, int sources) {
        List<int[]> all = new ArrayList<>();
        for (int i = 0; i < sources; i++) {
            all.add(mapping.getMappedIndexes(i));
        }
        return all.toArray(new int[0][]);
    }

    private static Object key(Row row) {
        String text = row.get("key");
        return switch (row.get("key_type")) {
            case "String" -> text;
            case "Integer" -> Integer.valueOf(text);
            case "Long" -> Long.valueOf(text);
            default -> throw new AssertionError("unknown key type in " + row);
        };
    }

    private static void assertThrowsClass(Row row, Runnable call) {
        String expected = row.get("exception");
        try {
            call.run();
        } catch (RuntimeException e) {
            assertThat(e.getClass().getName()).as(row.toString()).isEqualTo(expected);
            assertThat(e.getMessage()).as("an exception must explain itself: " + row).isNotBlank();
            return;
        }
        fail("expected %s for %s", expected, row);
    }
}
