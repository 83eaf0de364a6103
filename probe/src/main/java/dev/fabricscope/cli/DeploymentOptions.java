package dev.fabricscope.cli;

import dev.fabricscope.advisor.api.AdvisorInputException;
import dev.fabricscope.usecase.DeploymentRequest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/** The planned deployment and how to advise, shared by {@code advise} and {@code report}. */
public final class DeploymentOptions {

    @Option(names = "--framework", paramLabel = "NAME", completionCandidates = Completions.Frameworks.class, description = "sglang, vllm, flashinfer or nccl; repeat for several (default: all).")
    List<String> frameworks = new ArrayList<>();

    @Option(names = "--tp", paramLabel = "N", description = "Tensor-parallel size (default: every GPU of the nodes).")
    Integer tp;

    @Option(names = "--nodes", paramLabel = "N", description = "Nodes the deployment spans (default: the machine's, 1 for a snapshot).")
    Integer nodes;

    @Option(names = "--dcp", paramLabel = "N", description = "Decode-context-parallel size (default 1).")
    Integer dcp;

    @Option(names = "--model", paramLabel = "ARCH", description = "Model architecture (hf_config.architectures[0]), e.g. DeepseekV3ForCausalLM.")
    String model;

    @Option(names = "--tokens", paramLabel = "N", description = "Tokens per batch (forward pass).")
    Integer tokens;

    @Option(names = "--flag", paramLabel = "NAME=VALUE", completionCandidates = Completions.Flags.class, description = "A framework flag without its dashes, a config key or a library argument, "
            + "e.g. flashinfer-allreduce-fusion-backend=trtllm, fuse_allreduce_rms=true.")
    List<String> flags = new ArrayList<>();

    @Option(names = "--env", paramLabel = "NAME=VALUE", completionCandidates = Completions.Envs.class, description = "An environment variable, e.g. VLLM_FLASHINFER_ALLREDUCE_BACKEND=mnnvl.")
    List<String> env = new ArrayList<>();

    @Option(names = "--assume", paramLabel = "KEY=VALUE", completionCandidates = Completions.AssumeKeys.class, description = "What-if on a machine fact, e.g. sm=10.0, platform=rocm, multicast=false.")
    List<String> assume = new ArrayList<>();

    @Option(names = "--framework-version", paramLabel = "NAME=VERSION", description = "Rule set: its id, a release it covers or a commit prefix, e.g. vllm=older, nccl=2.20.5 (default: the set covering the version the machine reports, e.g. its NCCL, else newest; --list-knobs lists them).")
    List<String> versions = new ArrayList<>();

    /** The deployment and how to advise it, as given; a malformed {@code NAME=VALUE} is an input error. */
    public DeploymentRequest request() throws AdvisorInputException {
        Map<String, String> f = pairs("--flag", flags);
        Map<String, String> e = pairs("--env", env);
        Map<String, String> v = pairs("--framework-version", versions);
        return new DeploymentRequest(frameworks, tp, nodes, dcp, model, tokens, f, e, pairs("--assume", assume), v);
    }

    /** Whether any of these options was given. */
    public boolean given() {
        return !frameworks.isEmpty() || tp != null || nodes != null || dcp != null || model != null || tokens != null
                || !flags.isEmpty() || !env.isEmpty() || !assume.isEmpty() || !versions.isEmpty();
    }

    /** {@code NAME=VALUE} items in order; a repeated name keeps the last value. */
    static Map<String, String> pairs(String option, List<String> items) throws AdvisorInputException {
        Map<String, String> m = new LinkedHashMap<>();
        for (String item : items) {
            int eq = item.indexOf('=');
            if (eq <= 0) {
                throw new AdvisorInputException(option + " expects NAME=VALUE, got '" + item + "'");
            }
            m.put(item.substring(0, eq).trim(), item.substring(eq + 1).trim());
        }
        return m;
    }
}
