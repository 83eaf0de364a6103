package dev.fabricscope.advisor.nccl;

import dev.fabricscope.advisor.rule.RuleVersion;
import java.util.List;

/**
 * One modelled NCCL version (NCCL's environment-variable docs of that release).
 *
 * @param enableOneFailsWhenUnsupported NCCL_NVLS_ENABLE=1 makes initialisation fail when NVLS cannot be allocated
 */
public record NcclVersion(String id, String description, boolean enableOneFailsWhenUnsupported) implements RuleVersion {

    public static final List<NcclVersion> ALL = List.of(
            new NcclVersion("newest", "NCCL environment docs, current: NCCL_NVLS_ENABLE=1 behaves like 2 (no failure when unsupported)", false),
            new NcclVersion("2.17-2.20", "NCCL environment docs 2.17–2.20: with NCCL_NVLS_ENABLE=1, initialisation fails if NVLink SHARP resources cannot be allocated", true));

    @Override
    public dev.fabricscope.advisor.rule.Pedigree pedigree() {
        return NcclRuleSets.of(id);
    }

    @Override
    public String framework() {
        return NcclKnobs.FW;
    }
}
