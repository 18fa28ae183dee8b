package dev.runnel.streaming.runtime.source;

/** Finds the coordinator of a source operator by the operator's id. Thread-safe. */
@FunctionalInterface
public interface SourceCoordinatorProvider {

    SourceCoordinatorGateway coordinatorFor(String operatorId);
}
