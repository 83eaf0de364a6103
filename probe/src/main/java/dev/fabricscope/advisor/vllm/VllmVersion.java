package dev.fabricscope.advisor.vllm;

import dev.fabricscope.advisor.api.SourceRef;
import dev.fabricscope.advisor.rule.RuleVersion;
import java.util.List;

/**
 * One modelled vLLM version.
 *
 * @param defaultBackend         VLLM_FLASHINFER_ALLREDUCE_BACKEND default ({@code envs.py})
 * @param autoMnnvlWithFallback  'auto' means mnnvl with a trtllm retry on one node (else trtllm on one node, mnnvl across)
 * @param passWorldSizes         world sizes PassConfig accepts on top of the size table, or null for the table alone
 * @param dcpMessageMissingSpace the DCP divisibility message has the "bydcp_size" concatenation bug
 * @param backendSource          where the workspace backend is resolved
 * @param envsSource             where {@code defaultBackend} is defined
 */
public record VllmVersion(String id, String description, String defaultBackend, boolean autoMnnvlWithFallback,
                   List<Integer> passWorldSizes, boolean dcpMessageMissingSpace, SourceRef backendSource, SourceRef envsSource)
        implements RuleVersion {

    public static final List<VllmVersion> ALL = List.of(
            new VllmVersion("newest", "newer envs.py (backend default auto) and flashinfer_all_reduce.py copies (auto = mnnvl with a trtllm retry on one node), "
                    + "allreduce_rms_fusion.py@0052812d size table (world size 16 on SM100/SM103), vllm.py@000fc94b, parallel.py@00193b82",
                    "auto", true, null, false, VllmSources.BACKEND_NEW, VllmSources.ENVS_NEW),
            new VllmVersion("older", "vllm@00545a8a flashinfer_all_reduce.py (auto = trtllm on one node, mnnvl across), envs.py copies with default trtllm, "
                    + "PassConfig restricted to world sizes 2/4/8, older parallel.py text ('divisible bydcp_size')",
                    "trtllm", false, List.of(2, 4, 8), true, VllmSources.BACKEND_OLD, VllmSources.ENVS_OLD));

    @Override
    public dev.fabricscope.advisor.rule.Pedigree pedigree() {
        return VllmRuleSets.of(id);
    }

    @Override
    public String framework() {
        return VllmKnobs.FW;
    }
}
