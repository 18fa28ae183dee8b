package dev.runnel.streaming.api.windowing.windows;

/**
 * A group of records of one key that are evaluated together. {@link #maxTimestamp()} is the largest
 * timestamp that still belongs to it: the window fires (in event time) once the watermark reaches it.
 * Windows are state namespaces, so they must implement equals and hashCode.
 */
public abstract class Window {

    public abstract long maxTimestamp();
}
