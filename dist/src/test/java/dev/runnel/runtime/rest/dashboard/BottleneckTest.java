package dev.runnel.runtime.rest.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.runtime.dispatcher.DispatcherGateway.EdgeDetails;
import dev.runnel.runtime.dispatcher.DispatcherGateway.VertexDetails;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The rule of {@link Bottleneck}, case by case. */
class BottleneckTest {

    private static VertexDetails v(String id, String name, double busy, double backPressured) {
        return new VertexDetails(id, name, 1, 128, "RUNNING", List.of(name), List.of("RUNNING"), 0, 0, 0, 0, 0, 0,
                busy, backPressured);
    }

    private static EdgeDetails e(String from, String to) {
        return new EdgeDetails(from, to, "HASH", "ALL_TO_ALL");
    }

    private static String sentence(List<VertexDetails> vertices, List<EdgeDetails> edges) {
        return Bottleneck.find(vertices, edges).map(Bottleneck.Found::sentence).orElse(Bottleneck.NONE);
    }

    @Test
    void busyVertexBehindABackpressuredInput() {
        assertThat(sentence(List.of(v("a", "Source", 0.1, 0.6), v("b", "Flat Map", 0.3, 0.88),
                v("c", "Sum", 0.97, 0.02)), List.of(e("a", "b"), e("b", "c"))))
                .isEqualTo("'Sum' is the bottleneck: busy 97%, its input 'Flat Map' backpressured 88%");
    }

    @Test
    void aVertexThatIsItselfBackpressuredIsNotTheBottleneck() {
        // b is busy but waits on c: c is the slow one
        assertThat(sentence(List.of(v("a", "A", 0.1, 0.9), v("b", "B", 0.8, 0.7), v("c", "C", 0.6, 0.0)),
                List.of(e("a", "b"), e("b", "c")))).isEqualTo("'C' is the bottleneck: busy 60%, its input 'B'"
                + " backpressured 70%");
    }

    @Test
    void busyWithoutBackpressuredInputOrBackpressureWithoutBusyIsNone() {
        assertThat(sentence(List.of(v("a", "A", 0.2, 0.1), v("b", "B", 0.99, 0.0)), List.of(e("a", "b"))))
                .isEqualTo(Bottleneck.NONE);
        assertThat(sentence(List.of(v("a", "A", 0.2, 0.9), v("b", "B", 0.49, 0.0)), List.of(e("a", "b"))))
                .isEqualTo(Bottleneck.NONE);
        assertThat(sentence(List.of(v("a", "A", 0.99, 0.0)), List.of())).as("a source has no input")
                .isEqualTo(Bottleneck.NONE);
    }

    @Test
    void thresholdsAreInclusive() {
        assertThat(Bottleneck.find(List.of(v("a", "A", 0, 0.5), v("b", "B", 0.5, 0.0)), List.of(e("a", "b"))))
                .isPresent();
    }

    @Test
    void theBusierCandidateWinsThenTheMoreBackpressuredInput() {
        List<VertexDetails> vs = List.of(v("a", "A", 0, 0.9), v("x", "X", 0.7, 0), v("b", "B", 0, 0.6),
                v("y", "Y", 0.9, 0), v("c", "C", 0, 0.95), v("z", "Z", 0.9, 0));
        assertThat(sentence(vs, List.of(e("a", "x"), e("b", "y"), e("c", "z"))))
                .isEqualTo("'Z' is the bottleneck: busy 90%, its input 'C' backpressured 95%");
    }

    @Test
    void theMostBackpressuredOfSeveralInputsIsNamed() {
        assertThat(sentence(List.of(v("a", "Left", 0, 0.55), v("b", "Right", 0, 0.75), v("j", "Join", 0.8, 0)),
                List.of(e("a", "j"), e("b", "j")))).endsWith("its input 'Right' backpressured 75%");
    }
}
