package dev.runnel.runtime.jobgraph;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.runtime.partitioner.DistributionPattern;
import dev.runnel.testutil.ConformanceVectors;
import dev.runnel.testutil.ConformanceVectors.Row;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** Every row of Flink's execution-graph wiring vectors, both patterns, both directions. */
class PointwiseWiringConformanceTest {

    /** Says how many rows were asserted, so a run shows that every row was checked. */
    @AfterAll
    static void reportRowsChecked() {
        System.out.println("conformance: checked rows of the wiring vectors " + ConformanceVectors.rowsRead());
    }

    @Test
    void consumersReadExactlyTheProducersAndSubpartitionsFlinkAssigns() {
        List<Row> rows = ConformanceVectors.read("edges_consumers.tsv");
        for (Row row : rows) {
            DistributionPattern pattern = DistributionPattern.valueOf(row.get("distribution_pattern"));
            int up = row.getInt("upstream_parallelism");
            int down = row.getInt("downstream_parallelism");
            int consumer = row.getInt("downstream_subtask");
            int[] producers = SubtaskWiring.producersOf(pattern, up, down, consumer);
            assertThat(ConformanceVectors.formatIntList(producers)).as(row.toString()).isEqualTo(row.get("upstream_subtasks"));
            for (int producer : producers) {
                int subpartition = SubtaskWiring.subpartitionIndex(pattern, up, down, producer, consumer);
                assertThat(subpartition).as(row + " subpartition from producer " + producer)
                        .isEqualTo(row.getInt("subpartition_start"))
                        .isEqualTo(row.getInt("subpartition_end"));
            }
        }
        assertThat(rows).hasSizeGreaterThan(1000);
    }

    @Test
    void producersFeedExactlyTheConsumersFlinkAssigns() {
        List<Row> rows = ConformanceVectors.read("edges_producers.tsv");
        for (Row row : rows) {
            DistributionPattern pattern = DistributionPattern.valueOf(row.get("distribution_pattern"));
            int up = row.getInt("upstream_parallelism");
            int down = row.getInt("downstream_parallelism");
            int producer = row.getInt("upstream_subtask");
            int[] consumers = SubtaskWiring.consumersOf(pattern, up, down, producer);
            assertThat(ConformanceVectors.formatIntList(consumers)).as(row.toString()).isEqualTo(row.get("downstream_subtasks"));
            assertThat(consumers.length).as(row.toString()).isEqualTo(row.getInt("number_of_subpartitions"));
            int[] bySubpartition = SubtaskWiring.consumersBySubpartition(pattern, up, down, producer);
            for (int k = 0; k < bySubpartition.length; k++) {
                assertThat(SubtaskWiring.subpartitionIndex(pattern, up, down, producer, bySubpartition[k]))
                        .as(row + " subpartition " + k).isEqualTo(k);
            }
        }
        assertThat(rows).hasSizeGreaterThan(1000);
    }

    @Test
    void theIssueExamples() {
        DistributionPattern p = DistributionPattern.POINTWISE;
        assertThat(SubtaskWiring.consumersOf(p, 2, 4, 0)).containsExactly(0, 1);
        assertThat(SubtaskWiring.consumersOf(p, 2, 4, 1)).containsExactly(2, 3);
        assertThat(SubtaskWiring.producersOf(p, 4, 2, 0)).containsExactly(0, 1);
        assertThat(SubtaskWiring.producersOf(p, 4, 2, 1)).containsExactly(2, 3);
    }
}
