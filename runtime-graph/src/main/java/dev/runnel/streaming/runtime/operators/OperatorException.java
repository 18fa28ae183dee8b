package dev.runnel.streaming.runtime.operators;

/**
 * A failure inside an operator, with the context a user needs to find it: the operator, the subtask,
 * and the record being processed (its {@code toString}, truncated). Thrown once at the innermost
 * operator; outer operators of the chain pass it on unchanged.
 *
 * <p>It lives with the operators rather than the task code because operators, which belong to the
 * API packages, throw it, and the API must not depend on the task internals. Immutable.
 */
public final class OperatorException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The longest record text put into a message. */
    public static final int MAX_RECORD_TEXT = 200;

    public OperatorException(String message, Throwable cause) {
        super(message, cause);
    }

    /** Wraps {@code cause}, thrown by operator {@code operatorName} of subtask {@code subtask} on {@code record}. */
    public static OperatorException onRecord(String operatorName, String subtask, Object record, Throwable cause) {
        return new OperatorException("Operator '" + operatorName + "' in " + subtask + " failed on record "
                + describe(record) + ": " + cause, cause);
    }

    /** The record's {@code toString()}, cut to {@link #MAX_RECORD_TEXT} characters; never throws. */
    public static String describe(Object record) {
        String text;
        try {
            text = String.valueOf(record);
        } catch (RuntimeException e) {
            text = "<" + record.getClass().getName() + ": toString() threw " + e + ">";
        }
        if (text.length() > MAX_RECORD_TEXT) {
            text = text.substring(0, MAX_RECORD_TEXT) + "... (" + text.length() + " chars)";
        }
        return "'" + text + "'";
    }
}
