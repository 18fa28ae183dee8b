package dev.runnel.client.cli;

import dev.runnel.core.execution.SavepointFormatType;
import java.util.Locale;
import picocli.CommandLine;

/** Reads {@code --type canonical|native} in any case. */
final class FormatTypeConverter implements CommandLine.ITypeConverter<SavepointFormatType> {

    @Override
    public SavepointFormatType convert(String value) {
        try {
            return SavepointFormatType.valueOf(value.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not a savepoint format: use canonical "
                    + "(any state backend, any parallelism) or native (the backend's own, fastest)");
        }
    }
}
