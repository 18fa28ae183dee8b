package dev.runnel.client.rest;

import java.net.URI;

/**
 * The JobManager's REST endpoint did not answer: nothing listens there, the connection timed out, or the host
 * is unknown. The message says where the client looked and how to start a cluster.
 */
public final class JobManagerUnreachableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public JobManagerUnreachableException(URI address, String reason, Throwable cause) {
        super("Could not reach the JobManager at " + address + " (" + reason + "). Is the cluster running? "
                + "Start it with bin/start-cluster.sh", cause);
    }
}
