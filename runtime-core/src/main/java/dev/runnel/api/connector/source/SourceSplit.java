package dev.runnel.api.connector.source;

/** A unit of a source's work (a file, a range of numbers, a partition), identified by a stable id. */
public interface SourceSplit {

    String splitId();
}
