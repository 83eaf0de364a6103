package dev.fabricscope.cli;

import dev.fabricscope.advisor.api.AdvisorInputException;
import dev.fabricscope.advisor.api.FactKey;
import dev.fabricscope.advisor.api.KnobSpec;
import dev.fabricscope.advisor.Knobs;
import dev.fabricscope.advisor.RuleSet;
import dev.fabricscope.json.RecordJson;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.render.AdviceText;
import dev.fabricscope.render.Fit;
import dev.fabricscope.render.TextTable;
import dev.fabricscope.usecase.Advise;
import dev.fabricscope.usecase.DeploymentRequest;
import dev.fabricscope.usecase.InspectCluster;
import dev.fabricscope.usecase.UseCaseException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
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
                + "\"versions\": {…}, \"predicted\": {basis, sizes, recommendations: [{framework, backends, selected, fastestValid, "
                + "unpriced, text}]}}; fields without a value are left out.", ExitCodes.HELP_FOOTER})
public final class AdviseCommand implements Callable<Integer> {

    private final CliEnvironment env;

    AdviseCommand(CliEnvironment env) {
        this.env = env;
    }

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
    public Integer call() throws CommandFailure, AdvisorInputException, UseCaseException, dev.fabricscope.io.SnapshotIO.ReadException {
        PrintWriter out = spec.commandLine().getOut();
        if (listKnobs) {
            out.print(json ? RecordJson.write(java.util.Map.of("knobs", Knobs.all(), "notModelled", Knobs.notModelledCounts(), "ruleSets", RuleSet.all()))
                    : knobList());
            out.flush();
            return ExitCodes.OK;
        }
        DeploymentRequest d = deployment.request();
        Advise.Request request;
        if (cluster != null) {
            if (source.given()) {
                throw CommandFailure.usage("give either --cluster or --snapshot/--sample, not both");
            }
            InspectCluster clusters = env.inspectCluster();
            var view = clusters.open(new InspectCluster.Request(cluster, false, null)).view();
            request = Advise.Request.overCluster(clusters.factsFor(view, d.nodes()), d);
        } else if (source.given()) {
            request = Advise.Request.of(source.load(null), d);
        } else {
            request = Advise.Request.of(env.probeLive(), d);
        }
        Advise.Result r = env.advise().advise(request);
        if (r.advice().blocked() != null) {
            if (r.blockedForLackOfDriver()) {
                MachineSnapshot snapshot = r.machine();
                String why = snapshot != null && snapshot.driver() != null && snapshot.driver().message() != null ? snapshot.driver().message()
                        : "the " + (source.given() ? "snapshot" : "machine") + " shows no NVIDIA GPU";
                // the cause on one line, the ways out on the next: both within 120 columns
                throw CommandFailure.fitted(ExitCodes.NO_DRIVER, "no NVIDIA driver" + (source.given() ? " in the snapshot" : "") + ": " + why,
                        "Advise another machine: --sample NAME ('fabricscope samples'), --snapshot FILE, or --assume sm=X.Y …");
            }
            throw CommandFailure.usage("cannot advise: " + r.advice().blocked());
        }
        if (json) {
            out.print(RecordJson.write(r.jsonTree()));
        } else {
            String text = AdviceText.render(r.advice(), all, new AdviceText.Beside(r.predicted().heading(), r.predicted().lines()));
            if (r.cluster() != null) { // the answer first, then which nodes it is about
                int nl = text.indexOf('\n') + 1;
                text = text.substring(0, nl) + Fit.wrap("Cluster: " + r.cluster(), Fit.WIDTH) + text.substring(nl);
            }
            out.print(text);
        }
        out.flush();
        return ExitCodes.OK;
    }

    /** Per framework: how many more upstream names are accepted as not modelled, and the commits of their lists. */
    private static String notModelledList() {
        java.util.Map<String, java.util.List<String>> counts = new java.util.LinkedHashMap<>();
        java.util.Map<String, java.util.Set<String>> sources = new java.util.LinkedHashMap<>();
        for (var c : Knobs.notModelledCounts()) {
            counts.computeIfAbsent(c.framework(), x -> new java.util.ArrayList<>()).add(c.names() + (c.kind().equals("flag") ? " flags" : " env"));
            sources.computeIfAbsent(c.framework(), x -> new java.util.LinkedHashSet<>()).addAll(c.sources());
        }
        StringBuilder sb = new StringBuilder("\nAlso accepted, not modelled (advise shows them as unknown with the upstream line that reads them):\n");
        counts.forEach((fw, parts) -> sb.append(Fit.wrap("  " + fw + ": " + String.join(", ", parts) + " (" + String.join(", ", sources.get(fw)) + ")",
                Fit.WIDTH)));
        return sb.toString();
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
            String values = switch (k.type()) {
                case CHOICE -> String.join("|", k.choices());
                case PY_INT_BOOL -> "int (0 off)";
                case PY_EQ_ONE -> "1 on, else off";
                default -> k.type().name().toLowerCase();
            };
            t.row(k.framework() + (k.onlyVersion() != null ? " (" + k.onlyVersion() + ")" : ""), how, k.display(), k.defaultValue(), values);
        }
        sb.append(t.render(Fit.WIDTH)).append(notModelledList()).append("\nAssume keys (--assume KEY=VALUE):\n");
        for (FactKey k : FactKey.values()) {
            sb.append("  ").append(k.key).append(": ").append(k.description).append('\n');
        }
        sb.append("\nRule sets (--framework-version NAME=SET, a release it covers, or a commit prefix).\n"
                + "By default the set covering the version the machine reports, else newest:\n");
        for (RuleSet r : RuleSet.all()) {
            r.lines().forEach(l -> sb.append(Fit.wrap("  " + l, Fit.WIDTH)));
        }
        return sb.toString();
    }
}
