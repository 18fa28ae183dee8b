package dev.runnel.client.rest;

/**
 * A failure that happened in the cluster, as the REST API reports it (Flink's {@code failure-cause}: the
 * exception's class and its stack trace as text). The class itself need not exist here, so this carries its
 * name; {@link #toString()} and {@link #getMessage()} read as the original's, and {@link #remoteStackTrace()}
 * is the trace printed where it happened.
 */
public final class RemoteFailure extends Exception {

    private static final long serialVersionUID = 1L;

    private final String className;
    private final String remoteStackTrace;

    public RemoteFailure(String className, String remoteStackTrace) {
        super(firstLine(className, remoteStackTrace), null, false, false);
        this.className = className == null ? "unknown" : className;
        this.remoteStackTrace = remoteStackTrace == null ? "" : remoteStackTrace;
    }

    /** The failure's class name, as it was in the cluster. */
    public String className() {
        return className;
    }

    /** The stack trace printed in the cluster (with its causes), possibly empty. */
    public String remoteStackTrace() {
        return remoteStackTrace;
    }

    @Override
    public String toString() {
        return getMessage();
    }

    private static String firstLine(String className, String stackTrace) {
        if (stackTrace != null && !stackTrace.isBlank()) {
            return stackTrace.strip().lines().findFirst().orElse(className);
        }
        return className == null ? "unknown failure" : className;
    }
}
