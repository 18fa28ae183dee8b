package dev.runnel.api.common.functions;

import java.io.Serializable;

/**
 * The base of every user function. Functions are serializable so that a job can be shipped to other
 * processes; lambdas and method references qualify as long as what they capture is serializable.
 */
public interface Function extends Serializable {}
