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
