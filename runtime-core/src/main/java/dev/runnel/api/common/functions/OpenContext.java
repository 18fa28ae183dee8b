package dev.runnel.api.common.functions;

/** Passed to {@link RichFunction#open(OpenContext)}; reserved for information about the opening. */
public interface OpenContext {}
