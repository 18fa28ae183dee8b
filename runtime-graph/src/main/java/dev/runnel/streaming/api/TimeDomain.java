package dev.runnel.streaming.api;

/** Which clock fired a timer. */
public enum TimeDomain {
    EVENT_TIME,
    PROCESSING_TIME
}
