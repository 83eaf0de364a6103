package dev.fabricscope.advisor;

import dev.fabricscope.advisor.api.KnobSpec;
import dev.fabricscope.advisor.flashinfer.FlashInferRules;
import dev.fabricscope.advisor.nccl.NcclRules;
import dev.fabricscope.advisor.rule.FrameworkRules;
import dev.fabricscope.advisor.sglang.SglangRules;
import dev.fabricscope.advisor.vllm.VllmRules;
import java.util.List;
import java.util.Optional;

/** Every framework the advisor has rules for, in the order verdicts and recommendations are given. */
final class FrameworkRegistry {

    private static final List<FrameworkRules> ALL = List.of(new SglangRules(), new VllmRules(), new FlashInferRules(), new NcclRules());

    private FrameworkRegistry() {
    }

    static List<FrameworkRules> all() {
        return ALL;
    }

    static List<String> names() {
        return ALL.stream().map(FrameworkRules::name).toList();
    }

    static Optional<FrameworkRules> byName(String name) {
        return ALL.stream().filter(r -> r.name().equals(name)).findFirst();
    }

    /** Every knob of every framework and version. */
    static List<KnobSpec> knobs() {
        return ALL.stream().flatMap(r -> r.knobs().stream()).toList();
    }
}
