package dev.fabricscope.advisor;

import dev.fabricscope.advisor.api.KnobSpec;
import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.SourceRef;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.advisor.rule.Eval;
import dev.fabricscope.advisor.rule.FrameworkRules;
import dev.fabricscope.advisor.rule.Slots;
import dev.fabricscope.advisor.rule.VerdictBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Verdicts for knobs that exist upstream but whose effect the advisor does not model (an "unknown" verdict naming
 * where the knob was read), and for ROCm-only knobs ("not applicable" on NVIDIA GPUs). Both only when the user sets them.
 */
final class OtherKnobs {

    static final String WHEN_START = "start-up";

    private OtherKnobs() {
    }

    /** Verdicts for the {@code rules}' known-but-unmodelled and ROCm-only knobs that the user set, in knob order. */
    static List<Verdict> evaluate(Eval e, FrameworkRules rules) {
        String version = e.versions.id(rules.name());
        List<Verdict> out = new ArrayList<>();
        for (KnobSpec k : rules.knobs()) {
            switch (k.scope()) {
                case KNOWN -> known(e, k, version, rules.knownKnobSource(e, k)).ifPresent(out::add);
                case ROCM_ONLY -> rocmOnly(e, k, version, rules.rocmKnobsSource(e)).ifPresent(out::add);
                default -> {
                }
            }
        }
        return out;
    }

    /** A known, unmodelled knob the user set: unknown, never ok. */
    static Optional<Verdict> known(Eval e, KnobSpec k, String version, SourceRef source) {
        if (!e.isSet(k)) {
            return Optional.empty();
        }
        return Optional.of(e.on(k, version).source(source).when(WHEN_START).outcome(Outcome.UNKNOWN)
                .why(Slots.fill("Not modelled: {knob} is a real {framework} knob ({description}); its effect on the all-reduce backends "
                        + "is not modelled, so the advisor gives no verdict for it.", "knob", k.display(), "framework", k.framework(),
                        "description", k.description())).build());
    }

    /** A ROCm-only knob the user set: not applicable on NVIDIA GPUs, unknown (not modelled) on ROCm. */
    static Optional<Verdict> rocmOnly(Eval e, KnobSpec k, String version, SourceRef source) {
        if (!e.isSet(k)) {
            return Optional.empty();
        }
        VerdictBuilder v = e.on(k, version).source(source).when(WHEN_START);
        if ("rocm".equals(e.platform())) {
            return Optional.of(v.outcome(Outcome.UNKNOWN).why("A ROCm knob (" + k.description() + "); its ROCm behaviour is not modelled.").build());
        }
        return Optional.of(v.outcome(Outcome.NOT_APPLICABLE).why("Not applicable on NVIDIA GPUs: " + k.description()
                        + " is an AMD (ROCm/AITER) knob, so it has no NVIDIA code path to take on " + e.platformName()
                        + " (whether the framework warns about it there was not read).")
                .fix("drop " + k.display() + " (ROCm only)").build());
    }
}
