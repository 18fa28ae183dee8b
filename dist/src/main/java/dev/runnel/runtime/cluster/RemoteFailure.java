package dev.runnel.runtime.cluster;

import dev.runnel.runtime.cluster.ControlMessages.SerializedError;
import dev.runnel.util.InstantiationUtil;

/**
 * An exception raised in another process whose own class could not be read here: it keeps the original's class
 * name, message and stack trace (as text), so the job's failure still says what went wrong and where.
 */
public final class RemoteFailure extends Exception {

    private static final long serialVersionUID = 1L;

    private final String remoteStackTrace;

    public RemoteFailure(String message, String remoteStackTrace) {
        super(message);
        this.remoteStackTrace = remoteStackTrace;
    }

    /** The original stack trace, as printed where the exception was raised. */
    public String getRemoteStackTrace() {
        return remoteStackTrace;
    }

    /** The exception {@code error} describes: itself if its bytes read with {@code loader}, else a {@link RemoteFailure}. */
    public static Throwable restore(SerializedError error, ClassLoader loader) {
        if (error.serialized() != null) {
            try {
                return InstantiationUtil.deserialize(error.serialized(), loader, "exception " + error.className());
            } catch (RuntimeException e) {
                // fall through: the text is all we have
            }
        }
        return new RemoteFailure(error.className() + (error.message() == null ? "" : ": " + error.message()),
                error.stackTrace());
    }
}
