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
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.TryCatchBlock;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
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
    /** The runners of the checks: exactly this package, not {@code check.api} below it. */
    static final String CHECK_RUNNERS = "dev.fabricscope.check";
    static final String CHECK_API = "dev.fabricscope.check.api..";
    static final String CLUSTER = "dev.fabricscope.cluster..";
    static final String DIFF = "dev.fabricscope.diff..";
    static final String REPORT = "dev.fabricscope.report..";
    static final String RENDER = "dev.fabricscope.render..";
    static final String RENDER_FABRIC = "dev.fabricscope.render.fabric";
    static final String RENDER_RASTER = "dev.fabricscope.render.raster..";
    static final String CLI = "dev.fabricscope.cli..";
    static final String USECASE = "dev.fabricscope.usecase..";
    static final String JSON = "dev.fabricscope.json..";
    static final String TEXT = "dev.fabricscope.text..";
    static final String CLUSTER_COLLECT = "dev.fabricscope.cluster.collect..";
    static final String CLUSTER_READ = "dev.fabricscope.cluster.read..";
    static final String PREDICT = "dev.fabricscope.predict..";
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
    void checkRunnersReachTheDriverOnlyThroughTheSeams() {
        DescribedPredicate<JavaClass> bindings = new DescribedPredicate<>("a JNA backend, library mapping or loader") {
            @Override
            public boolean test(JavaClass c) {
                return c.getPackageName().startsWith("dev.fabricscope.nativeapi")
                        && (c.getSimpleName().endsWith("Jna") || c.getSimpleName().startsWith("Jna")
                        || c.isAssignableTo(com.sun.jna.Library.class)
                        || c.isEquivalentTo(dev.fabricscope.nativeapi.nccl.NcclEnvironment.class));
            }
        };
        noClasses().that().resideInAPackage(CHECK)
                .should().dependOnClassesThat(bindings)
                .because("a check calls CUDA, NCCL and NVML only through nativeapi.backends.CheckBackends' seams, so "
                        + "that it can be recorded on a GPU machine and replayed anywhere (check NAME --record/--replay)")
                .check(CLASSES);
    }

    @Test
    void libcudaIsLoadedInOnePlace() {
        DescribedPredicate<com.tngtech.archunit.core.domain.JavaMethodCall> loadsALibrary =
                new DescribedPredicate<>("load a native library") {
                    @Override
                    public boolean test(com.tngtech.archunit.core.domain.JavaMethodCall c) {
                        String owner = c.getTargetOwner().getName();
                        return c.getName().equals("load") && (owner.equals(dev.fabricscope.nativeapi.JnaCalls.class.getName())
                                || owner.equals("com.sun.jna.Native"));
                    }
                };
        noClasses().that().resideInAPackage("dev.fabricscope.nativeapi.cuda")
                .and().doNotBelongToAnyOf(dev.fabricscope.nativeapi.cuda.CudaLoader.class)
                .should().callMethodWhere(loadsALibrary)
                .because("the probe's and the checks' backends and the direct-mapped hot calls bind one libcuda")
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
    void predictIsPureLogicOverTheSnapshot() {
        noClasses().that().resideInAPackage(PREDICT)
                .should().transitivelyDependOnClassesThat(resideInAnyPackage(NATIVEAPI, PROBE, CHECK, CLI, USECASE, ADVISOR, REPORT)
                        .or(resideInAnyPackage(NATIVE_BINDINGS)))
                .because("the cost model is pure: a snapshot's readings and cited constants in, times out; validity is the "
                        + "advisor's, asked by usecase.Predict")
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
                .should().transitivelyDependOnClassesThat().resideInAPackage(CHECK_RUNNERS)
                .because("running a check is a use case (usecase.RunCheck); a report only carries its results")
                .check(CLASSES);
    }

    @Test
    void checkApiDoesNotReachNativeCodeOrTheRunners() {
        noClasses().that().resideInAPackage(CHECK_API)
                .should().dependOnClassesThat(resideInAnyPackage(NATIVEAPI, PROBE, CHECK_RUNNERS)
                        .or(resideInAnyPackage(NATIVE_BINDINGS)))
                .because("check.api holds results, options, events and pure logic, read on any machine; of the checks "
                        + "only the runners in check call the GPUs")
                .check(CLASSES);
    }

    @Test
    void readersOfChecksSeeOnlyCheckApi() {
        noClasses().that().resideInAnyPackage(REPORT, RENDER, USECASE, CLUSTER, DIFF)
                .and().doNotBelongToAnyOf(dev.fabricscope.usecase.RunCheck.class)
                .should().dependOnClassesThat().resideInAPackage(CHECK_RUNNERS)
                .because("results are read through check.api; only usecase.RunCheck starts the runners")
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
    void textRenderersDoNotKnowTheDrawing() {
        noClasses().that().resideInAPackage("dev.fabricscope.render")
                .should().dependOnClassesThat().resideInAPackage(RENDER_FABRIC)
                .because("render holds the text outputs and render.fabric the drawing; the drawing may word its boxes "
                        + "with the text renderers' helpers, never the other way round")
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
    void rasterNeedsOnlyJavaBase() {
        noClasses().that().resideInAPackage(RENDER_RASTER)
                .should().dependOnClassesThat(resideInAnyPackage("java.awt..", "javax..", "javafx..", "jdk..", "sun..",
                        "com.sun..", "java.nio.file..").or(resideInAPackage(OURS).and(not(resideInAPackage(RENDER_RASTER)))))
                .because("the PNG writer paints with no toolkit and no font engine and reads only its glyph atlas from the"
                        + " class path, so that the command line's runtime (java.base, no java.desktop:"
                        + " installers/linux/cli-app.args) and java -jar write PNG too")
                .check(CLASSES);
    }

    @Test
    void theDrawingUsesOnlyModelTopologyAndTheTextHelpers() {
        classes().that().resideInAPackage(RENDER_FABRIC)
                .should().onlyDependOnClassesThat(resideOutsideOfPackage(OURS)
                        .or(resideInAnyPackage(RENDER_FABRIC, "dev.fabricscope.render", MODEL, TOPOLOGY, TEXT)))
                .because("the drawing is a pure function of the snapshot: it reads no advice, check, report or cluster")
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

    /**
     * In every package of the module, no two classes depend on each other, directly or round a loop (nested classes
     * count as their outer class). Cycles across packages are {@link #noPackageCycles}' and {@code PackageCyclesTest}'s.
     */
    @Test
    void noClassCyclesInAnyPackage() {
        java.util.Set<String> packages = new java.util.TreeSet<>();
        CLASSES.forEach(c -> packages.add(c.getPackageName()));
        java.util.List<String> failures = new java.util.ArrayList<>();
        for (String pkg : packages) {
            var result = slices().assignedFrom(classesOf(pkg)).should().beFreeOfCycles().allowEmptyShould(true).evaluate(CLASSES);
            if (result.hasViolation()) {
                result.getFailureReport().getDetails().stream().filter(l -> l.startsWith("Cycle detected"))
                        .map(l -> pkg + ": " + l.substring(0, l.indexOf("  1. ") < 0 ? l.length() : l.indexOf("  1. "))
                                .replaceAll("\\s+", " ").trim())
                        .forEach(failures::add);
            }
        }
        org.junit.jupiter.api.Assertions.assertEquals(java.util.List.of(), failures,
                "no two classes of one package depend on each other, in every package (one kind of thing per room)");
    }

    @Test
    void clusterAnalysisNeitherLaunchesNorReadsFolders() {
        noClasses().that().resideInAPackage("dev.fabricscope.cluster")
                .should().dependOnClassesThat().resideInAnyPackage(CLUSTER_COLLECT, CLUSTER_READ)
                .because("the analysis at cluster's root compares node summaries in memory; launching srun or pdsh"
                        + " (cluster.collect) and reading a folder (cluster.read) sit on top of it")
                .check(CLASSES);
    }

    @Test
    void readingAClusterFolderLaunchesNothing() {
        noClasses().that().resideInAPackage(CLUSTER_READ)
                .should().dependOnClassesThat().resideInAPackage(CLUSTER_COLLECT)
                .because("a folder is read the same whoever filled it; collect reads what each node wrote through"
                        + " cluster.read (the manifest's name, a node check's head), never the other way")
                .check(CLASSES);
    }

    @Test
    void theJsonByteCheckerKnowsNoReport() {
        classes().that().belongToAnyOf(dev.fabricscope.io.JsonByteChecker.class, dev.fabricscope.io.SeenValues.class)
                .should().onlyDependOnClassesThat(resideOutsideOfPackage(OURS).or(JavaClass.Predicates.belongToAnyOf(
                        dev.fabricscope.io.JsonByteChecker.class, dev.fabricscope.io.SeenValues.class)))
                .because("it checks JSON grammar only; which members a summary keeps is cluster.read.SummaryScan's")
                .check(CLASSES);
    }

    @Test
    void ioKnowsNoCluster() {
        noClasses().that().resideInAPackage("dev.fabricscope.io..")
                .should().dependOnClassesThat().resideInAPackage(CLUSTER)
                .because("io reads and checks files of any kind; a cluster folder's reading is cluster.read")
                .check(CLASSES);
    }

    @Test
    void noClassCyclesInCluster() {
        slices().assignedFrom(classesUnder("dev.fabricscope.cluster"))
                .should().beFreeOfCycles()
                .check(CLASSES);
    }

    @Test
    void theCommandsLeaveRefusalsToTheOneHandler() {
        classes().that().resideInAPackage(CLI)
                .should(new ArchCondition<JavaClass>("not catch UseCaseException or AdvisorInputException") {
                    @Override
                    public void check(JavaClass c, ConditionEvents events) {
                        for (JavaCodeUnit u : c.getCodeUnits()) {
                            for (TryCatchBlock t : u.getTryCatchBlocks()) {
                                for (JavaClass caught : t.getCaughtThrowables()) {
                                    if (caught.isEquivalentTo(dev.fabricscope.usecase.UseCaseException.class)
                                            || caught.isEquivalentTo(dev.fabricscope.advisor.api.AdvisorInputException.class)) {
                                        events.add(SimpleConditionEvent.violated(u, u.getFullName() + " catches "
                                                + caught.getSimpleName() + " " + t.getSourceCodeLocation()));
                                    }
                                }
                            }
                        }
                    }
                })
                .because("cli.CliExceptionHandler maps every refusal to its exit code and one line; a command that"
                        + " catches one prints it a second way")
                .check(CLASSES);
    }

    @Test
    void standardStreamsOnlyInCli() {
        noClasses().that().resideOutsideOfPackage(CLI)
                .and().doNotBelongToAnyOf(Trace.class)
                .should().accessField(System.class, "out").orShould().accessField(System.class, "err")
                .because("a command prints through its picocli writers (sanitised, one error path); Trace is the one"
                        + " exception: start-up timings on stderr when FABRICSCOPE_TRACE=1, before any writer exists")
                .check(CLASSES);
    }

    /** A dependency that is only a Jackson annotation naming one of json's (de)serializers, e.g. {@code @JsonDeserialize(using = …)}. */
    static final DescribedPredicate<Dependency> JSON_ANNOTATION = DescribedPredicate.describe("a Jackson annotation naming a class of json",
            d -> d.getTargetClass().getPackageName().startsWith("dev.fabricscope.json") && d.getDescription().contains("annotation"));

    /**
     * As {@link #classesOf}, over {@code pkg} and its sub-packages: one slice per top-level class of any of them.
     */
    static SliceAssignment classesUnder(String pkg) {
        return new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(JavaClass c) {
                if (!c.getPackageName().equals(pkg) && !c.getPackageName().startsWith(pkg + ".")) {
                    return SliceIdentifier.ignore();
                }
                String name = c.getName();
                int nested = name.indexOf('$');
                return SliceIdentifier.of(nested < 0 ? name : name.substring(0, nested));
            }

            @Override
            public String getDescription() {
                return "classes of " + pkg + " and its sub-packages";
            }
        };
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
