package dev.fabricscope;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The package-level layering of the probe module that issue 16 asks for, finer than a slice per top-level package:
 * every package is its own slice (so {@code nativeapi} and {@code nativeapi.nvml} may not use each other), and the
 * low layers ({@code io}, {@code cluster}, {@code samples}, {@code check}) do not reach up into the probe.
 */
class PackageCyclesTest {

    static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages("dev.fabricscope");

    static final String OURS = "dev.fabricscope..";
    static final String MODEL = "dev.fabricscope.model..";
    static final String JSON = "dev.fabricscope.json..";
    static final String PROBE = "dev.fabricscope.probe..";
    static final String NATIVEAPI = "dev.fabricscope.nativeapi..";

    /** One slice per package (sub-packages are slices of their own). */
    static final SliceAssignment EACH_PACKAGE = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass c) {
            return c.getPackageName().startsWith("dev.fabricscope") ? SliceIdentifier.of(c.getPackageName())
                    : SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
            return "every package of dev.fabricscope on its own";
        }
    };

    @Test
    void noCycleBetweenAnyTwoPackages() {
        Set<String> packages = CLASSES.stream().map(JavaClass::getPackageName).collect(Collectors.toSet());
        assertTrue(packages.containsAll(Set.of("dev.fabricscope.nativeapi", "dev.fabricscope.nativeapi.nvml",
                "dev.fabricscope.nativeapi.backends", "dev.fabricscope.io", "dev.fabricscope.probe")), packages::toString);
        slices().assignedFrom(EACH_PACKAGE)
                .should().beFreeOfCycles()
                // model's Reading names json's deserializer in a Jackson annotation; it uses nothing else of json
                .ignoreDependency(resideInAPackage(MODEL), resideInAPackage(JSON))
                .check(CLASSES);
    }

    @Test
    void ioDoesNotReachTheProbeOrNativeCode() {
        noClasses().that().resideInAPackage("dev.fabricscope.io..")
                .should().dependOnClassesThat().resideInAnyPackage(PROBE, NATIVEAPI)
                .because("io reads and writes files; opening a trace (which replays the probe) is usecase.OpenSnapshot")
                .check(CLASSES);
    }

    @Test
    void clusterUsesOnlyFilesAndTheModel() {
        classes().that().resideInAPackage("dev.fabricscope.cluster..")
                .should().onlyDependOnClassesThat(resideOutsideOfPackage(OURS).or(resideInAnyPackage(
                        "dev.fabricscope.cluster..", "dev.fabricscope.io..", JSON, MODEL, "dev.fabricscope.text..")))
                .because("a cluster folder is files of snapshots; a node's trace is replayed by what the caller hands in")
                .check(CLASSES);
    }

    @Test
    void samplesAreBuiltFromTheModelNotTheProbe() {
        noClasses().that().resideInAPackage("dev.fabricscope.samples..")
                .should().dependOnClassesThat().resideInAnyPackage(PROBE, NATIVEAPI)
                .because("synthetic machines are built from the model and topology, from public specs")
                .check(CLASSES);
    }

    @Test
    void checksDoNotUseTheProbe() {
        noClasses().that().resideInAPackage("dev.fabricscope.check..")
                .should().dependOnClassesThat().resideInAPackage(PROBE)
                .because("the checks read the GPUs through nativeapi; decoding NVML's answers lives there")
                .check(CLASSES);
    }
}
