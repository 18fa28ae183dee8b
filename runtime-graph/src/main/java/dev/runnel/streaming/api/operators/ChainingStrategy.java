package dev.runnel.streaming.api.operators;

/** Whether an operator may be chained to its predecessor and successors. */
public enum ChainingStrategy {
    /** Chains with predecessor and successors where the other chaining rules allow. */
    ALWAYS,
    /** Never chained: always a task of its own. */
    NEVER,
    /** Starts a chain (successors may chain to it, it never chains to its predecessor). */
    HEAD
}
