package dev.runnel.runtime.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.runtime.state.snapshot.FileStateHandle;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class DefaultSharedStateRegistryTest {

    private static final SharedStateRegistryKey KEY = SharedStateRegistryKey.forFile("backend", "000007.sst");

    @TempDir
    Path tmp;

    private FileStateHandle file(String name) throws IOException {
        return new FileStateHandle(Files.write(tmp.resolve(name), new byte[] {1, 2, 3}), 3);
    }

    @Test
    void theFirstHandleWinsAndASecondUploadIsDeleted() throws IOException {
        DefaultSharedStateRegistry registry = new DefaultSharedStateRegistry();
        FileStateHandle first = file("first");
        FileStateHandle second = file("second");
        assertThat(registry.registerReference(KEY, first, 1)).isSameAs(first);
        assertThat(registry.registerReference(KEY, first, 2)).isSameAs(first);
        assertThat(registry.registerReference(KEY, second, 3)).isSameAs(first);
        assertThat(second.getFilePath()).doesNotExist();
        assertThat(first.getFilePath()).exists();
        assertThat(registry.getRegisteredHandle(KEY)).isSameAs(first);
        assertThat(registry.size()).isEqualTo(1);
    }

    @Test
    void anEqualHandleIsTheSamePieceAndIsNotDeleted() throws IOException {
        // What a checkpoint loaded again from its metadata brings: new objects for the same files.
        DefaultSharedStateRegistry registry = new DefaultSharedStateRegistry();
        FileStateHandle first = file("sst");
        FileStateHandle again = new FileStateHandle(first.getFilePath(), 3);
        assertThat(registry.registerReference(KEY, first, 1)).isSameAs(first);
        assertThat(registry.registerReference(KEY, again, 2)).isSameAs(first);
        assertThat(first.getFilePath()).exists();
    }

    @Test
    void unusedStateIsDeletedByLastUse() throws IOException {
        DefaultSharedStateRegistry registry = new DefaultSharedStateRegistry();
        FileStateHandle a = file("a");
        FileStateHandle b = file("b");
        SharedStateRegistryKey keyB = SharedStateRegistryKey.forFile("backend", "b");
        registry.registerReference(KEY, a, 1);
        registry.registerReference(keyB, b, 1);
        registry.registerReference(keyB, b, 3); // still used by checkpoint 3

        registry.unregisterUnusedState(2);
        assertThat(a.getFilePath()).doesNotExist();
        assertThat(b.getFilePath()).exists();
        assertThat(registry.getRegisteredHandle(KEY)).isNull();

        registry.unregisterUnusedState(3);
        assertThat(b.getFilePath()).exists();
        registry.unregisterUnusedState(4);
        assertThat(b.getFilePath()).doesNotExist();
        assertThat(registry.size()).isZero();
    }

    @Test
    void afterCloseNothingIsDeleted() throws IOException {
        DefaultSharedStateRegistry registry = new DefaultSharedStateRegistry();
        FileStateHandle a = file("a");
        FileStateHandle duplicate = file("dup");
        registry.registerReference(KEY, a, 1);
        registry.close();
        registry.unregisterUnusedState(10);
        assertThat(registry.registerReference(KEY, duplicate, 2)).isSameAs(a);
        assertThat(a.getFilePath()).exists();
        assertThat(duplicate.getFilePath()).exists();
    }
}
