package dev.runnel.configuration;

/**
 * Thrown when a configured value cannot be used: a malformed host name, a port out of range, an
 * option whose value makes no sense. The message names the value and says what would be accepted.
 */
public class IllegalConfigurationException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public IllegalConfigurationException(String message) {
        super(message);
    }

    /** The message is built like {@code String.format(format, arguments)}. */
    public IllegalConfigurationException(String format, Object... arguments) {
        super(String.format(format, arguments));
    }

    public IllegalConfigurationException(String message, Throwable cause) {
        super(message, cause);
    }
}
