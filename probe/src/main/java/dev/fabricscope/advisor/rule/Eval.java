package dev.fabricscope.advisor.rule;

import dev.fabricscope.advisor.api.EffectiveDeployment;
import dev.fabricscope.advisor.api.Fact;
import dev.fabricscope.advisor.api.FactKey;
import dev.fabricscope.advisor.api.KnobSpec;
import dev.fabricscope.advisor.api.MachineFacts;
import dev.fabricscope.advisor.api.Values;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the rules evaluate against: the machine facts, the deployment, the knob values and the rule-set versions.
 * Every fact a verdict reads is recorded, so the verdict's {@code why} can name the facts that were assumed.
 */
public final class Eval {

    public final MachineFacts facts;
    final EffectiveDeployment dep;
    public final Versions versions;
    private final Map<String, String> flags;
    private final Map<String, String> env;
    private final Deque<Set<String>> scopes;

    public Eval(MachineFacts facts, EffectiveDeployment dep, Versions versions) {
        this(facts, dep, versions, dep.flags(), dep.env(), new ArrayDeque<>());
    }

    private Eval(MachineFacts facts, EffectiveDeployment dep, Versions versions, Map<String, String> flags,
                 Map<String, String> env, Deque<Set<String>> scopes) {
        this.facts = facts;
        this.dep = dep;
        this.versions = versions;
        this.flags = flags;
        this.env = env;
        this.scopes = scopes;
    }

    /**
     * The same machine and deployment with other knob values (for what-ifs and recommendations). Facts read
     * while evaluating the what-if count for the verdict being built, since they are the same facts.
     */
    public Eval with(Map<String, String> newFlags, Map<String, String> newEnv) {
        return new Eval(facts, dep, versions, Map.copyOf(newFlags), Map.copyOf(newEnv), scopes);
    }

    /** With one flag (or env, by kind) set; null removes it. */
    public Eval with(KnobSpec k, String value) {
        Map<String, String> f = new LinkedHashMap<>(flags);
        Map<String, String> e = new LinkedHashMap<>(env);
        Map<String, String> target = k.kind() == KnobSpec.Kind.ENV ? e : f;
        if (value == null) {
            target.remove(k.name());
        } else {
            target.put(k.name(), value);
        }
        return with(f, e);
    }

    Map<String, String> flags() {
        return flags;
    }

    public Map<String, String> env() {
        return env;
    }

    // ---- verdict scopes

    /** Starts a verdict for {@code k}; facts read until {@link VerdictBuilder#build()} are recorded for it. */
    public VerdictBuilder on(KnobSpec k, String version) {
        scopes.push(new LinkedHashSet<>());
        return new VerdictBuilder(k, version, value(k), this::close);
    }

    /** Starts a verdict for {@code k} under the chosen version of the framework whose version record is {@code type}. */
    public VerdictBuilder on(KnobSpec k, Class<? extends RuleVersion> type) {
        return on(k, version(type).id());
    }

    /** The chosen rule-set version of the framework whose version record is {@code type}. */
    public <V extends RuleVersion> V version(Class<V> type) {
        return versions.get(type);
    }

    void use(String key) {
        if (!scopes.isEmpty()) {
            scopes.peek().add(key);
        }
    }

    /** Ends the innermost scope; the facts it read count for the enclosing verdict too. */
    FactsRead close() {
        Set<String> used = scopes.pop();
        if (!scopes.isEmpty()) {
            scopes.peek().addAll(used);
        }
        return new FactsRead(notes(used), notModelled(used));
    }

    /** The not-modelled grounds among the facts read: MIG instances, a TP placement the frameworks do not settle. */
    private List<String> notModelled(Set<String> used) {
        List<String> out = new ArrayList<>();
        for (FactKey k : FactKey.values()) {
            Fact<?> f = facts.get(k);
            if (used.contains(k.key) && f.origin() == Fact.Origin.UNKNOWN && f.detail().startsWith(MachineFacts.MIG_CAUSE)) {
                out.add("MIG instances (" + MachineFacts.MIG_SOURCE + "): this ok rests on facts MIG leaves unknown.");
                break;
            }
        }
        if (used.contains("deployment." + EffectiveDeployment.PLACEMENT) && dep.notes().get(EffectiveDeployment.PLACEMENT) != null
                && dep.notes().get(EffectiveDeployment.PLACEMENT).startsWith(EffectiveDeployment.PLACEMENT_UNKNOWN)) {
            out.add("this ok rests on the TP group's placement over the nodes.");
        }
        return out;
    }

    /**
     * What the verdict's {@code why} states about the facts it read: first the user's what-ifs in one short list
     * ({@code What-if: sm=10.0, nodes=2.}), then each unknown or derived fact ({@code Assumed: …}).
     */
    /** Facts read from the software stack: a verdict that used them says what was read, where. */
    private static final Set<FactKey> STACK_FACTS = java.util.EnumSet.of(FactKey.TORCH_CUDA, FactKey.FLASHINFER);

    private List<String> notes(Set<String> used) {
        List<String> whatIf = new ArrayList<>();
        List<String> assumed = new ArrayList<>();
        List<String> read = new ArrayList<>();
        for (FactKey k : FactKey.values()) {
            if (!used.contains(k.key)) {
                continue;
            }
            Fact<?> f = facts.get(k);
            if (k == FactKey.SM && f.value() == null) {
                continue; // only read off CUDA, where no rule needs it
            }
            if (f.origin() == Fact.Origin.ASSUMED) {
                whatIf.add(k.key + "=" + f.value());
            } else if (k == FactKey.PLATFORM && f.origin() == Fact.Origin.DERIVED) {
                whatIf.add("platform=" + f.value() + " (implied by sm)");
            } else if (f.origin() != Fact.Origin.PROBED) {
                assumed.add(f.note(k));
            } else if (STACK_FACTS.contains(k) || k == FactKey.NCCL_VERSION && !f.detail().startsWith("ncclGetVersion of ")) {
                read.add(k.key + " " + f.value() + " (" + f.detail() + ")");
            }
        }
        for (String key : List.of("deployment.tp", "deployment.nodes", "deployment." + EffectiveDeployment.PLACEMENT)) {
            String n = dep.notes().get(key.substring("deployment.".length()));
            if (used.contains(key) && n != null) {
                assumed.add(n);
            }
        }
        List<String> out = new ArrayList<>();
        if (!whatIf.isEmpty()) {
            out.add("What-if: " + String.join(", ", whatIf) + ".");
        }
        if (!read.isEmpty()) {
            out.add("Read: " + String.join("; ", read) + ".");
        }
        if (!assumed.isEmpty()) {
            out.add("Assumed: " + String.join("; ", assumed) + ".");
        }
        return out;
    }

    // ---- machine facts

    public String platform() {
        use(FactKey.PLATFORM.key);
        return facts.platform().value();
    }

    public boolean cuda() {
        return "cuda".equals(platform());
    }

    public String sm() {
        use(FactKey.SM.key);
        return facts.sm().value();
    }

    public int major() {
        String s = sm();
        return s == null ? -1 : Integer.parseInt(s.split("\\.")[0]);
    }

    /** Capability × 10 as vLLM keys its tables (90, 100, 103, 120), or -1 when unknown. */
    public int capTimes10() {
        String s = sm();
        if (s == null) {
            return -1;
        }
        String[] p = s.split("\\.");
        return Integer.parseInt(p[0]) * 10 + Integer.parseInt(p[1]);
    }

    /** torch's CUDA is at least {@code min}; an unknown torch CUDA counts as new enough (and is stated). */
    public boolean torchCudaAtLeast(String min) {
        use(FactKey.TORCH_CUDA.key);
        String t = facts.torchCuda().value();
        return t == null || Values.compareVersions(t, min) >= 0;
    }

    public String torchCuda() {
        use(FactKey.TORCH_CUDA.key);
        return facts.torchCuda().value();
    }

    public boolean multicast() {
        use(FactKey.MULTICAST.key);
        return facts.multicast().value();
    }

    public boolean fabricHandles() {
        use(FactKey.FABRIC_HANDLES.key);
        return facts.fabricHandles().value();
    }

    public boolean mnnvlFabric() {
        use(FactKey.MNNVL_FABRIC.key);
        return facts.mnnvlFabric().value();
    }

    public boolean nvswitch() {
        use(FactKey.NVSWITCH.key);
        return facts.nvswitch().value();
    }

    /** Every GPU pair of the TP group's GPUs on a node (the node's first min(TP, GPUs per node)) NVLink-connected. */
    public boolean allNvlink() {
        use(FactKey.ALL_NVLINK.key);
        return facts.allNvlinkAmong(groupOnNode()).value();
    }

    public boolean nvlinkBridge() {
        use(FactKey.NVLINK_BRIDGE.key);
        return facts.nvlinkBridge().value();
    }

    /** Every GPU pair of the TP group's GPUs on a node peer-accessible. */
    public boolean p2p() {
        use(FactKey.P2P.key);
        return facts.p2pAmong(groupOnNode()).value();
    }

    /** The TP group's GPUs on one node: CUDA devices 0..k−1 ({@link dev.fabricscope.advisor.api.GroupLinks}). */
    private int groupOnNode() {
        return dep.tpPerNode();
    }

    public boolean confidentialCompute() {
        use(FactKey.CONFIDENTIAL_COMPUTE.key);
        return facts.confidentialCompute().value();
    }

    public String hostArch() {
        use(FactKey.HOST_ARCH.key);
        return facts.hostArch().value();
    }

    public boolean flashinferInstalled() {
        use(FactKey.FLASHINFER.key);
        return facts.flashinfer().value();
    }

    /** NCCL version, or null when unknown (taken as current, and stated). */
    public String ncclVersion() {
        use(FactKey.NCCL_VERSION.key);
        return facts.ncclVersion().value();
    }

    /** The snapshot holds an NCCL version that is not a version (verdicts that depend on it say unknown). */
    public boolean ncclUnreadable() {
        use(FactKey.NCCL_VERSION.key);
        Fact<String> f = facts.ncclVersion();
        return f.value() == null && f.origin() == Fact.Origin.UNKNOWN && f.detail().startsWith(MachineFacts.NCCL_UNREADABLE);
    }

    /** An IMEX channel device exists; null when it was not read (no working value: a rule says unknown). */
    public Boolean imexChannel() {
        use(FactKey.IMEX_CHANNEL.key);
        return facts.imexChannel().value();
    }

    public boolean fabricReady() {
        use(FactKey.FABRIC_READY.key);
        return facts.fabricReady().value();
    }

    // ---- deployment

    public int tp() {
        use("deployment.tp");
        if (facts.gpusPerNode().origin() == Fact.Origin.DERIVED) {
            use(FactKey.GPUS_PER_NODE.key);
        }
        return dep.tp();
    }

    /** The pipeline-parallel size the deployment gives ({@code --flag pipeline-parallel-size}, SGLang's --pp-size too); 1 when not given. */
    public int pp() {
        String v = flags.get("pipeline-parallel-size");
        try {
            return v == null ? 1 : Math.max(1, Integer.parseInt(v.strip()));
        } catch (NumberFormatException ex) {
            return 1;
        }
    }

    public int nodes() {
        use("deployment.nodes");
        return dep.nodes();
    }

    public boolean multiNode() {
        return nodes() > 1;
    }

    public int gpusPerNode() {
        use(FactKey.GPUS_PER_NODE.key);
        return dep.gpusPerNode();
    }

    /** The user gave this deployment field ({@code tp}, {@code nodes}, {@code dcp}, {@code model}, {@code tokens}); else it was derived. */
    public boolean userGave(String field) {
        use("deployment." + field);
        return dep.given().contains(field);
    }

    /** The TP group has ranks on more than one node, as SGLang and vLLM place them ({@link EffectiveDeployment#tpNodes()}). */
    public boolean tpSpansNodes() {
        return tpNodes() > 1;
    }

    /** The nodes one TP group spans. */
    public int tpNodes() {
        use("deployment.nodes");
        use("deployment." + EffectiveDeployment.PLACEMENT);
        if (facts.gpusPerNode().origin() == Fact.Origin.DERIVED) {
            use(FactKey.GPUS_PER_NODE.key);
        }
        return dep.tpNodes();
    }

    /** The TP group's ranks on each node it spans. */
    public int tpPerNode() {
        tpNodes();
        return dep.tpPerNode();
    }

    public int dcp() {
        use("deployment.dcp");
        return dep.dcp();
    }

    public String model() {
        use("deployment.model");
        return dep.model();
    }

    public Integer tokens() {
        use("deployment.tokens");
        return dep.tokens();
    }

    // ---- phrases for "why"

    /** {@code GPU 0–7 are SM 9.0 (Hopper)}. */
    public String gpus() {
        use(FactKey.SM.key);
        return facts.smPhrase();
    }

    /** {@code the deployment spans 2 nodes} / {@code the deployment runs on one node}. */
    public String span() {
        int n = nodes();
        return n > 1 ? "the deployment spans " + n + " nodes" : "the deployment runs on one node";
    }

    /** {@code TP 8} plus where its ranks are when it spans nodes. */
    public String tpPhrase() {
        int t = tp();
        return "TP " + t + (tpSpansNodes() ? " (" + tpPerNode() + " GPUs per node over " + tpNodes() + " nodes)" : "");
    }

    public String platformName() {
        String p = platform();
        return p == null ? "an unknown platform" : switch (p) {
            case "rocm" -> "ROCm (AMD)";
            case "cpu" -> "CPU only";
            default -> "CUDA";
        };
    }

    // ---- knob values

    /** The user's value of {@code k}, or null when not set. */
    public String value(KnobSpec k) {
        if (k.kind() == KnobSpec.Kind.DEPLOYMENT) {
            return dep.given().contains("dcp") ? Integer.toString(dep.dcp()) : null;
        }
        return (k.kind() == KnobSpec.Kind.ENV ? env : flags).get(k.name());
    }

    public boolean isSet(KnobSpec k) {
        return value(k) != null;
    }

    public boolean bool(KnobSpec k) {
        String v = value(k);
        return k.on(v != null ? v : k.defaultValue());
    }

    /** An integer knob's value as given, else its default. */
    public int intValue(KnobSpec k) {
        String v = value(k);
        return Integer.parseInt(v != null ? v : k.defaultValue());
    }

    /** An environment variable exported by the user, set to a truthy value. */
    public boolean envTrue(KnobSpec k) {
        return k.on(env.get(k.name()));
    }
}
