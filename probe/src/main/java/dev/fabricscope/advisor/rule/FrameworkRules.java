package dev.fabricscope.advisor.rule;

import dev.fabricscope.advisor.api.KnobSpec;
import dev.fabricscope.advisor.api.MachineFacts;
import dev.fabricscope.advisor.api.Recommendation;
import dev.fabricscope.advisor.api.SourceRef;
import dev.fabricscope.advisor.api.Verdict;
import java.util.List;
import java.util.Optional;

/**
 * One framework's rules, in every modelled version: its knobs, its verdicts and its recommendation. The advisor asks
 * the {@link FrameworkRegistry} for these and never names a framework itself.
 */
public interface FrameworkRules {

    /** sglang, vllm, flashinfer or nccl: as {@code --framework} and {@code --framework-version} spell it. */
    String name();

    /** The modelled versions, newest (the default) first. */
    List<? extends RuleVersion> versions();

    /** Every knob of every version, modelled or not ({@link KnobSpec.Scope}). */
    List<KnobSpec> knobs();

    /** Every upstream message the verdicts may quote. */
    List<UpstreamMessage> messages();

    /** Verdicts for the knobs whose effect is modelled ({@link KnobSpec.Scope#MODELLED} and {@link KnobSpec.Scope#ABSENT}). */
    List<Verdict> evaluate(Eval e);

    /** The fastest valid settings for the machine and deployment. */
    Recommendation recommend(Eval e);

    /** Where the {@link KnobSpec.Scope#KNOWN} knobs were read (null when the framework has none). */
    default SourceRef knownKnobsSource(Eval e) {
        return null;
    }

    /** Where one {@link KnobSpec.Scope#KNOWN} knob was read; by default where they all were. */
    /**
     * The verdicts (by knob, as displayed) whose rules read the known-but-not-modelled knob {@code k}: a value the user
     * gives it takes the ok from this framework's other verdicts, not from these.
     */
    default java.util.Set<String> readBy(KnobSpec k) {
        return java.util.Set.of();
    }

    default SourceRef knownKnobSource(Eval e, KnobSpec k) {
        return knownKnobsSource(e);
    }

    /** Where the {@link KnobSpec.Scope#ROCM_ONLY} knobs were read (null when the framework has none). */
    default SourceRef rocmKnobsSource(Eval e) {
        return null;
    }

    /** The Python distribution whose installed release the probe reads ({@code flashinfer-python}), if any. */
    default Optional<String> pythonDistribution() {
        return Optional.empty();
    }

    /**
     * The version to apply from what the machine shows (e.g. the loaded NCCL library's release), adding a note on
     * how it was chosen; empty to keep the newest. Not called when the user chose a version.
     */
    default Optional<RuleVersion> versionForMachine(MachineFacts facts, List<String> notes) {
        return Optional.empty();
    }
}
