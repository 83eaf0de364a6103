package dev.fabricscope.advisor.nccl;

import dev.fabricscope.advisor.rule.RuleVersion;
import java.util.List;

/**
 * One modelled NCCL version (NCCL's environment-variable docs of that release).
 *
 * @param enableOneFailsWhenUnsupported NCCL_NVLS_ENABLE=1 makes initialisation fail when NVLS cannot be allocated
 * @param enableOneSkipsMulticastCheck  NCCL_NVLS_ENABLE=1 turns NVLS on without reading the multicast attribute, so
 *                                      an NVSwitch SM90+ machine without multicast fails in cuMulticastGetGranularity
 * @param readsMnnvlEnable              NCCL reads NCCL_MNNVL_ENABLE (2.21 and later; 2.20 reads NCCL_MNNVL)
 */
public record NcclVersion(String id, String description, boolean enableOneFailsWhenUnsupported, boolean enableOneSkipsMulticastCheck,
                          boolean readsMnnvlEnable)
        implements RuleVersion {

    public static final List<NcclVersion> ALL = List.of(
            new NcclVersion("newest", "NCCL 2.18.1–2.30.7 source (@5067397c, every release tag read): NCCL_NVLS_ENABLE=1 forces NVLS on without "
                    + "reading multicast support (fails on NVSwitch SM90+ without multicast), else behaves like 2", false, true, true),
            new NcclVersion("2.17-2.20", "NCCL environment docs 2.17–2.20: with NCCL_NVLS_ENABLE=1, initialisation fails if NVLink SHARP resources cannot be allocated", true, true, false));

    @Override
    public dev.fabricscope.advisor.rule.Pedigree pedigree() {
        return NcclRuleSets.of(id);
    }

    @Override
    public String framework() {
        return NcclKnobs.FW;
    }
}
