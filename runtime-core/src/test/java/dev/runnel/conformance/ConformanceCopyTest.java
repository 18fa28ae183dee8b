package dev.runnel.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.testutil.ConformanceVectors;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The repository's copy of the conformance vectors must equal the reference copy in {@code ../shared/conformance}
 * byte for byte wherever that folder exists beside the clone; on a bare clone there is nothing to compare with
 * and the test says so and passes (the copy itself is still asserted row by row by {@link KernelConformanceTest}).
 */
class ConformanceCopyTest {

    @Test
    void repositoryCopyEqualsTheSharedReferenceByteForByte() throws IOException {
        Path reference = referenceFolder();
        if (!Files.isDirectory(reference)) {
            System.out.println("conformance: no reference copy at " + reference + ", nothing to compare");
            return;
        }
        List<String> referenceFiles;
        try (Stream<Path> list = Files.list(reference)) {
            referenceFiles = list.map(p -> p.getFileName().toString()).sorted().toList();
        }
        assertThat(ConformanceVectors.allFiles())
                .as("files in runtime-core/src/test/resources/conformance against " + reference)
                .containsExactlyElementsOf(referenceFiles);
        for (String name : referenceFiles) {
            assertThat(ConformanceVectors.bytes(name))
                    .as(name + " differs from " + reference.resolve(name) + "; copy the reference over the repository's file")
                    .isEqualTo(Files.readAllBytes(reference.resolve(name)));
        }
        System.out.println("conformance: " + referenceFiles.size() + " files identical to " + reference);
    }

    /** {@code ../shared/conformance} relative to the repository root (surefire passes it as {@code runnel.root}). */
    private static Path referenceFolder() {
        String root = System.getProperty("runnel.root");
        Path repository = root == null || root.isBlank() || root.contains("${")
                ? Paths.get("").toAbsolutePath().getParent()
                : Paths.get(root).toAbsolutePath();
        return repository.normalize().resolveSibling("shared").resolve("conformance");
    }
}
