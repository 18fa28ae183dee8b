package dev.runnel.api.java.typeutils;

import dev.runnel.api.common.functions.InvalidTypesException;

/**
 * The output type of a user function could not be read from its class or lambda (see
 * {@link TypeExtractor#getOutputType}). The message says what failed, why, and how to declare the
 * type in general. The parts are also kept apart, so that a caller that knows where the function
 * is used (the DataStream API knows the operator) can say so and give the fix that fits there,
 * instead of appending a second fix to this one.
 *
 * <p>Immutable.
 */
public final class OutputTypeExtractionException extends InvalidTypesException {

    private static final long serialVersionUID = 1L;

    private final String subject;
    private final String reason;

    /**
     * @param subject which type of which function, e.g. "the output type OUT of MapFunction (the lambda ...)"
     * @param reason why it is unknown, without a final period
     * @param fix how to declare it, without a final period
     * @param cause the failure found while resolving the type, or null
     */
    public OutputTypeExtractionException(String subject, String reason, String fix, Throwable cause) {
        super("cannot determine " + subject + ": " + reason + ". " + fix + ".", cause);
        this.subject = subject;
        this.reason = reason;
    }

    /**
     * What failed, for {@code where} (e.g. "operator 'pairUp'"), and why, as one sentence without a
     * final period and without a fix: "Cannot determine, for operator 'pairUp', the output type ...: ...".
     */
    public String problemFor(String where) {
        return "Cannot determine, for " + where + ", " + subject + ": " + reason;
    }
}
