package dev.runnel.client.cli;

import dev.runnel.client.program.ProgramInvocationException;
import dev.runnel.client.rest.JobManagerUnreachableException;
import dev.runnel.client.rest.RestClientException;
import dev.runnel.configuration.Configuration;
import dev.runnel.configuration.GlobalConfiguration;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code bin/runnel}, the command line of a Runnel cluster (Flink's {@code CliFrontend} and its commands):
 * run a job's jar on the cluster, list, cancel, savepoint, stop and rescale jobs, print a jar's plan, port a
 * Flink project. The JobManager is found by {@code -m host:port}, else {@code rest.address}/{@code rest.port}
 * of {@code $RUNNEL_CONF_DIR/runnel.yaml}, else 127.0.0.1:8081; {@code rest.auth.token} from the same file is
 * sent with every request.
 *
 * <p>Exit status: 0 on success, 1 when the command failed (the cluster unreachable, the job failed, a bad
 * jar), 2 for wrong arguments (with the usage and what was wrong). Every message goes to the given streams, so
 * {@link #run} can be called from a test; one call at a time, since a program run installs a global context.
 */
@Command(name = "runnel", mixinStandardHelpOptions = true, versionProvider = CliFrontend.Version.class,
        description = "Runs and manages jobs on a Runnel cluster.",
        subcommands = {RunCommand.class, ListCommand.class, CancelCommand.class, InfoCommand.class,
                SavepointCommand.class, StopCommand.class, RescaleCommand.class, PortCommand.class,
                CommandLine.HelpCommand.class})
public final class CliFrontend implements Runnable {

    private final Map<String, String> environment;
    private final PrintStream out;
    private final PrintStream err;
    private Configuration configuration;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    private CliFrontend(Map<String, String> environment, PrintStream out, PrintStream err) {
        this.environment = environment;
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) {
        System.exit(run(args, System.getenv(), System.out, System.err));
    }

    /** Runs one command; {@code environment} supplies {@code RUNNEL_CONF_DIR}. Returns the exit status. */
    public static int run(String[] args, Map<String, String> environment, PrintStream out, PrintStream err) {
        CommandLine commandLine = new CommandLine(new CliFrontend(environment, out, err));
        commandLine.setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true));
        // a job's arguments follow its jar and are the job's, even where they look like options of ours
        commandLine.getSubcommands().get("run").setStopAtPositional(true);
        commandLine.getSubcommands().get("info").setStopAtPositional(true);
        commandLine.setExecutionExceptionHandler((e, cmd, parsed) -> {
            cmd.getErr().println(describe(e));
            cmd.getErr().flush();
            return 1;
        });
        return commandLine.execute(args);
    }

    /** Without a command: the usage, and status 2. */
    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "Missing a command.");
    }

    PrintStream out() {
        return out;
    }

    PrintStream err() {
        return err;
    }

    /** The installation's configuration ({@code $RUNNEL_CONF_DIR/runnel.yaml}); empty without the variable. */
    Configuration configuration() {
        if (configuration == null) {
            String dir = environment.get(GlobalConfiguration.ENV_CONF_DIR);
            try {
                configuration = dir == null || dir.isBlank() ? new Configuration()
                        : GlobalConfiguration.loadConfiguration(dir);
            } catch (IllegalArgumentException malformed) {
                throw new CliException(malformed.getMessage(), malformed);
            }
        }
        return configuration;
    }

    /**
     * What a failure says to the user: the message of the first exception of the chain that the user can act
     * on (the cluster unreachable, an error answer, a bad program), else the whole chain.
     */
    static String describe(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof JobManagerUnreachableException || t instanceof RestClientException
                    || t instanceof UncheckedIOException || t instanceof CliException) {
                return t.getMessage();
            }
            if (t instanceof ProgramInvocationException && t.getCause() == null) {
                return t.getMessage();
            }
        }
        StringBuilder text = new StringBuilder("\n------------------------------------------------------------\n"
                + " The program finished with the following exception:\n\n");
        java.io.StringWriter trace = new java.io.StringWriter();
        failure.printStackTrace(new PrintWriter(trace));
        text.append(trace);
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof dev.runnel.client.rest.RemoteFailure remote && !remote.remoteStackTrace().isBlank()) {
                text.append("\nIn the cluster:\n").append(remote.remoteStackTrace());
            }
        }
        return text.toString();
    }

    /** The version of the jar this class came from ({@code Implementation-Version}), or "development". */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = CliFrontend.class.getPackage().getImplementationVersion();
            return new String[] {"Runnel " + (version == null ? "(development build)" : version)};
        }
    }
}
