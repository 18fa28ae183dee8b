package dev.runnel.examples.port;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Ports a Flink DataStream project to Runnel in one run: rewrites {@code org.apache.flink.} to
 * {@code dev.runnel.} in every {@code .java} file (in place, or in a copy with {@code --to}), prints
 * what to change in each {@code pom.xml} (poms are not rewritten), and then lists every
 * {@code dev.runnel} name the sources use that Runnel does not have:
 *
 * <pre>
 * examples/port.sh my-flink-job --to my-runnel-job
 * src/main/java/com/example/Job.java:7: dev.runnel.connector.kafka.source.KafkaSource is not in Runnel
 * </pre>
 *
 * <p>Names are checked against an index of the class path's {@code dev.runnel} class files
 * ({@link ClassIndex}): imports (single, on-demand and static) and fully qualified names in code.
 * Members (methods, fields) are checked only for static imports. Exit status: 0 when every name
 * resolves, 1 when some do not, 2 for a usage error.
 */
public final class PortTool {

    private static final String FLINK = "org.apache.flink.";
    private static final String RUNNEL = "dev.runnel.";
    private static final Pattern IMPORT = Pattern.compile("^\\s*import\\s+(static\\s+)?(dev\\.runnel\\.[\\w.]+?)(\\.\\*)?\\s*;");
    private static final Pattern QUALIFIED = Pattern.compile("(?<![\\w.])dev\\.runnel(?:\\.\\w+)+");
    private static final Pattern DEPENDENCY = Pattern.compile(
            "<dependency>\\s*<groupId>org\\.apache\\.flink</groupId>\\s*<artifactId>([\\w.-]+)</artifactId>");
    private static final Map<String, String> ARTIFACTS = Map.ofEntries(
            Map.entry("flink-streaming-java", "runtime-graph"), Map.entry("flink-java", "runtime-graph"),
            Map.entry("flink-core", "runtime-graph"), Map.entry("flink-clients", "runtime-graph"),
            Map.entry("flink-runtime", "runtime-graph"), Map.entry("flink-test-utils", "runtime-graph"),
            Map.entry("flink-connector-files", "runtime-graph"), Map.entry("flink-connector-datagen", "runtime-graph"),
            Map.entry("flink-connector-base", "runtime-graph"), Map.entry("flink-statebackend-rocksdb", "runtime-state"));

    private static final Pattern PACKAGE = Pattern.compile("^\\s*package\\s+([\\w.]+)\\s*;");

    private final ClassIndex index;
    private final PrintStream out;
    /** The packages the project's own sources declare, and its top-level types (package + file name). */
    private final Set<String> projectPackages = new HashSet<>();
    private final Set<String> projectTypes = new HashSet<>();
    private int missing;

    PortTool(ClassIndex index, PrintStream out) {
        this.index = index;
        this.out = out;
    }

    /** {@code <source dir> [--to <copy dir>]}; the exit status says whether every name resolved. */
    public static void main(String[] args) throws IOException {
        System.exit(run(args, ClassIndex.of(System.getProperty("java.class.path")), System.out, System.err));
    }

    /** Runs the tool; returns the exit status. */
    public static int run(String[] args, ClassIndex index, PrintStream out, PrintStream err) throws IOException {
        boolean copy = args.length == 3 && args[1].equals("--to");
        if (args.length != 1 && !copy) {
            err.println("usage: port.sh <source dir> [--to <copy dir>]");
            return 2;
        }
        Path source = Path.of(args[0]);
        if (!Files.isDirectory(source)) {
            err.println("port.sh: " + source + " is not a directory");
            return 2;
        }
        Path target = source;
        if (copy) {
            target = Path.of(args[2]);
            if (Files.exists(target)) {
                err.println("port.sh: " + target + " exists already; name a new directory for the copy");
                return 2;
            }
            copyTree(source, target);
        }
        return new PortTool(index, out).port(target);
    }

    private int port(Path root) throws IOException {
        List<Path> files = files(root);
        int rewritten = 0;
        for (Path file : files) {
            if (file.toString().endsWith(".java") && rewrite(file)) {
                rewritten++;
            }
        }
        out.println("rewrote org.apache.flink. to dev.runnel. in " + rewritten + " of "
                + files.stream().filter(f -> f.toString().endsWith(".java")).count() + " Java files in " + root);
        indexProject(files);
        for (Path file : files) {
            String rel = root.relativize(file).toString();
            if (file.getFileName().toString().equals("pom.xml")) {
                pomHints(rel, Files.readString(file, StandardCharsets.UTF_8));
            } else if (rel.endsWith(".java")) {
                checkNames(rel, Files.readAllLines(file, StandardCharsets.UTF_8));
            }
        }
        out.println(missing == 0 ? "every dev.runnel name resolves" : missing + " names are not in Runnel");
        return missing == 0 ? 0 : 1;
    }

    /**
     * Remembers what the project declares itself: code in org.apache.flink packages of its own (Flink's
     * examples, the Flink training) is rewritten to dev.runnel too, and its names are not Runnel's to lack.
     */
    private void indexProject(List<Path> files) throws IOException {
        for (Path file : files) {
            String name = file.getFileName().toString();
            if (!name.endsWith(".java")) {
                continue;
            }
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                Matcher m = PACKAGE.matcher(line);
                if (m.find()) {
                    projectPackages.add(m.group(1));
                    projectTypes.add(m.group(1) + "." + name.substring(0, name.length() - ".java".length()));
                    break;
                }
            }
        }
    }

    /** A package the project declares, or one of its types or something nested in one. */
    private boolean inProject(String name) {
        if (projectPackages.contains(name)) {
            return true;
        }
        for (int dot = name.indexOf('.'); dot > 0; dot = name.indexOf('.', dot + 1)) {
            if (projectTypes.contains(name.substring(0, dot))) {
                return true;
            }
        }
        return projectTypes.contains(name);
    }

    private static List<Path> files(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(Files::isRegularFile)
                    .filter(f -> !root.relativize(f).toString().matches("(.*/)?(target|\\.git)/.*|(target|\\.git)/.*"))
                    .sorted().toList();
        }
    }

    private static void copyTree(Path source, Path target) throws IOException {
        for (Path file : files(source)) {
            Path to = target.resolve(source.relativize(file).toString());
            Files.createDirectories(to.getParent());
            Files.copy(file, to, StandardCopyOption.COPY_ATTRIBUTES);
        }
    }

    private static boolean rewrite(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        if (!text.contains(FLINK)) {
            return false;
        }
        Files.writeString(file, text.replace(FLINK, RUNNEL), StandardCharsets.UTF_8);
        return true;
    }

    private void pomHints(String file, String pom) {
        Matcher m = DEPENDENCY.matcher(pom);
        while (m.find()) {
            String artifact = m.group(1);
            String runnel = ARTIFACTS.get(artifact.replaceAll("_2\\.1[123]$", ""));
            out.println(file + ":" + lineOf(pom, m.start()) + ": org.apache.flink:" + artifact + " -> "
                    + (runnel != null ? "dev.runnel:" + runnel : "no Runnel module provides it"));
        }
    }

    private static int lineOf(String text, int offset) {
        int line = 1;
        for (int i = 0; i < offset; i++) {
            if (text.charAt(i) == '\n') {
                line++;
            }
        }
        return line;
    }

    private void checkNames(String file, List<String> lines) {
        boolean inComment = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            String code = inComment || PACKAGE.matcher(line).find() ? "" : stripComments(line);
            inComment = line.contains("/*") && !line.contains("*/") || inComment && !line.contains("*/");
            Matcher imp = IMPORT.matcher(code);
            List<String> problems = imp.find() ? checkImport(imp) : checkQualified(code);
            for (String name : problems) {
                out.println(file + ":" + (i + 1) + ": " + name + " is not in Runnel");
                missing++;
            }
        }
    }

    private static String stripComments(String line) {
        String code = line.replaceAll("/\\*.*?\\*/", "").replaceAll("\"(\\\\.|[^\"\\\\])*\"", "\"\"");
        int comment = code.indexOf("//");
        code = comment >= 0 ? code.substring(0, comment) : code;
        int open = code.indexOf("/*");
        code = open >= 0 ? code.substring(0, open) : code;
        return code.trim().startsWith("*") ? "" : code;
    }

    private List<String> checkImport(Matcher imp) {
        boolean isStatic = imp.group(1) != null;
        boolean onDemand = imp.group(3) != null;
        String name = imp.group(2);
        if (inProject(name)) {
            return List.of();
        }
        if (!isStatic && onDemand) {
            return index.hasPackage(name) || classOf(name) != null ? List.of() : List.of(name);
        }
        if (!isStatic) {
            return classOf(name) != null ? List.of() : List.of(name);
        }
        String owner = onDemand ? name : name.substring(0, name.lastIndexOf('.'));
        String ownerClass = classOf(owner);
        if (ownerClass == null) {
            return List.of(owner);
        }
        return onDemand || hasMember(ownerClass, name.substring(name.lastIndexOf('.') + 1)) ? List.of() : List.of(name);
    }

    private List<String> checkQualified(String code) {
        List<String> problems = new ArrayList<>();
        Matcher m = QUALIFIED.matcher(code);
        while (m.find()) {
            String name = m.group();
            if (resolves(name) || inProject(name)) {
                continue;
            }
            problems.add(upToFirstTypeName(name));
        }
        return problems;
    }

    /** A qualified name in code resolves when some prefix of it is a class or all of it is a package. */
    private boolean resolves(String name) {
        if (index.hasPackage(name)) {
            return true;
        }
        for (int dot = name.indexOf('.', RUNNEL.length()); ; dot = name.indexOf('.', dot + 1)) {
            if (classOf(dot < 0 ? name : name.substring(0, dot)) != null) {
                return true;
            }
            if (dot < 0) {
                return false;
            }
        }
    }

    private static String upToFirstTypeName(String name) {
        String[] parts = name.split("\\.");
        StringBuilder result = new StringBuilder(parts[0]);
        for (int i = 1; i < parts.length; i++) {
            result.append('.').append(parts[i]);
            if (Character.isUpperCase(parts[i].charAt(0))) {
                break;
            }
        }
        return result.toString();
    }

    /** The binary name of the class {@code name} denotes (nested classes dotted as in source), or null. */
    private String classOf(String name) {
        String binary = name;
        while (true) {
            if (index.hasClass(binary)) {
                return binary;
            }
            int dot = binary.lastIndexOf('.');
            if (dot < RUNNEL.length()) {
                return null;
            }
            binary = binary.substring(0, dot) + "$" + binary.substring(dot + 1);
        }
    }

    /** A static member of {@code className}; classes that cannot be loaded here are given the benefit of the doubt. */
    private static boolean hasMember(String className, String member) {
        try {
            Class<?> type = Class.forName(className, false, PortTool.class.getClassLoader());
            return Stream.of(type.getMethods()).anyMatch(m -> m.getName().equals(member))
                    || Stream.of(type.getFields()).anyMatch(f -> f.getName().equals(member))
                    || Stream.of(type.getClasses()).anyMatch(c -> c.getSimpleName().equals(member));
        } catch (ClassNotFoundException | LinkageError e) {
            return true;
        }
    }
}
