package dev.fabricscope.advisor.api;

import java.util.List;

/**
 * Whether the first {@code k} GPUs of a node are pairwise NVLink-connected and peer-accessible, for every {@code k}
 * from 2 to the node's GPU count. A TP group of {@code k} ranks on one node runs on CUDA devices 0..k−1 (SGLang's
 * {@code gpu_id = base_gpu_id + tp_rank}, vLLM's local rank), and both frameworks' custom all-reduce test only the
 * group's devices ({@code is_full_nvlink(physical_device_ids)}), so a group on a bridged pair of a PCIe machine is
 * fully NVLink-connected although the machine is not.
 *
 * @param nvlink index {@code k − 2}: NVLink among GPUs 0..k−1 (a fact, unknown where a pair was not read)
 * @param p2p    index {@code k − 2}: peer access among GPUs 0..k−1
 */
public record GroupLinks(List<Fact<Boolean>> nvlink, List<Fact<Boolean>> p2p) {

    public static final GroupLinks NONE = new GroupLinks(List.of(), List.of());

    public GroupLinks {
        nvlink = List.copyOf(nvlink);
        p2p = List.copyOf(p2p);
    }

    /** The fact for the first {@code k} GPUs, or {@code whole} when not read for that group (or {@code whole} was assumed). */
    static Fact<Boolean> among(List<Fact<Boolean>> byGroup, int k, Fact<Boolean> whole) {
        if (whole.origin() == Fact.Origin.ASSUMED || k < 2 || k - 2 >= byGroup.size()) {
            return whole;
        }
        Fact<Boolean> f = byGroup.get(k - 2);
        return f.value() == null ? whole : f;
    }
}
