package dev.runnel.runtime.rest;

import io.netty.handler.codec.http.HttpResponseStatus;

/**
 * A request the REST layer answers with an error status and Flink's error body {@code {"errors":[message]}}.
 * The message is shown to the caller as it is: it says what was wrong and, where it helps, what to do.
 */
public final class RestHandlerException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient HttpResponseStatus status;

    public RestHandlerException(HttpResponseStatus status, String message) {
        super(message);
        this.status = status;
    }

    public static RestHandlerException badRequest(String format, Object... args) {
        return new RestHandlerException(HttpResponseStatus.BAD_REQUEST, String.format(format, args));
    }

    public static RestHandlerException notFound(String format, Object... args) {
        return new RestHandlerException(HttpResponseStatus.NOT_FOUND, String.format(format, args));
    }

    public HttpResponseStatus status() {
        return status;
    }
}
