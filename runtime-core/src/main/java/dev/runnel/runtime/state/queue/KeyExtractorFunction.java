package dev.runnel.runtime.state.queue;

/** Extracts the key of a queue element, to find the element's key group. */
@FunctionalInterface
public interface KeyExtractorFunction<T> {

    Object extractKeyFromElement(T element);
}
