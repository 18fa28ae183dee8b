package dev.runnel.util;

import static dev.runnel.util.Preconditions.checkArgument;
import static dev.runnel.util.Preconditions.checkCompletedNormally;
import static dev.runnel.util.Preconditions.checkElementIndex;
import static dev.runnel.util.Preconditions.checkNotNull;
import static dev.runnel.util.Preconditions.checkState;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class PreconditionsTest {

    @Test
    void checkNotNullReturnsTheReference() {
        String value = "x";
        assertThat(checkNotNull(value)).isSameAs(value);
        assertThat(checkNotNull(value, "msg")).isSameAs(value);
        assertThat(checkNotNull(value, "msg %s", 1)).isSameAs(value);
    }

    @Test
    void checkNotNullMessages() {
        assertThatThrownBy(() -> checkNotNull(null)).isExactlyInstanceOf(NullPointerException.class).hasMessage(null);
        assertThatThrownBy(() -> checkNotNull(null, "source must not be null"))
                .isExactlyInstanceOf(NullPointerException.class).hasMessage("source must not be null");
        assertThatThrownBy(() -> checkNotNull(null, "field %s of %s", "f0", "Tuple2"))
                .hasMessage("field f0 of Tuple2");
    }

    @Test
    void templatesFillInOrderAndKeepWhatTheyCannotFill() {
        assertThat(Preconditions.format("a %s b %s", 1, 2)).isEqualTo("a 1 b 2");
        assertThat(Preconditions.format("a %s", 1, 2, 3)).isEqualTo("a 1 [2, 3]");
        assertThat(Preconditions.format("a %s b %s", 1)).isEqualTo("a 1 b %s");
        assertThat(Preconditions.format("%d is not %s", 7)).isEqualTo("%d is not 7");
        assertThat(Preconditions.format(null, "x")).isEqualTo("null [x]");
        assertThat(Preconditions.format("no args", (Object[]) null)).isEqualTo("no args");
        assertThat(Preconditions.format("%s", (Object) null)).isEqualTo("null");
    }

    @Test
    void checkArgumentOverloads() {
        checkArgument(true);
        checkArgument(true, "unused");
        checkArgument(true, "unused %s", 1);
        assertThatThrownBy(() -> checkArgument(false)).isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessage(null);
        assertThatThrownBy(() -> checkArgument(false, (Object) 42)).hasMessage("42");
        assertThatThrownBy(() -> checkArgument(false, "parallelism must be positive, was %s", -1))
                .isExactlyInstanceOf(IllegalArgumentException.class).hasMessage("parallelism must be positive, was -1");
    }

    @Test
    void checkStateOverloads() {
        checkState(true);
        assertThatThrownBy(() -> checkState(false)).isExactlyInstanceOf(IllegalStateException.class).hasMessage(null);
        assertThatThrownBy(() -> checkState(false, "not open")).isExactlyInstanceOf(IllegalStateException.class)
                .hasMessage("not open");
        assertThatThrownBy(() -> checkState(false, "task %s is %s", "map (1/2)", "CANCELED"))
                .hasMessage("task map (1/2) is CANCELED");
    }

    @Test
    void checkElementIndexBounds() {
        checkElementIndex(0, 1);
        checkElementIndex(4, 5);
        assertThatThrownBy(() -> checkElementIndex(5, 5)).isExactlyInstanceOf(IndexOutOfBoundsException.class)
                .hasMessage("Index: 5, Size: 5");
        assertThatThrownBy(() -> checkElementIndex(-1, 5)).hasMessage("Index: -1, Size: 5");
        assertThatThrownBy(() -> checkElementIndex(2, 2, "field")).hasMessage("field Index: 2, Size: 2");
        assertThatThrownBy(() -> checkElementIndex(0, -1)).isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessage("Size was negative.");
    }

    @Test
    void checkCompletedNormallyAcceptsOnlyAValue() {
        checkCompletedNormally(CompletableFuture.completedFuture("done"));
        assertThatThrownBy(() -> checkCompletedNormally(new CompletableFuture<>()))
                .isExactlyInstanceOf(IllegalStateException.class).hasMessageContaining("not completed yet");
        IOException cause = new IOException("disk full");
        assertThatThrownBy(() -> checkCompletedNormally(CompletableFuture.failedFuture(cause)))
                .isExactlyInstanceOf(IllegalStateException.class)
                .hasMessage("The future did not complete normally: java.io.IOException: disk full").hasCause(cause);
        CompletableFuture<Object> cancelled = new CompletableFuture<>();
        cancelled.cancel(false);
        assertThatThrownBy(() -> checkCompletedNormally(cancelled)).isExactlyInstanceOf(IllegalStateException.class);
    }
}
