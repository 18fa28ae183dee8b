package dev.runnel.client.cli;

import dev.runnel.examples.port.ClassIndex;
import dev.runnel.examples.port.PortTool;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code runnel port <dir> [--to <copy>]}: {@code examples/port.sh} as a command — rewrites a Flink project's
 * imports to Runnel's and lists what is left, checked against the classes on the CLI's class path (lib/).
 */
@Command(name = "port", mixinStandardHelpOptions = true,
        description = "Ports a Flink project to Runnel (rewrites org.apache.flink. to dev.runnel.) and lists what "
                + "is left; exit status 0 when every name resolves, 1 when some do not.")
final class PortCommand implements Callable<Integer> {

    @ParentCommand
    private CliFrontend cli;

    @Parameters(index = "0", paramLabel = "<dir>", description = "The Flink project's folder.")
    private String source;

    @Option(names = "--to", paramLabel = "<copyDir>", description = "Write the port to this new folder instead of in place.")
    private String copy;

    @Override
    public Integer call() throws Exception {
        List<String> args = new ArrayList<>(List.of(source));
        if (copy != null) {
            args.addAll(List.of("--to", copy));
        }
        return PortTool.run(args.toArray(String[]::new), ClassIndex.of(System.getProperty("java.class.path")),
                cli.out(), cli.err());
    }
}
