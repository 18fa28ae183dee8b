package dev.runnel.runtime.entrypoint;

import dev.runnel.configuration.Configuration;
import dev.runnel.configuration.GlobalConfiguration;

/**
 * The command line of the cluster processes: {@code --configDir <dir>} (the folder with runnel.yaml; else
 * {@code $RUNNEL_CONF_DIR}) and any number of {@code -D key=value} settings, which win over the file. Wrong
 * arguments are an {@link IllegalArgumentException} saying which and what is expected. Stateless.
 */
public final class EntrypointArguments {

    private EntrypointArguments() {}

    public static Configuration parse(String process, String[] args) {
        String configDir = System.getenv(GlobalConfiguration.ENV_CONF_DIR);
        Configuration overrides = new Configuration();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--configDir") || arg.equals("-c")) {
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(process + ": --configDir needs a folder");
                }
                configDir = args[++i];
            } else if (arg.startsWith("-D")) {
                String setting = arg.length() > 2 ? arg.substring(2) : (i + 1 < args.length ? args[++i] : "");
                int equals = setting.indexOf('=');
                if (equals <= 0) {
                    throw new IllegalArgumentException(process + ": -D needs key=value, got '" + setting + "'");
                }
                overrides.setString(setting.substring(0, equals).strip(), setting.substring(equals + 1).strip());
            } else {
                throw new IllegalArgumentException(process + ": unknown argument '" + arg
                        + "'; usage: [--configDir <dir>] [-D key=value]...");
            }
        }
        Configuration configuration = configDir == null || configDir.isBlank() ? new Configuration()
                : GlobalConfiguration.loadConfiguration(configDir);
        overrides.toMap().forEach(configuration::setString);
        return configuration;
    }
}
