package dev.fabricscope;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static dev.fabricscope.ArchitectureTest.ADVISOR;
import static dev.fabricscope.ArchitectureTest.CLASSES;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.Test;

/**
 * The advisor's own rooms (issue 23; style.md "Round 3"): the door {@code advisor}, the values callers see
 * {@code advisor.api}, the rule kit {@code advisor.rule}, and one package per framework. Each test is one rule.
 */
class AdvisorArchitectureTest {

    static final String DOOR = "dev.fabricscope.advisor";
    static final String API = "dev.fabricscope.advisor.api..";
    static final String RULE = "dev.fabricscope.advisor.rule..";
    static final String SGLANG = "dev.fabricscope.advisor.sglang..";
    static final String VLLM = "dev.fabricscope.advisor.vllm..";
    static final String FLASHINFER = "dev.fabricscope.advisor.flashinfer..";
    static final String NCCL = "dev.fabricscope.advisor.nccl..";
    static final String CUSTOM_ALL_REDUCE = "dev.fabricscope.advisor.customallreduce..";
    static final String INVENTORY = "dev.fabricscope.advisor.inventory..";
    static final String[] RULE_ROOMS = {RULE, SGLANG, VLLM, FLASHINFER, NCCL, CUSTOM_ALL_REDUCE};

    @Test
    void outsideTheAdvisorOnlyTheDoorAndTheApiAreSeen() {
        noClasses().that().resideOutsideOfPackage(ADVISOR)
                .should().dependOnClassesThat().resideInAnyPackage(RULE_ROOMS)
                .because("callers ask the door (Advisor, Options, Knobs) and read advisor.api values; the rules can move freely")
                .check(CLASSES);
    }

    @Test
    void theApiUsesNoRules() {
        noClasses().that().resideInAPackage(API)
                .should().dependOnClassesThat().resideInAnyPackage(RULE_ROOMS)
                .orShould().dependOnClassesThat().resideInAPackage(DOOR)
                .because("the values callers see are plain data, below every rule")
                .check(CLASSES);
    }

    @Test
    void theRuleKitKnowsNoFramework() {
        noClasses().that().resideInAPackage(RULE)
                .should().dependOnClassesThat().resideInAnyPackage(SGLANG, VLLM, FLASHINFER, NCCL, CUSTOM_ALL_REDUCE)
                .orShould().dependOnClassesThat().resideInAPackage(DOOR)
                .because("the context, builder, versions and recommendation plan serve every framework alike")
                .check(CLASSES);
    }

    @Test
    void libraryFrameworksDoNotReachTheServingFrameworks() {
        noClasses().that().resideInAnyPackage(FLASHINFER, NCCL, CUSTOM_ALL_REDUCE)
                .should().dependOnClassesThat().resideInAnyPackage(SGLANG, VLLM)
                .orShould().dependOnClassesThat().resideInAPackage(DOOR)
                .because("FlashInfer, NCCL and the custom all-reduce kernel are used by SGLang and vLLM, not the other way")
                .check(CLASSES);
    }

    @Test
    void sglangAndVllmAreIndependent() {
        noClasses().that().resideInAPackage(SGLANG)
                .should().dependOnClassesThat().resideInAnyPackage(VLLM)
                .orShould().dependOnClassesThat().resideInAPackage(DOOR)
                .because("two serving frameworks share only what they both call (FlashInfer, NCCL, custom all-reduce)")
                .check(CLASSES);
        noClasses().that().resideInAPackage(VLLM)
                .should().dependOnClassesThat().resideInAnyPackage(SGLANG)
                .orShould().dependOnClassesThat().resideInAPackage(DOOR)
                .because("two serving frameworks share only what they both call (FlashInfer, NCCL, custom all-reduce)")
                .check(CLASSES);
    }

    @Test
    void theInventoryReadsOnlyTheApi() {
        noClasses().that().resideInAPackage(INVENTORY)
                .should().dependOnClassesThat().resideInAnyPackage(RULE_ROOMS)
                .orShould().dependOnClassesThat().resideInAPackage(DOOR)
                .because("the upstream-branch inventory is data about upstream, judged on the facts and deployment callers see")
                .check(CLASSES);
    }

    @Test
    void noClassCyclesAnywhereInTheAdvisor() {
        slices().assignedFrom(topLevelClassesUnder("dev.fabricscope.advisor"))
                .should().beFreeOfCycles()
                .check(CLASSES);
    }

    /** One slice per top-level class of {@code pkg} and its sub-packages (nested classes belong to their outer class). */
    static SliceAssignment topLevelClassesUnder(String pkg) {
        return new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(JavaClass c) {
                if (!(c.getPackageName().equals(pkg) || c.getPackageName().startsWith(pkg + "."))) {
                    return SliceIdentifier.ignore();
                }
                String name = c.getName();
                int nested = name.indexOf('$');
                return SliceIdentifier.of(nested < 0 ? name : name.substring(0, nested));
            }

            @Override
            public String getDescription() {
                return "top-level classes under " + pkg;
            }
        };
    }
}
