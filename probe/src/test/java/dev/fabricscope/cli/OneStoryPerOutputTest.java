package dev.fabricscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fabricscope.json.Json;
import dev.fabricscope.samples.Samples;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 24 item 2, "one story per output": every bundled sample and every captured trace, snapshot and report goes
 * through {@code show}, {@code advise}, {@code report} and {@code check node --no-live}, and no two things those outputs
 * say may contradict each other. The contradictions are data ({@link #PAIRS}): how to see side A and side B in the
 * structured results (the JSON of each command; text only for what exists only as text, the services line), and why
 * they cannot both be true.
 */
class OneStoryPerOutputTest {

    /** What the four commands said about one input. */
    record Story(String input, JsonNode snapshot, String showText, JsonNode advise, JsonNode report, JsonNode node) {

        Stream<JsonNode> findings() {
            return stream(snapshot.path("findings"));
        }

        boolean finding(String code) {
            return findings().anyMatch(f -> code.equals(f.path("code").asText()));
        }

        Stream<JsonNode> findingsOf(JsonNode snap) {
            return stream(snap.path("findings"));
        }

        String env(String name) {
            JsonNode v = snapshot.path("environment").get(name);
            return v == null ? null : v.asText();
        }

        /** The advisor's fact (the report's advice, which is what {@code advise} gives too; see the consistency rows). */
        String fact(String key) {
            JsonNode v = report.path("advice").path("facts").get(key);
            return v == null ? null : v.asText();
        }

        boolean factProbed(String key) {
            return report.path("advice").path("factSources").path(key).asText().startsWith("probed");
        }

        Stream<JsonNode> recommendations() {
            return stream(advise.path("recommendations"));
        }

        /** A recommendation's flags, env and summary as one text, e.g. to find {@code mnnvl} wherever it is named. */
        static String said(JsonNode rec) {
            return rec.path("flags") + " " + rec.path("env") + " " + rec.path("summary").asText();
        }

        boolean recommends(Predicate<JsonNode> p) {
            return recommendations().anyMatch(p);
        }

        JsonNode recommendation(String framework) {
            return recommendations().filter(r -> framework.equals(r.path("framework").asText())).findFirst().orElse(null);
        }

        Stream<JsonNode> expectations() {
            return stream(node.path("expectations"));
        }

        boolean expectation(String name, String outcome) {
            return expectations().anyMatch(x -> name.equals(x.path("name").asText()) && outcome.equals(x.path("outcome").asText()));
        }

        Stream<JsonNode> gpus() {
            return stream(snapshot.path("gpus"));
        }

        /** The rendered services line of a unit, or null. */
        String serviceLine(String unit) {
            String flat = showText.replaceAll("\n {6}", " ");
            return flat.lines().filter(l -> l.startsWith("  " + unit + ": ")).findFirst().orElse(null);
        }

        static Stream<JsonNode> stream(JsonNode array) {
            return StreamSupport.stream(array.spliterator(), false);
        }
    }

    /**
     * Two things one machine's outputs cannot both say.
     *
     * @param id    short name
     * @param sideA what one output says, and how it is seen
     * @param sideB what another says
     * @param why   why both cannot be true
     */
    record Contradiction(String id, String sideA, Predicate<Story> a, String sideB, Predicate<Story> b, String why) {
        boolean holds(Story s) {
            return a.test(s) && b.test(s);
        }
    }

    private static boolean fabricCompleted(Story s) {
        return s.gpus().anyMatch(g -> "COMPLETED".equals(g.path("fabric").path("state").path("value").asText()));
    }

    private static boolean customAllReduceRecommended(Story s) {
        return s.recommends(r -> r.path("summary").asText().contains("custom all-reduce for small messages"));
    }

    /** A recommendation that needs NVLink multicast: NVLS on, a FlashInfer mnnvl workspace or fusion, multimem. */
    private static boolean multicastRecommended(Story s) {
        JsonNode nccl = s.recommendation("nccl");
        boolean nvls = nccl != null && (nccl.path("summary").asText().contains("NVLink SHARP works here")
                || "1".equals(nccl.path("env").path("NCCL_NVLS_ENABLE").asText()));
        return nvls || s.recommends(r -> {
            String setting = r.path("flags") + " " + r.path("env");
            String summary = r.path("summary").asText();
            return setting.contains("mnnvl") || summary.contains("with mnnvl") || summary.contains("mnnvl workspace")
                    || summary.contains("(multimem)") || summary.contains("(backend=\"mnnvl\")");
        });
    }

    /** A recommendation that uses FlashInfer (a workspace call, a fusion backend, vLLM's FlashInfer backend variable). */
    private static boolean flashInferRecommended(Story s) {
        return s.recommends(r -> !r.path("summary").asText().contains("not installed")
                && (r.path("flags").toString().contains("create_allreduce_fusion_workspace")
                || r.path("flags").toString().contains("--flashinfer-allreduce-fusion-backend=")
                || r.path("env").has("VLLM_FLASHINFER_ALLREDUCE_BACKEND")
                || r.path("summary").asText().contains("fusion with")));
    }

    /** The advisor's verdicts on variables the machine exports (knob names in capitals are environment variables). */
    private static List<JsonNode> verdictsOnExported(Story s) {
        return Story.stream(s.advise().path("verdicts"))
                .filter(v -> v.path("knob").asText().matches("[A-Z][A-Z0-9_]+") && s.env(v.path("knob").asText()) != null).toList();
    }

    /** Of those, the verdicts judged for another value than the exported one, as if nothing were exported. */
    private static List<String> exportedButNotAdvised(Story s) {
        List<String> out = new ArrayList<>();
        for (JsonNode v : verdictsOnExported(s)) {
            String exported = s.env(v.path("knob").asText());
            if (!v.path("userSet").asBoolean() || !exported.equals(v.path("value").asText())) {
                out.add(v.path("knob").asText() + "=" + exported + " exported, verdict for " + v.path("value").asText());
            }
        }
        return out;
    }

    private static Set<String> codes(Stream<JsonNode> findings) {
        return findings.map(f -> f.path("code").asText()).collect(java.util.stream.Collectors.toCollection(TreeSet::new));
    }

    /** The pairs, as data. */
    static final List<Contradiction> PAIRS = List.of(
            new Contradiction("fabric-up/manager-not-running",
                    "a GPU's fabric state is COMPLETED (snapshot gpus[].fabric.state)", OneStoryPerOutputTest::fabricCompleted,
                    "services: nvidia-fabricmanager not running / unknown, not saying where it runs",
                    s -> {
                        String line = s.serviceLine("nvidia-fabricmanager");
                        return line != null && !line.contains(": running") && !line.contains("runs on the host") && !line.contains("switch trays");
                    },
                    "COMPLETED means a fabric manager registered the GPUs; if it is not here, the output must say where it is "
                            + "(the host of a pass-through VM, the switch trays of an MNNVL domain)"),
            new Contradiction("fabric-up/nvlsm-missing",
                    "a GPU's fabric state is COMPLETED (snapshot gpus[].fabric.state)", OneStoryPerOutputTest::fabricCompleted,
                    "show names NVLSM missing: a verdict cause 'NVLSM not installed / not running', or the nvlsm services line "
                            + "saying the fabric manager needs it",
                    s -> s.showText().replaceAll("\n {6}", " ").matches("(?s).*NVLSM not (installed|running).*")
                            || s.serviceLine("nvlsm") != null && !s.serviceLine("nvlsm").contains(": running")
                            && s.serviceLine("nvlsm").contains("fabric managers need it"),
                    "without NVLSM an NVLink5 fabric manager does not start and the fabric stays In Progress "
                            + "(siderolabs/extensions#717): COMPLETED shows it ran"),
            new Contradiction("nvlsm-running/named-missing",
                    "services: nvlsm running", s -> s.serviceLine("nvlsm") != null && s.serviceLine("nvlsm").contains(": running"),
                    "a verdict names NVLSM not installed / not running",
                    s -> s.showText().replaceAll("\n {6}", " ").matches("(?s).*NVLSM not (installed|running).*"),
                    "one process table, one answer"),
            new Contradiction("nvls-off/leave-unset",
                    "the environment exports NCCL_NVLS_ENABLE=0 (finding nvls-off)", s -> "0".equals(s.env("NCCL_NVLS_ENABLE")),
                    "the NCCL recommendation sets no NCCL_NVLS_ENABLE and says NVLS works / leave it unset",
                    s -> {
                        JsonNode r = s.recommendation("nccl");
                        return r != null && !r.path("env").has("NCCL_NVLS_ENABLE")
                                && (r.path("summary").asText().contains("Leave NCCL_NVLS_ENABLE unset") || r.path("summary").asText().contains("works here"));
                    },
                    "with the exported 0 NVLS stays off; 'no changes' leaves it off"),
            new Contradiction("exported-env/not-advised",
                    "the environment exports a variable the advisor judges", s -> !verdictsOnExported(s).isEmpty(),
                    "its verdict is for another value (the default), as if nothing were exported", s -> !exportedButNotAdvised(s).isEmpty(),
                    "a deployment started on this machine inherits the exported value"),
            new Contradiction("flashinfer-not-installed/recommended",
                    "advice fact flashinfer=false, probed (FlashInfer not installed (read))",
                    s -> "false".equals(s.fact("flashinfer")) && s.factProbed("flashinfer"),
                    "a recommendation uses FlashInfer (workspace call, fusion backend, VLLM_FLASHINFER_ALLREDUCE_BACKEND) without saying "
                            + "it must be installed", OneStoryPerOutputTest::flashInferRecommended,
                    "a FlashInfer backend cannot run where FlashInfer is not installed"),
            new Contradiction("no-multicast/multicast-recommended",
                    "no NVLink multicast (fact multicast=false, or finding no-multicast)",
                    s -> "false".equals(s.fact("multicast")) || s.finding("no-multicast"),
                    "a recommendation needs multicast (NVLS works here, NCCL_NVLS_ENABLE=1, mnnvl, multimem)",
                    OneStoryPerOutputTest::multicastRecommended,
                    "NVLS, FlashInfer mnnvl and symmetric-memory multimem need NVLink multicast"),
            new Contradiction("finding-no-multicast/fact-multicast",
                    "finding no-multicast on a GPU", s -> s.finding("no-multicast"),
                    "advice fact multicast=true", s -> "true".equals(s.fact("multicast")),
                    "the advisor's fact must hold for every GPU the findings name"),
            new Contradiction("no-p2p/custom-all-reduce",
                    "P2P not supported (finding no-p2p, or fact p2p=false probed)",
                    s -> s.finding("no-p2p") || "false".equals(s.fact("p2p")) && s.factProbed("p2p"),
                    "a recommendation: custom all-reduce for small messages", OneStoryPerOutputTest::customAllReduceRecommended,
                    "custom all-reduce maps peers' buffers over P2P"),
            new Contradiction("mig/custom-all-reduce-or-nvls",
                    "finding mig-enabled", s -> s.finding("mig-enabled"),
                    "a recommendation: custom all-reduce or NVLS", s -> customAllReduceRecommended(s) || multicastRecommended(s),
                    "MIG instances have neither NVLink P2P nor NVLS (the finding says so)"),
            new Contradiction("fabric-not-ready/check-pass",
                    "finding fabric-not-ready", s -> s.finding("fabric-not-ready"),
                    "check node: Fabric state PASS, or fact fabric-ready=true",
                    s -> s.expectation("Fabric state", "PASS") || "true".equals(s.fact("fabric-ready")),
                    "a fabric not ready is not an accepted node nor a ready fabric"),
            new Contradiction("nvlink-down/check-pass",
                    "finding nvlink-down", s -> s.finding("nvlink-down"),
                    "check node: NVLinks active PASS", s -> s.expectation("NVLinks active", "PASS"),
                    "inactive links are not all links active"),
            new Contradiction("nvlink-hidden/check-links-counted",
                    "finding nvlink-hidden: NVLink state cannot be read", s -> s.finding("nvlink-hidden"),
                    "check node: NVLinks active PASS with a count measured",
                    s -> s.expectations().anyMatch(x -> "NVLinks active".equals(x.path("name").asText()) && "PASS".equals(x.path("outcome").asText())
                            && x.path("measured").asText().matches(".*\\d.*")),
                    "links whose state is unreadable are not 0 active links (issue 24 item 1: no vacuous pass)"),
            new Contradiction("no-driver/check-pass",
                    "finding no-driver or no-gpu", s -> s.finding("no-driver") || s.finding("no-gpu"),
                    "check node status PASSED", s -> "PASSED".equals(s.node().path("status").asText()),
                    "a node without driver or GPUs is not accepted (issue 24 item 1)"),
            new Contradiction("zero-cluster-uuid/mnnvl-one-node",
                    "finding fabric-not-mnnvl (fabric COMPLETED, zero cluster UUID)", s -> s.finding("fabric-not-mnnvl"),
                    "its text says FlashInfer mnnvl needs a non-zero cluster UUID (not only across nodes), and a recommendation uses mnnvl",
                    s -> s.findings().anyMatch(f -> "fabric-not-mnnvl".equals(f.path("code").asText())
                            && f.path("message").asText().contains("FlashInfer mnnvl") && !f.path("message").asText().contains("across nodes"))
                            && s.recommends(r -> Story.said(r).contains("mnnvl")),
                    "FlashInfer's mnnvl backend runs on one SM90/SM100 node without an MNNVL domain (backend-rules.md §1.2 R4)"),
            new Contradiction("symm-mem-disabled-by-env/cannot-run",
                    "the environment exports TORCH_SYMM_MEM_DISABLE_MULTICAST=1 on GPUs with multicast",
                    s -> "1".equals(s.env("TORCH_SYMM_MEM_DISABLE_MULTICAST")) && "true".equals(s.fact("multicast")),
                    "a recommendation: torch symmetric memory cannot run here",
                    s -> s.recommends(r -> r.path("summary").asText().contains("symmetric memory cannot run here")),
                    "it can: the exported variable, not the machine, stops it"),
            new Contradiction("findings-differ",
                    "show's findings (codes)", s -> true,
                    "report's or check node's findings (codes) differ",
                    s -> !codes(s.findings()).equals(codes(s.findingsOf(s.report().path("snapshot"))))
                            || !codes(s.findings()).equals(codes(s.findingsOf(s.node().path("snapshot")))),
                    "one machine, one set of findings"),
            new Contradiction("recommendations-differ",
                    "advise's recommendations", s -> true,
                    "the report's recommendations differ",
                    s -> !s.advise().path("recommendations").equals(s.report().path("advice").path("recommendations")),
                    "the same deployment on the same machine"));

    /** Every bundled sample, and every captured trace, snapshot and report of a machine with its driver. */
    static List<List<String>> inputs() {
        return inputs(true);
    }

    /** The captured machines without the NVIDIA driver (their one story is told by {@link #aMachineWithoutItsDriver}). */
    static List<List<String>> driverless() {
        return inputs(false);
    }

    private static boolean hasDriver(Path file) {
        try {
            return dev.fabricscope.usecase.OpenSnapshot.read(file).driver().driverPresent();
        } catch (Exception e) {
            return true; // unreadable: let the story fail loudly on it
        }
    }

    private static List<List<String>> inputs(boolean driver) {
        List<List<String>> out = new ArrayList<>();
        if (driver) {
            for (String name : Samples.names()) {
                out.add(List.of("--sample", name));
            }
        }
        try (Stream<Path> dirs = Files.list(CapturedTraces.ROOT)) {
            for (Path dir : dirs.sorted().toList()) {
                for (String f : List.of("trace.json", "probe.json", "report.json", "node-report.json")) {
                    if (Files.isRegularFile(dir.resolve(f)) && hasDriver(dir.resolve(f)) == driver) {
                        out.add(List.of("--snapshot", dir.resolve(f).toString()));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    static Story story(List<String> source) {
        String input = source.get(1);
        JsonNode snapshot = json(run("show", source, "--json"));
        String showText = run("show", source, "--wide").out();
        JsonNode advise = json(run("advise", source, "--json"));
        JsonNode report = json(run("report", source, "--format", "json"));
        JsonNode node = json(run(List.of("check", "node"), source, "--no-live", "--json"));
        return new Story(input, snapshot, showText, advise, report, node);
    }

    private static CliTest.Run run(String command, List<String> source, String... more) {
        return run(List.of(command), source, more);
    }

    private static CliTest.Run run(List<String> command, List<String> source, String... more) {
        List<String> args = new ArrayList<>(command);
        args.addAll(source);
        args.addAll(List.of(more));
        CliTest.Run r = AdviseTestSupport.run(args.toArray(String[]::new));
        assertEquals(0, r.code(), String.join(" ", args) + ":\n" + r.err());
        return r;
    }

    private static JsonNode json(CliTest.Run r) {
        try {
            return Json.mapper().readTree(r.out());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<String> contradictions(Story s) {
        List<String> found = new ArrayList<>();
        for (Contradiction c : PAIRS) {
            if (c.holds(s)) {
                String detail = c.id().equals("exported-env/not-advised") ? " " + exportedButNotAdvised(s) : "";
                found.add(c.id() + ": [" + c.sideA() + "] vs [" + c.sideB() + "]" + detail + " — " + c.why());
            }
        }
        return found;
    }

    /**
     * Contradictions found and not fixed, with the inputs that show them: each must still be found there (a fix removes
     * its entry), and nothing else may be. Empty: nvlink-hidden/check-links-counted was fixed in NodeAcceptance (a
     * link whose state is unreadable is not an inactive link; issue 24 item 1).
     */
    static final java.util.Map<String, Set<String>> KNOWN = java.util.Map.of();

    /**
     * A machine without the driver tells one story too: show says so and exits 0, advise and check node refuse with
     * exit 3 naming the missing library, and the report holds the same driver message and no advice.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("driverless")
    void aMachineWithoutItsDriver(List<String> source) {
        JsonNode shown = json(run("show", source, "--json"));
        String message = shown.at("/driver/message").asText();
        assertTrue(message.contains("libnvidia-ml.so.1"), message);
        for (List<String> command : List.of(List.of("advise"), List.of("check", "node"))) {
            List<String> args = new ArrayList<>(command);
            args.addAll(source);
            args.add("--json");
            if (command.size() == 2) {
                args.add("--no-live");
            }
            CliTest.Run r = AdviseTestSupport.run(args.toArray(String[]::new));
            assertEquals(dev.fabricscope.cli.ExitCodes.NO_DRIVER, r.code(), String.join(" ", args) + ":\n" + r.err());
            assertEquals(command.size() == 2 ? 1 : 2, r.err().lines().count(), "the cause (and advise's ways out): " + r.err());
            assertTrue(r.err().lines().findFirst().orElse("").contains("libnvidia-ml.so.1"), "the same cause as show: " + r.err());
        }
        JsonNode report = json(run("report", source, "--format", "json"));
        assertEquals(message, report.at("/snapshot/driver/message").asText());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("inputs")
    void noTwoOutputsContradictEachOther(List<String> source) {
        Story s = story(source);
        List<String> found = new ArrayList<>(contradictions(s));
        for (var known : KNOWN.entrySet()) {
            if (known.getValue().contains(s.input())) {
                assertTrue(found.removeIf(line -> line.startsWith(known.getKey() + ":")), known.getKey() + " no longer found on " + s.input()
                        + ": remove it from KNOWN");
            }
        }
        assertTrue(found.isEmpty(), s.input() + ":\n  " + String.join("\n  ", found));
    }

    /**
     * The pairs can fail: the real two-GPU NVSwitch trace with the three sayings issue 24 quotes planted back (the
     * services line of before, "Leave NCCL_NVLS_ENABLE unset" with no change, a FlashInfer mnnvl workspace recommended
     * although FlashInfer is not installed) is caught by exactly those rows.
     */
    @Test
    void theIssuesThreeSayingsPlantedBackAreCaught() {
        Story real = story(List.of("--snapshot", CapturedTraces.NVSWITCH_2GPU_RECORDED.resolve("trace.json").toString()));
        assertEquals(List.of(), contradictions(real));
        JsonNode advise = real.advise().deepCopy();
        for (JsonNode r : advise.path("recommendations")) {
            ObjectNode rec = (ObjectNode) r;
            if ("nccl".equals(rec.path("framework").asText())) {
                rec.putObject("env");
                rec.put("summary", "Leave NCCL_NVLS_ENABLE unset (2): NVLink SHARP works here.");
            }
            if ("flashinfer".equals(rec.path("framework").asText())) {
                rec.putArray("flags").add("create_allreduce_fusion_workspace(backend=\"mnnvl\")");
                rec.put("summary", "mnnvl: every rank has NVLink multicast.");
            }
        }
        String oldServices = real.showText().replaceAll(" — GPUs passed through to a VM: the\\s+fabric manager runs on the host[^\n]*(\n {6}[^\n]*)?", "");
        assertTrue(!oldServices.equals(real.showText()), "the services line names the host:\n" + real.showText());
        Story planted = new Story(real.input(), real.snapshot(), oldServices, advise, real.report(), real.node());
        Set<String> rows = new HashSet<>();
        for (String line : contradictions(planted)) {
            rows.add(line.substring(0, line.indexOf(':')));
        }
        assertEquals(Set.of("fabric-up/manager-not-running", "nvls-off/leave-unset", "flashinfer-not-installed/recommended", "recommendations-differ"),
                rows);
    }

    /** The NVLSM row can fail: "NVLSM not running" planted into the verdict of a COMPLETED NVLink5 sample is caught. */
    @Test
    void nvlsmNamedMissingBesideACompletedFabricIsCaught() {
        Story real = story(List.of("--sample", "hgx-b200"));
        assertEquals(List.of(), contradictions(real));
        String planted = real.showText().replace("links up, fabric up", "links up, fabric NOT up: NVLSM not running (no process)");
        assertTrue(!planted.equals(real.showText()), real.showText());
        Story p = new Story(real.input(), real.snapshot(), planted, real.advise(), real.report(), real.node());
        assertEquals(List.of("fabric-up/nvlsm-missing"), contradictions(p).stream().map(l -> l.substring(0, l.indexOf(':'))).toList());
    }

    /** Each row's side A is seen on some input, so the row is not vacuous over this corpus — except those listed with why. */
    @Test
    void everyRowMeetsItsSideAOnSomeInput() {
        Set<String> notInCorpus = Set.of(
                "no-p2p/custom-all-reduce", // no sample or capture lacks P2P
                "mig/custom-all-reduce-or-nvls", // no sample or capture has MIG on
                "fabric-not-ready/check-pass", // every fabric seen is COMPLETED or not supported
                "nvlink-down/check-pass", // no inactive link in any input
                "nvlsm-running/named-missing", // no input runs NVLSM (NvLinkSignalsFakeDriverTest probes one that does)
                "no-driver/check-pass"); // every input has a driver (CliTest and CheckNodeCommandTest cover the no-driver node)
        List<Story> stories = inputs().stream().map(OneStoryPerOutputTest::story).toList();
        for (Contradiction c : PAIRS) {
            boolean seen = stories.stream().anyMatch(c.a()::test);
            assertEquals(!notInCorpus.contains(c.id()), seen, c.id() + ": side A " + (seen ? "seen" : "never seen"));
        }
    }
}
