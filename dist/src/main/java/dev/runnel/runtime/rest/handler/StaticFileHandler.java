package dev.runnel.runtime.rest.handler;

import dev.runnel.runtime.rest.RestResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Serves the dashboard's static files from the class path folder {@code web/}: {@code /} is {@code
 * index.html}, {@code /app.js} is {@code web/app.js}. Only plain file names are served (no sub-folders, nothing
 * outside {@code web/}). The files hold no data (the page fetches it from the API, with the token), so they are
 * served without authentication. Thread-safe.
 */
public final class StaticFileHandler {

    private static final Pattern FILE_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]*\\.[a-z0-9]+");
    private static final Map<String, String> CONTENT_TYPES = Map.of(
            "html", "text/html; charset=UTF-8",
            "js", "text/javascript; charset=UTF-8",
            "css", "text/css; charset=UTF-8",
            "svg", "image/svg+xml",
            "png", "image/png",
            "ico", "image/x-icon");

    private final ClassLoader loader = StaticFileHandler.class.getClassLoader();

    /** The file for {@code path}, if the dashboard has one. */
    public Optional<RestResponse> file(String path) {
        String name = path.equals("/") || path.isEmpty() ? "index.html" : path.substring(1);
        if (!FILE_NAME.matcher(name).matches()) {
            return Optional.empty();
        }
        String type = CONTENT_TYPES.get(name.substring(name.lastIndexOf('.') + 1));
        if (type == null) {
            return Optional.empty();
        }
        try (InputStream in = loader.getResourceAsStream("web/" + name)) {
            if (in == null) {
                return Optional.empty();
            }
            return Optional.of(new RestResponse(HttpResponseStatus.OK, type, in.readAllBytes()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the dashboard file web/" + name, e);
        }
    }
}
