package dev.fabricscope.cli;

import dev.fabricscope.advisor.AdviceResult;
import dev.fabricscope.advisor.Advisor;
import dev.fabricscope.advisor.AdvisorInputException;
import dev.fabricscope.advisor.Deployment;
import dev.fabricscope.advisor.FactKey;
import dev.fabricscope.advisor.KnobSpec;
import dev.fabricscope.advisor.Knobs;
import dev.fabricscope.advisor.Options;
import dev.fabricscope.json.RecordJson;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.probe.LiveProbe;
import dev.fabricscope.render.AdviceText;
import dev.fabricscope.render.TextTable;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code fabricscope advise}: which all-reduce / communication backends work on this machine for a deployment, and why. */
@Command(name = "advise", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"For a machine (live probe by default) and a planned deployment, say for every SGLang, vLLM, FlashInfer and "
                + "NCCL all-reduce knob whether it works (ok), silently falls back (fallback) or stops start-up (error), with the "
                + "framework's own message, when it happens, why in terms of this machine, the fix and the upstream source; "
                + "then the fastest valid settings per framework.",
                "Use --list-knobs for every flag, env name, assume key and rule-set version."},
        footer = {"", "--json prints {\"machine\": {effective facts, provenance}, \"deployment\": {…}, \"verdicts\": [{framework, knob, value, "
                + "userSet, outcome, resolved, errorClass, message, when, why, fix, source, version}, …], \"recommendations\": […], "
                + "\"versions\": {…}}; fields without a value are left out.", ExitCodes.HELP_FOOTER})
public final class AdviseCommand implements Callable<Integer> {

    /** How the live machine is read; tests replace it so they never depend on the machine running them. */
    static Supplier<MachineSnapshot> liveProbe = () -> new LiveProbe(Main.argv, null).probe();

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Mixin
    SnapshotSource source;

    @Option(names = "--framework", paramLabel = "NAME", description = "sglang, vllm, flashinfer or nccl; repeat for several (default: all).")
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

    @Option(names = "--flag", paramLabel = "NAME=VALUE", description = "A framework flag without its dashes, a config key or a library argument, "
            + "e.g. flashinfer-allreduce-fusion-backend=trtllm, fuse_allreduce_rms=true.")
    List<String> flags = new ArrayList<>();

    @Option(names = "--env", paramLabel = "NAME=VALUE", description = "An environment variable, e.g. VLLM_FLASHINFER_ALLREDUCE_BACKEND=mnnvl.")
    List<String> env = new ArrayList<>();

    @Option(names = "--assume", paramLabel = "KEY=VALUE", description = "What-if on a machine fact, e.g. sm=10.0, platform=rocm, multicast=false.")
    List<String> assume = new ArrayList<>();

    @Option(names = "--framework-version", paramLabel = "NAME=VERSION", description = "Rule-set version, e.g. vllm=older (default: newest).")
    List<String> versions = new ArrayList<>();

    @Option(names = "--json", description = "Print the advice as JSON.")
    boolean json;

    @Option(names = "--list-knobs", description = "List every flag, env name, assume key and rule-set version, then exit.")
    boolean listKnobs;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (listKnobs) {
            out.print(knobList());
            out.flush();
            return ExitCodes.OK;
        }
        Map<String, String> flagMap;
        Map<String, String> envMap;
        Map<String, String> assumeMap;
        Map<String, String> versionMap;
        try {
            flagMap = pairs("--flag", flags);
            envMap = pairs("--env", env);
            assumeMap = pairs("--assume", assume);
            versionMap = pairs("--framework-version", versions);
        } catch (AdvisorInputException e) {
            return usage(e.getMessage());
        }
        MachineSnapshot snapshot;
        if (source.given()) {
            try {
                snapshot = source.load(spec.commandLine(), false);
            } catch (SnapshotSource.SourceException e) {
                err.println("fabricscope: " + e.getMessage());
                err.flush();
                return e.exitCode;
            }
        } else {
            snapshot = liveProbe.get();
        }
        Deployment d = new Deployment(tp, nodes, dcp, model, tokens, flagMap, envMap);
        Options o = new Options(frameworks, versionMap, assumeMap);
        AdviceResult r;
        try {
            r = Advisor.advise(snapshot, d, o);
        } catch (AdvisorInputException e) {
            return usage(e.getMessage());
        }
        if (r.blocked() != null) {
            boolean noDriver = snapshot == null || snapshot.driver() == null || !snapshot.driver().driverPresent() || snapshot.gpus().isEmpty();
            if (noDriver) {
                String why = snapshot != null && snapshot.driver() != null && snapshot.driver().message() != null ? snapshot.driver().message()
                        : "the " + (source.given() ? "snapshot" : "machine") + " shows no NVIDIA GPU";
                err.println("fabricscope: no NVIDIA driver" + (source.given() ? " in the snapshot" : "") + " (" + why
                        + "); advise another machine with --sample NAME (see 'fabricscope samples') or --snapshot FILE, or give its facts with --assume sm=X.Y [--assume gpus-per-node=N …]");
                err.flush();
                return ExitCodes.NO_DRIVER;
            }
            return usage("cannot advise: " + r.blocked());
        }
        out.print(json ? RecordJson.write(r.toJsonTree()) : AdviceText.render(r));
        out.flush();
        return ExitCodes.OK;
    }

    private int usage(String message) {
        PrintWriter err = spec.commandLine().getErr();
        err.println("fabricscope: " + message);
        err.println("Try 'fabricscope advise --help' or 'fabricscope advise --list-knobs'.");
        err.flush();
        return ExitCodes.USAGE;
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

    private static String knobList() {
        StringBuilder sb = new StringBuilder();
        TextTable t = new TextTable("FRAMEWORK", "GIVE AS", "KNOB", "DEFAULT", "VALUES");
        for (KnobSpec k : Knobs.all()) {
            String how = switch (k.kind()) {
                case ENV -> "--env";
                case PROBE -> "(probed)";
                case DEPLOYMENT -> "--dcp";
                default -> "--flag";
            };
            String values = k.type() == KnobSpec.Type.CHOICE ? String.join("|", k.choices()) : k.type().name().toLowerCase();
            t.row(k.framework() + (k.onlyVersion() != null ? " (" + k.onlyVersion() + ")" : ""), how, k.display(), k.defaultValue(), values);
        }
        sb.append(t.render()).append("\nAssume keys (--assume KEY=VALUE):\n");
        for (FactKey k : FactKey.values()) {
            sb.append("  ").append(k.key).append(": ").append(k.description).append('\n');
        }
        sb.append("\nRule-set versions (--framework-version NAME=VERSION; newest is the default):\n");
        for (String v : Options.describeVersions()) {
            sb.append("  ").append(v).append('\n');
        }
        return sb.toString();
    }
}
