package dev.runnel.client.cli;

import dev.runnel.client.program.ContextEnvironment;
import dev.runnel.client.program.PackagedProgram;
import dev.runnel.client.program.ProgramInvocationException;
import dev.runnel.client.program.ProgramMissingJobException;
import dev.runnel.core.execution.JobClient;
import java.util.List;

/** Runs a program's {@code main} with the CLI's {@link ContextEnvironment} installed, and removes it after. */
final class ProgramRunner {

    private ProgramRunner() {}

    /**
     * Calls the program's {@code main}; returns the clients of the jobs it submitted, at least one.
     *
     * @throws ProgramMissingJobException if {@code main} returned without calling {@code execute()}
     */
    static List<JobClient> run(PackagedProgram program, ContextEnvironment.Options options)
            throws ProgramInvocationException {
        ContextEnvironment.setAsContext(options);
        try {
            program.invokeInteractiveModeForExecution();
        } finally {
            ContextEnvironment.unsetAsContext();
        }
        if (options.submitted().isEmpty()) {
            throw new ProgramMissingJobException(program.getMainClassName());
        }
        return List.copyOf(options.submitted());
    }
}
