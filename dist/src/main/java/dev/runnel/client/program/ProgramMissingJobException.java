package dev.runnel.client.program;

/** The program's {@code main} returned without submitting a job: it never called {@code execute()}. */
public final class ProgramMissingJobException extends ProgramInvocationException {

    private static final long serialVersionUID = 1L;

    public ProgramMissingJobException(String mainClass) {
        super("The program did not call execute(): " + mainClass + ".main() returned without building a job. "
                + "A job ends with env.execute() (or executeAsync()) on the StreamExecutionEnvironment.");
    }
}
