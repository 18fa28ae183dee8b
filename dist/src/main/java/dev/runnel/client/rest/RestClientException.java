package dev.runnel.client.rest;

/**
 * The JobManager answered, but with an error: {@link #statusCode()} is the HTTP status (400 a bad request, 404
 * an unknown job) and the message holds the {@code errors} of Flink's error body.
 */
public final class RestClientException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int statusCode;

    public RestClientException(int statusCode, String message) {
        super(message);
        this.statusCode = statusCode;
    }

    public int statusCode() {
        return statusCode;
    }
}
