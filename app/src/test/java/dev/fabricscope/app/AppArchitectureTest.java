package dev.fabricscope.app;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.type;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The layering of the desktop app (issue 16, MVVM; docs/architecture.md). Each test is one rule.
 */
class AppArchitectureTest {

    static final String APP = "dev.fabricscope.app..";
    static final String VIEW = "dev.fabricscope.app.view..";
    static final String VIEWMODEL = "dev.fabricscope.app.viewmodel..";
    static final String CLI = "dev.fabricscope.cli..";

    /** The check runners (exactly this package; results, options and events are in {@code check.api}). */
    static final String CHECK_RUNNERS = "dev.fabricscope.check";

    /** The app's production classes (test classes and the probe jar left out), imported once. */
    static final JavaClasses APP_CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages("dev.fabricscope.app");

    @Test
    void theAppNeverCallsNativeBindings() {
        noClasses().that().resideInAPackage(APP)
                .should().dependOnClassesThat().resideInAnyPackage("dev.fabricscope.nativeapi..", "com.sun.jna..", "jcuda..")
                .because("the GUI never calls native code; live readings go through the probe, checks run in a child process")
                .check(APP_CLASSES);
    }

    @Test
    void viewsAndViewModelsNeverProbeTheMachine() {
        noClasses().that().resideInAnyPackage(VIEW, VIEWMODEL)
                .should().dependOnClassesThat(resideInAnyPackage("dev.fabricscope.probe..", CHECK_RUNNERS))
                .because("only the app's composition root (FabricscopeApp) starts the live probe, and checks run in a child "
                        + "process started behind a port; views show snapshots and results")
                .check(APP_CLASSES);
    }

    @Test
    void theAppStartsTheCliOnlyThroughMain() {
        noClasses().that().resideInAPackage(APP)
                .should().dependOnClassesThat(resideInAPackage(CLI).and(not(type(dev.fabricscope.cli.Main.class))))
                .because("the CLI is the top of the stack; the launcher only hands it the arguments")
                .check(APP_CLASSES);
    }

    @Test
    void viewModelsDoNotKnowTheViews() {
        noClasses().that().resideInAPackage(VIEWMODEL)
                .should().dependOnClassesThat().resideInAnyPackage(VIEW, "javafx.scene..", "org.controlsfx..")
                .because("view-models hold state and commands; views bind to them, never the other way")
                .check(APP_CLASSES);
    }

    @Test
    void viewAndViewModelHaveNoCycle() {
        slices().matching("dev.fabricscope.app.(*)..")
                .should().beFreeOfCycles()
                .check(APP_CLASSES);
    }

    @Test
    void noClassCyclesInAnyPackage() {
        java.util.Set<String> packages = new java.util.TreeSet<>();
        APP_CLASSES.forEach(c -> packages.add(c.getPackageName()));
        java.util.List<String> failures = new java.util.ArrayList<>();
        for (String pkg : packages) {
            var result = slices().assignedFrom(classesOf(pkg)).should().beFreeOfCycles().allowEmptyShould(true)
                    .evaluate(APP_CLASSES);
            result.getFailureReport().getDetails().stream().filter(l -> l.startsWith("Cycle detected"))
                    .map(l -> pkg + ": " + l.substring(0, l.indexOf("  1. ") < 0 ? l.length() : l.indexOf("  1. "))
                            .replaceAll("\\s+", " ").trim())
                    .forEach(failures::add);
        }
        org.junit.jupiter.api.Assertions.assertEquals(java.util.List.of(), failures,
                "no two classes of one package depend on each other, in every package of the app");
    }

    /** One slice per top-level class of {@code pkg} (nested classes belong to their outer class); others ignored. */
    static com.tngtech.archunit.library.dependencies.SliceAssignment classesOf(String pkg) {
        return new com.tngtech.archunit.library.dependencies.SliceAssignment() {
            @Override
            public com.tngtech.archunit.library.dependencies.SliceIdentifier getIdentifierOf(
                    com.tngtech.archunit.core.domain.JavaClass c) {
                if (!c.getPackageName().equals(pkg)) {
                    return com.tngtech.archunit.library.dependencies.SliceIdentifier.ignore();
                }
                String name = c.getName().substring(pkg.length() + 1);
                int nested = name.indexOf('$');
                return com.tngtech.archunit.library.dependencies.SliceIdentifier.of(nested < 0 ? name : name.substring(0, nested));
            }

            @Override
            public String getDescription() {
                return "classes of " + pkg;
            }
        };
    }

    @Test
    void viewsSeeOnlyViewModelsRenderAndModel() {
        classes().that().resideInAPackage(VIEW)
                .should().onlyDependOnClassesThat(resideInAnyPackage(VIEW, VIEWMODEL, "dev.fabricscope.render..",
                        "dev.fabricscope.model..", "dev.fabricscope.text..", "java..", "javafx..", "org.controlsfx..", "atlantafx..")
                        .or(com.tngtech.archunit.core.domain.JavaClass.Predicates.equivalentTo(dev.fabricscope.report.ReportFormat.class)))
                .because("views only bind and lay out (MVVM); exports and orchestration live in view-models and use cases"
                        + " (the File menu lists report.ReportFormat, the one list of report formats)")
                .check(APP_CLASSES);
    }

    @Test
    void viewModelsRunWithoutTheFxToolkit() {
        noClasses().that().resideInAPackage(VIEWMODEL)
                .should().dependOnClassesThat().resideInAPackage("javafx.application..")
                .because("every view-model has plain JUnit tests without starting JavaFX")
                .check(APP_CLASSES);
    }

    @Test
    void viewModelsReachTheAdvisorOnlyThroughUseCases() {
        noClasses().that().resideInAPackage(VIEWMODEL)
                .should().dependOnClassesThat().belongToAnyOf(dev.fabricscope.advisor.Advisor.class)
                .because("advise is built once, in usecase.Advise, for the CLI and the views")
                .check(APP_CLASSES);
    }

    @Test
    void devToolsAreNotInTheProductionPackage() {
        noClasses().that().haveSimpleName("Bench").or().haveSimpleName("Screenshots")
                .should().resideInAPackage(APP)
                .because("dev-only tools are not shipped to users")
                .allowEmptyShould(true)
                .check(APP_CLASSES);
    }
}
