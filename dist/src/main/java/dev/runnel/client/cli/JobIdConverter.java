package dev.runnel.client.cli;

import dev.runnel.api.common.JobID;
import picocli.CommandLine;

/** Reads a job id argument: 32 hex digits, as {@code runnel list} and {@code runnel run -d} print them. */
final class JobIdConverter implements CommandLine.ITypeConverter<JobID> {

    @Override
    public JobID convert(String value) {
        if (value == null || !value.matches("[0-9a-fA-F]{32}")) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not a job id: a job id is 32 hex "
                    + "digits, as 'runnel list' shows them");
        }
        return JobID.fromHexString(value.toLowerCase(java.util.Locale.ROOT));
    }
}
