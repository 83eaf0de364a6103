package dev.fabricscope;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.Dependency.Predicates.dependencyTarget;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.conditions.ArchConditions;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.Test;

/**
 * The layering of the probe module (issue 16; docs/architecture.md draws it and states the same rules). Each test is
 * one rule.
 */
class ArchitectureTest {

    static final String OURS = "dev.fabricscope..";
    static final String MODEL = "dev.fabricscope.model..";
    static final String TOPOLOGY = "dev.fabricscope.topology..";
    static final String NATIVEAPI = "dev.fabricscope.nativeapi..";
    static final String PROBE = "dev.fabricscope.probe..";
    static final String ADVISOR = "dev.fabricscope.advisor..";
    static final String CHECK = "dev.fabricscope.check..";
    static final String REPORT = "dev.fabricscope.report..";
    static final String RENDER = "dev.fabricscope.render..";
    static final String CLI = "dev.fabricscope.cli..";
    static final String USECASE = "dev.fabricscope.usecase..";
    static final String JSON = "dev.fabricscope.json..";
    static final String TEXT = "dev.fabricscope.text..";
    static final String[] NATIVE_BINDINGS = {"com.sun.jna..", "jcuda.."};

    /** The production classes of this module (test classes left out), imported once. */
    static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages("dev.fabricscope");

    @Test
    void nativeBindingsOnlyInNativeapi() {
        noClasses().that().resideOutsideOfPackage(NATIVEAPI)
                .should().dependOnClassesThat().resideInAnyPackage(NATIVE_BINDINGS)
                .because("every native call goes through a nativeapi seam, so that it can be recorded and replayed")
                .check(CLASSES);
    }

    @Test
    void modelDependsOnNothingOfOurs() {
        classes().that().resideInAPackage(MODEL)
                .should(ArchConditions.onlyHaveDependenciesWhere(dependencyTarget(resideOutsideOfPackage(OURS).or(resideInAPackage(MODEL)))
                        .or(JSON_ANNOTATION)))
                .because("the snapshot is plain immutable values that every layer reads (json's deserializers may be named in its annotations)")
                .check(CLASSES);
    }

    @Test
    void textDependsOnNothingOfOurs() {
        classes().that().resideInAPackage(TEXT)
                .should().onlyDependOnClassesThat(resideOutsideOfPackage(OURS).or(resideInAPackage(TEXT)))
                .because("the one sanitiser for untrusted text is used by every layer, so it sits below all of them")
                .allowEmptyShould(true)
                .check(CLASSES);
    }

    @Test
    void topologyDependsOnlyOnModel() {
        classes().that().resideInAPackage(TOPOLOGY)
                .should().onlyDependOnClassesThat(resideOutsideOfPackage(OURS).or(resideInAnyPackage(TOPOLOGY, MODEL)))
                .because("topology is pure analysis of a snapshot, below the native-facing probe")
                .check(CLASSES);
    }

    @Test
    void advisorDoesNotReachNativeCodeProbeOrChecks() {
        noClasses().that().resideInAPackage(ADVISOR)
                .should().transitivelyDependOnClassesThat(resideInAnyPackage(NATIVEAPI, PROBE, CHECK)
                        .or(resideInAnyPackage(NATIVE_BINDINGS)))
                .because("the advisor is pure: no I/O, no native calls, safe on every change of a GUI panel")
                .check(CLASSES);
    }

    @Test
    void reportDoesNotCallNativeCodeOrTheProbe() {
        noClasses().that().resideInAPackage(REPORT)
                .should().dependOnClassesThat(resideInAnyPackage(NATIVEAPI, PROBE).or(resideInAnyPackage(NATIVE_BINDINGS)))
                .because("a report is written from a snapshot and results, on any machine")
                .check(CLASSES);
    }

    @Test
    void reportDoesNotRunChecks() {
        noClasses().that().resideInAPackage(REPORT)
                .should().transitivelyDependOnClassesThat(checkRunners())
                .because("running a check is a use case (usecase.RunCheck); a report only carries its results")
                .check(CLASSES);
    }

    @Test
    void checkDoesNotDependOnReportOrCli() {
        noClasses().that().resideInAPackage(CHECK)
                .should().dependOnClassesThat().resideInAnyPackage(REPORT, CLI)
                .because("checks produce results; reports and commands consume them")
                .check(CLASSES);
    }

    @Test
    void checkDoesNotDependOnRender() {
        noClasses().that().resideInAPackage(CHECK)
                .should().dependOnClassesThat().resideInAPackage(RENDER)
                .because("checks produce results; render turns them into text")
                .check(CLASSES);
    }

    @Test
    void renderDoesNotDependOnCliNativeCodeOrProbe() {
        noClasses().that().resideInAPackage(RENDER)
                .should().dependOnClassesThat(resideInAnyPackage(CLI, NATIVEAPI, PROBE).or(resideInAnyPackage(NATIVE_BINDINGS)))
                .because("render draws snapshots and results; it never reads the machine")
                .check(CLASSES);
    }

    @Test
    void rackDrawingIsPure() {
        noClasses().that().resideInAPackage("dev.fabricscope.render.rack..")
                .should().dependOnClassesThat(resideInAnyPackage(NATIVEAPI, PROBE, CLI, USECASE, CHECK, REPORT,
                        "dev.fabricscope.io..", "java.nio.file..", "java.io..", "javafx..", "java.awt..")
                        .or(resideInAnyPackage(NATIVE_BINDINGS)))
                .because("the cluster drawing is laid out from the merged view and each node's links, read elsewhere"
                        + " (usecase.DrawCluster); it reads no file and no device, and paints with no toolkit")
                .check(CLASSES);
    }

    @Test
    void nothingOutsideCliDependsOnCliButMain() {
        noClasses().that().resideOutsideOfPackage(CLI)
                .should().dependOnClassesThat(resideInAPackage(CLI).and(not(JavaClass.Predicates.type(dev.fabricscope.cli.Main.class))))
                .because("the CLI is the top of the stack; only its entry point is started from outside")
                .check(CLASSES);
    }

    @Test
    void usecaseDoesNotDependOnCli() {
        noClasses().that().resideInAPackage(USECASE)
                .should().dependOnClassesThat().resideInAPackage(CLI)
                .because("the CLI and the desktop app both call the use cases, so they sit below both")
                .allowEmptyShould(true)
                .check(CLASSES);
    }

    @Test
    void cliReachesTheAdvisorOnlyThroughUseCases() {
        noClasses().that().resideInAPackage(CLI)
                .should().dependOnClassesThat().belongToAnyOf(dev.fabricscope.advisor.Advisor.class)
                .because("advise is built once, in usecase.Advise, for the CLI and the views")
                .check(CLASSES);
    }

    @Test
    void noPackageCycles() {
        slices().matching("dev.fabricscope.(*)..")
                .should().beFreeOfCycles()
                .ignoreDependency(resideInAPackage(MODEL), resideInAPackage(JSON)) // only JSON_ANNOTATION, as modelDependsOnNothingOfOurs checks
                .check(CLASSES);
    }

    @Test
    void noClassCyclesInCli() {
        slices().assignedFrom(classesOf("dev.fabricscope.cli"))
                .should().beFreeOfCycles()
                .check(CLASSES);
    }

    /** A dependency that is only a Jackson annotation naming one of json's (de)serializers, e.g. {@code @JsonDeserialize(using = …)}. */
    static final DescribedPredicate<Dependency> JSON_ANNOTATION = DescribedPredicate.describe("a Jackson annotation naming a class of json",
            d -> d.getTargetClass().getPackageName().startsWith("dev.fabricscope.json") && d.getDescription().contains("annotation"));

    /**
     * Classes of {@code check} that run a check (in this process or a child) rather than describe one or its result:
     * top-level classes, not records, named CheckProcess*, CheckRunner, ChildChecks or *Check.
     */
    static DescribedPredicate<JavaClass> checkRunners() {
        return DescribedPredicate.describe("check runners (CheckProcess*, CheckRunner, ChildChecks, *Check)",
                c -> c.getPackageName().equals("dev.fabricscope.check") && c.isTopLevelClass() && !c.isRecord()
                        && c.getSimpleName().matches("CheckProcess.*|CheckRunner|ChildChecks|.*Check"));
    }

    /**
     * One slice per top-level class of {@code pkg} (nested classes belong to their outer class), so that
     * {@code beFreeOfCycles} finds cycles between classes; classes elsewhere are ignored.
     */
    static SliceAssignment classesOf(String pkg) {
        return new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(JavaClass c) {
                if (!c.getPackageName().equals(pkg)) {
                    return SliceIdentifier.ignore();
                }
                String name = c.getName().substring(pkg.length() + 1);
                int nested = name.indexOf('$');
                return SliceIdentifier.of(nested < 0 ? name : name.substring(0, nested));
            }

            @Override
            public String getDescription() {
                return "classes of " + pkg;
            }
        };
    }
}
