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
import java.util.LinkedHashMap;
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

    @Option(names = "--cluster", paramLabel = "DIR",
            description = "A folder of node reports ('fabricscope cluster collect'): advise a deployment over those nodes (their count, whether they share one NVLink domain).")
    java.nio.file.Path cluster;

    @Mixin
    DeploymentOptions deployment;

    @Option(names = "--json", description = "Print the advice as JSON.")
    boolean json;

    @Option(names = "--all", description = "Also list the verdicts that are ok (hidden by default).")
    boolean all;

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
        Deployment d;
        Options o;
        try {
            d = deployment.deployment();
            o = deployment.options();
        } catch (AdvisorInputException e) {
            return usage(e.getMessage());
        }
        MachineSnapshot snapshot;
        String clusterLine = null;
        if (cluster != null) {
            if (source.given()) {
                return usage("give either --cluster or --snapshot/--sample, not both");
            }
            dev.fabricscope.cluster.ClusterFacts cf;
            try {
                dev.fabricscope.cluster.ClusterView view = ClusterCommand.load(cluster);
                Integer nodes = d.nodes();
                if (nodes != null && (nodes < 1 || nodes > view.readable().size())) {
                    return usage("--nodes " + nodes + " but the cluster folder has " + view.readable().size() + " readable node report(s)");
                }
                cf = dev.fabricscope.cluster.ClusterFacts.of(view, nodes);
                snapshot = cf.representative().readSnapshot(); // the cluster view read summaries only
            } catch (java.io.IOException | IllegalArgumentException | dev.fabricscope.io.SnapshotIO.ReadException e) {
                err.println("fabricscope: " + e.getMessage());
                err.flush();
                return ExitCodes.BAD_INPUT;
            }
            Map<String, String> merged = new LinkedHashMap<>(cf.assumptions());
            merged.putAll(o.assume());
            o = new Options(o.frameworks(), o.versions(), merged);
            if (d.nodes() == null) {
                d = d.withNodes(cf.nodesUsed());
            }
            clusterLine = "Cluster: " + cf.summary();
        } else if (source.given()) {
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
        if (json) {
            Map<String, Object> tree = new LinkedHashMap<>(r.toJsonTree());
            if (clusterLine != null) {
                tree.put("cluster", clusterLine.substring("Cluster: ".length()));
            }
            out.print(RecordJson.write(tree));
        } else {
            out.print((clusterLine != null ? clusterLine + "\n" : "") + AdviceText.render(r, all));
        }
        out.flush();
        return ExitCodes.OK;
    }

    private int usage(String message) {
        return DeploymentOptions.usage(spec, "advise", message);
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
