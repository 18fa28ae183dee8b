package dev.runnel.dist;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The module dependency direction, checked on the compiled classes of every module (main code only):
 *
 * <pre>
 *   runtime-core     ← depends on no other Runnel module, and never names RocksDB or Netty
 *   runtime-state    → core
 *   runtime-network  → core
 *   runtime-graph    → core (network and state only at run time, through interfaces in core)
 *   examples         → the API (graph, core) and the stores
 *   dist             → everything
 * </pre>
 *
 * and, inside the modules, that the user-facing API ({@code dev.runnel.api..},
 * {@code dev.runnel.streaming.api..}) does not reach into the task internals
 * ({@code dev.runnel.streaming.runtime.tasks..}).
 *
 * A class belongs to the module whose build output it was loaded from.
 */
class ModuleDependencyTest {

    private static JavaClasses classes;

    @BeforeAll
    static void importRunnel() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.runnel");
    }

    private static DescribedPredicate<JavaClass> inModule(String module) {
        return DescribedPredicate.describe("in module " + module, c -> c.getSource()
                .map(source -> {
                    String uri = source.getUri().toString();
                    return uri.contains("/" + module + "/") || uri.contains("/" + module + "-");
                })
                .orElse(false));
    }

    @Test
    void everyModuleIsImported() {
        for (String module : new String[] {"runtime-core", "runtime-state", "runtime-network", "runtime-graph", "examples"}) {
            assertThat(classes.stream().anyMatch(inModule(module)::test)).as(module + " classes found").isTrue();
        }
    }

    @Test
    void coreDependsOnNoOtherModule() {
        noClasses().that(inModule("runtime-core"))
                .should().dependOnClassesThat(inModule("runtime-state").or(inModule("runtime-network"))
                        .or(inModule("runtime-graph")).or(inModule("examples")).or(inModule("dist")))
                .check(classes);
    }

    @Test
    void coreNeverNamesRocksDbOrNetty() {
        noClasses().that(inModule("runtime-core"))
                .should().dependOnClassesThat().resideInAnyPackage("org.rocksdb..", "io.netty..")
                .check(classes);
    }

    @Test
    void stateDependsOnCoreOnly() {
        noClasses().that(inModule("runtime-state"))
                .should().dependOnClassesThat(inModule("runtime-network").or(inModule("runtime-graph"))
                        .or(inModule("examples")).or(inModule("dist")))
                .check(classes);
    }

    @Test
    void networkDependsOnCoreOnly() {
        noClasses().that(inModule("runtime-network"))
                .should().dependOnClassesThat(inModule("runtime-state").or(inModule("runtime-graph"))
                        .or(inModule("examples")).or(inModule("dist")))
                .check(classes);
    }

    @Test
    void graphFindsTheStateStoreOnlyThroughCore() {
        noClasses().that(inModule("runtime-graph"))
                .should().dependOnClassesThat(inModule("runtime-state").or(inModule("examples")).or(inModule("dist")))
                .check(classes);
    }

    @Test
    void graphUsesTheShuffleOnlyThroughItsInterfaces() {
        noClasses().that(inModule("runtime-graph"))
                .should().dependOnClassesThat(resideInAPackage("dev.runnel.runtime.network..")
                        .or(inModule("runtime-network")))
                .because("the engine finds its shuffle through ShuffleServiceFactory (ServiceLoader) and talks to it"
                        + " only through dev.runnel.runtime.shuffle and dev.runnel.runtime.io in runtime-core")
                .check(classes);
    }

    @Test
    void theApiDoesNotReachIntoTaskInternals() {
        noClasses().that().resideInAnyPackage("dev.runnel.api..", "dev.runnel.streaming.api..")
                .should().dependOnClassesThat().resideInAPackage("dev.runnel.streaming.runtime.tasks..")
                .because("operators and user functions must work in any task implementation; what they share with"
                        + " the tasks (e.g. OperatorException) lives in dev.runnel.streaming.runtime.operators")
                .check(classes);
    }

    @Test
    void onlyTheTestClusterClassesNameJUnit() {
        noClasses().that().resideOutsideOfPackages("dev.runnel.test..")
                .should().dependOnClassesThat().resideInAnyPackage("org.junit..", "junit..")
                .because("JUnit is an optional dependency of runtime-graph: it must only be loaded by a user's test"
                        + " that uses MiniClusterWithClientResource or MiniClusterExtension")
                .check(classes);
    }

    @Test
    void examplesDoNotDependOnTheDistribution() {
        noClasses().that(inModule("examples"))
                .should().dependOnClassesThat(inModule("dist"))
                .check(classes);
    }
}
