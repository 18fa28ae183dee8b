package dev.runnel.api.connector.source;

/** Whether a source ends ({@link #BOUNDED}) or runs until cancelled. */
public enum Boundedness {
    BOUNDED,
    CONTINUOUS_UNBOUNDED
}
