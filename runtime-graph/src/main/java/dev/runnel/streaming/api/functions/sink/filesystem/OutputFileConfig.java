package dev.runnel.streaming.api.functions.sink.filesystem;

import java.io.Serializable;
import java.util.Objects;

/**
 * The names of a file sink's part files: {@code <prefix>-<uuid>-<counter><suffix>}, e.g.
 * {@code part-81fc4980-a6af-41c8-9937-9939408a734b-3.txt}, where the uuid is drawn per bucket of each writer
 * (so that subtasks and restarts never choose the same name) and the counter counts that bucket's parts
 * from 0. Defaults: prefix {@code "part"}, no suffix. Immutable; serializable.
 *
 * <pre>{@code
 * OutputFileConfig.builder().withPartPrefix("events").withPartSuffix(".txt").build()
 * }</pre>
 */
public final class OutputFileConfig implements Serializable {

    private static final long serialVersionUID = 1L;

    private final String partPrefix;
    private final String partSuffix;

    /**
     * @param partPrefix the start of every part file's name; not null, not empty, no '/'
     * @param partSuffix the end of every part file's name (e.g. ".txt"); not null, no '/'
     */
    public OutputFileConfig(String partPrefix, String partSuffix) {
        this.partPrefix = Objects.requireNonNull(partPrefix, "partPrefix");
        this.partSuffix = Objects.requireNonNull(partSuffix, "partSuffix");
        if (partPrefix.isEmpty() || partPrefix.contains("/") || partSuffix.contains("/")) {
            throw new IllegalArgumentException("A part file prefix must be a non-empty name and neither it nor the suffix"
                    + " may contain '/': prefix '" + partPrefix + "', suffix '" + partSuffix + "'");
        }
    }

    public static OutputFileConfigBuilder builder() {
        return new OutputFileConfigBuilder();
    }

    public String getPartPrefix() {
        return partPrefix;
    }

    public String getPartSuffix() {
        return partSuffix;
    }

    @Override
    public String toString() {
        return "OutputFileConfig{" + partPrefix + "-<uuid>-<n>" + partSuffix + "}";
    }

    /** Builds an {@link OutputFileConfig}. Not thread-safe. */
    public static final class OutputFileConfigBuilder {
        private String partPrefix = "part";
        private String partSuffix = "";

        private OutputFileConfigBuilder() {}

        public OutputFileConfigBuilder withPartPrefix(String prefix) {
            this.partPrefix = prefix;
            return this;
        }

        public OutputFileConfigBuilder withPartSuffix(String suffix) {
            this.partSuffix = suffix;
            return this;
        }

        public OutputFileConfig build() {
            return new OutputFileConfig(partPrefix, partSuffix);
        }
    }
}
