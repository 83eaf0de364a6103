package dev.fabricscope.advisor.flashinfer;

import dev.fabricscope.advisor.rule.RuleVersion;
import java.util.List;

/**
 * One modelled FlashInfer version.
 *
 * @param trtllmJitMajors      majors the TRT-LLM comm module is built for ({@code jit/comm.py})
 * @param trtllmNeedsMulticast whether the TRT-LLM workspace's {@code SymmDeviceMemory} checks multicast
 * @param fabricAttributeOnly  whether {@code is_mnnvl_fabric_supported} checks only the driver attribute
 */
public record FlashInferVersion(String id, String description, List<Integer> trtllmJitMajors, boolean trtllmNeedsMulticast,
                         boolean fabricAttributeOnly) implements RuleVersion {

    public static final List<FlashInferVersion> ALL = List.of(
            new FlashInferVersion("newest", "flashinfer@0006e88a comm/allreduce.py + comm/mnnvl.py, @01021e50 comm/trtllm_ar.py "
                    + "(TRT-LLM workspace without multicast), @033c1d9e jit/comm.py (TRT-LLM built for SM 9/10/12); fabric probe: "
                    + "attribute + fabric state + cluster UUID", List.of(9, 10, 12), false, false),
            new FlashInferVersion("pre-sm12-trtllm", "as newest, but the TRT-LLM comm module is built for SM 9/10 only (before FlashInfer PR #3903; "
                    + "SGLang issue #15650)", List.of(9, 10), false, false),
            new FlashInferVersion("trtllm-multicast", "as newest, but the TRT-LLM workspace's SymmDeviceMemory checks multicast unconditionally "
                    + "(FlashInfer PR #3745, reverted by #3939)", List.of(9, 10, 12), true, false),
            new FlashInferVersion("fabric-attr-only", "as newest, but is_mnnvl_fabric_supported checks only the fabric-handle attribute "
                    + "(the newer, lighter variant; commit not recorded)", List.of(9, 10, 12), false, true));

    @Override
    public dev.fabricscope.advisor.rule.Pedigree pedigree() {
        return FlashInferRuleSets.of(id);
    }

    @Override
    public String framework() {
        return FlashInferKnobs.FW;
    }
}
