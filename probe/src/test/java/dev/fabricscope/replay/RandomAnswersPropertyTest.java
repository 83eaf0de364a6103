package dev.fabricscope.replay;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fabricscope.advisor.Advisor;
import dev.fabricscope.advisor.api.Deployment;
import dev.fabricscope.advisor.Options;
import dev.fabricscope.cli.CapturedTraces;
import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.json.RecordJson;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.nativeapi.NativeAnswer;
import dev.fabricscope.nativeapi.backends.NativeBackends;
import dev.fabricscope.nativeapi.trace.NativeTrace;
import dev.fabricscope.nativeapi.trace.TraceCall;
import dev.fabricscope.probe.LiveProbe;
import dev.fabricscope.probe.TraceReplay;
import dev.fabricscope.render.fabric.FabricLayout;
import dev.fabricscope.render.fabric.FabricPalette;
import dev.fabricscope.render.fabric.FabricSvg;
import dev.fabricscope.render.SnapshotText;
import dev.fabricscope.report.HtmlReport;
import dev.fabricscope.report.MarkdownReport;
import dev.fabricscope.report.Report;
import dev.fabricscope.report.ReportAdvice;
import dev.fabricscope.report.ReportChecks;
import dev.fabricscope.report.Reports;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Nothing the hardware answers kills the probe: the real traces of the two captured H200 machines are mutated at
 * random (return codes, faults, values out of range or of the wrong shape, calls dropped or answered twice, calls
 * that hang), and each time the unchanged probe completes and its snapshot renders as text, JSON that reads back,
 * Markdown, HTML and a fabric drawing, and the advisor answers. The mutations are jqwik values (a list of
 * {@link Mutation}s over one of the traces), so a failure shrinks to the fewest, simplest answers that still fail.
 */
class RandomAnswersPropertyTest {

    private static final NativeTrace TWO = CapturedTraces.trace(CapturedTraces.NVSWITCH_2GPU);
    private static final NativeTrace ONE = CapturedTraces.trace(CapturedTraces.PASSTHROUGH_1GPU);
    /** The one-GPU H200 again, recorded with its Python stack (/opt/torch/.venv: the host calls that read it). */
    private static final NativeTrace STACK = CapturedTraces.trace(CapturedTraces.PYTHON_ENV_1GPU);
    /** The two-GPU NVSwitch H200 recorded by Fabricscope with every reading of the current build (825 calls). */
    private static final NativeTrace RECORDED_TWO = CapturedTraces.trace(CapturedTraces.NVSWITCH_2GPU_RECORDED);
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final int[] CODES = {0, 0, 0, 1, 2, 3, 3, 7, 13, 15, 25, 100, 801, 999, -1, Integer.MAX_VALUE, Integer.MIN_VALUE};

    /** One of the four recorded machines. */
    @Provide
    Arbitrary<NativeTrace> traces() {
        return Arbitraries.of(TWO, ONE, RECORDED_TWO, STACK);
    }

    /** What happens to one recorded answer; {@code call} is taken modulo the trace's length. */
    record Mutation(int call, Kind kind, int code, NativeAnswer.Fault fault, int pick, boolean remove, JsonNode value) {
        enum Kind { RETURN_CODE, FAULT, EDIT_VALUE, REPLACE_VALUE, DROP, ANSWER_TWICE }
    }

    @Provide
    Arbitrary<List<Mutation>> mutations() {
        Arbitrary<Mutation> one = Combinators.combine(Arbitraries.integers().between(0, 5000),
                Arbitraries.of(Mutation.Kind.class), Arbitraries.of(java.util.Arrays.stream(CODES).boxed().toList()),
                Arbitraries.of(NativeAnswer.Fault.class),
                Arbitraries.integers().between(0, 63), Arbitraries.integers().between(0, 4).map(i -> i == 0), values(0))
                .as(Mutation::new);
        return one.list().ofMinSize(1).ofMaxSize(300);
    }

    @Property(tries = 2500, seed = "20261201")
    void probeCompletesAndRendersWhateverTheDriverAnswers(@ForAll("traces") NativeTrace base,
                                                          @ForAll("mutations") List<Mutation> mutations,
                                                          @ForAll @net.jqwik.api.constraints.IntRange(min = 0, max = 7) int reports) {
        NativeTrace mutated = mutate(base, mutations);
        MachineSnapshot s = TraceReplay.replay(mutated, "random");
        renderEverywhere(s, reports == 0);
    }

    @Property(tries = 12, seed = "20261201")
    void aCallThatHangsBecomesATimedOutReading(@ForAll("traces") NativeTrace base,
                                               @ForAll @net.jqwik.api.constraints.IntRange(min = 0, max = 5000) int which) {
        List<TraceCall> calls = callsTheProbeMakes(base);
        TraceCall victim = calls.get(which % calls.size());
        NativeBackends replay = NativeBackends.replay(base);
        NativeBackends hanging = new NativeBackends(hangOn(replay.nvml(), victim), hangOn(replay.cuda(), victim),
                hangOn(replay.nccl(), victim), hangOn(replay.host(), victim)).guarded(Duration.ofMillis(40));
        MachineSnapshot s = new LiveProbe(List.of("fabricscope", "probe"), null, hanging).probe();
        String json = RecordJson.write(s);
        assertTrue(json.contains("did not return within 40 ms") || json.contains("answers nothing more")
                || !victimMatters(victim), victim.lib() + " " + victim.call() + " hung, but no reading says so");
        renderEverywhere(s, false);
    }

    /** The calls one replay of the trace makes (a trace may hold answers the probe never asks for). */
    private static List<TraceCall> callsTheProbeMakes(NativeTrace t) {
        dev.fabricscope.nativeapi.trace.TraceRecorder rec = new dev.fabricscope.nativeapi.trace.TraceRecorder();
        new LiveProbe(List.of("fabricscope", "probe"), null, NativeBackends.replay(t).recordedBy(rec)).probe();
        return rec.calls();
    }

    /** Calls whose answer never reaches a reading (shutdown, an error string) need not be reported when they hang. */
    private static boolean victimMatters(TraceCall c) {
        return !Set.of("nvmlShutdown", "nvmlErrorString", "cuGetErrorName", "environment").contains(c.call());
    }

    @SuppressWarnings("unchecked")
    private static <I> I hangOn(I backend, TraceCall victim) {
        Class<I> api = (Class<I>) backend.getClass().getInterfaces()[0];
        return (I) Proxy.newProxyInstance(api.getClassLoader(), new Class<?>[] {api}, (p, m, args) -> {
            if (m.getDeclaringClass() == Object.class) {
                return m.invoke(backend, args);
            }
            if (m.getName().equals(victim.call())) {
                Thread.sleep(60_000);
            }
            return m.invoke(backend, args);
        });
    }

    static void renderEverywhere(MachineSnapshot s, boolean reports) {
        assertNotNull(s);
        String text = SnapshotText.render(s);
        assertFalse(text.isEmpty());
        String json = RecordJson.write(s);
        MachineSnapshot back;
        try {
            back = SnapshotIO.parse(json.getBytes(StandardCharsets.UTF_8), "replayed snapshot");
        } catch (SnapshotIO.ReadException e) {
            throw new AssertionError("the probe wrote a snapshot that does not read back: " + e.getMessage());
        }
        assertNotNull(back);
        String svg = FabricSvg.render(FabricLayout.layout(s), FabricPalette.LIGHT);
        assertTrue(svg.contains("<svg") && svg.endsWith("</svg>\n"), "a whole SVG document");
        if (reports) {
            ReportAdvice advice;
            try {
                advice = ReportAdvice.of(Advisor.advise(s, Deployment.defaults(), Options.defaults()), Deployment.defaults(),
                        Options.defaults());
            } catch (dev.fabricscope.advisor.api.AdvisorInputException e) {
                advice = ReportAdvice.none(e.getMessage());
            }
            Report r = Reports.create(s, advice, ReportChecks.notRequested(), List.of("fabricscope", "report"), Instant.EPOCH);
            assertFalse(MarkdownReport.render(r).isEmpty());
            assertTrue(HtmlReport.render(r).contains("<html"));
        }
    }

    // --- mutations ---

    static NativeTrace mutate(NativeTrace base, List<Mutation> mutations) {
        java.util.Map<Integer, List<Mutation>> at = new java.util.HashMap<>();
        for (Mutation m : mutations) {
            at.computeIfAbsent(m.call() % base.calls().size(), k -> new ArrayList<>()).add(m);
        }
        List<TraceCall> out = new ArrayList<>();
        for (int i = 0; i < base.calls().size(); i++) {
            TraceCall c = base.calls().get(i);
            List<Mutation> here = at.get(i);
            if (here == null) {
                out.add(c);
                continue;
            }
            boolean dropped = false;
            for (Mutation m : here) {
                switch (m.kind()) {
                    case RETURN_CODE -> c = with(c, m.code(), c.value(), null);
                    case FAULT -> c = with(c, null, null, m.fault());
                    case EDIT_VALUE -> c = with(c, 0, editValue(c.value(), m), null);
                    case REPLACE_VALUE -> c = with(c, 0, m.value(), null);
                    case DROP -> dropped = true; // the replay answers NOT_RECORDED
                    case ANSWER_TWICE -> out.add(c);
                }
            }
            if (!dropped) {
                out.add(c);
            }
        }
        return new NativeTrace(base.format(), base.traceVersion(), base.toolVersion(), base.recordedAt(), base.commandLine(),
                base.durationMs(), base.source(), out, null);
    }

    private static TraceCall with(TraceCall c, Integer rc, JsonNode value, NativeAnswer.Fault fault) {
        return new TraceCall(c.seq(), c.lib(), c.call(), c.args(), fault != null ? null : rc, value, fault,
                fault != null ? "random fault" : null, c.us());
    }

    /** {@code v} with one part changed: a field removed or replaced, an array element removed, added or replaced. */
    static JsonNode editValue(JsonNode v, Mutation m) {
        if (v == null || v.isNull()) {
            return m.value();
        }
        if (v.isObject()) {
            ObjectNode o = v.deepCopy();
            List<String> names = new ArrayList<>();
            o.fieldNames().forEachRemaining(names::add);
            if (!names.isEmpty()) {
                String n = names.get(m.pick() % names.size());
                if (m.remove()) {
                    o.remove(n);
                } else {
                    o.set(n, m.value());
                }
            }
            return o;
        }
        if (v.isArray()) {
            ArrayNode a = v.deepCopy();
            if (a.size() == 0 || m.pick() % 3 == 1) {
                a.add(m.value());
            } else if (m.remove()) {
                a.remove(m.pick() % a.size());
            } else {
                a.set(m.pick() % a.size(), m.value());
            }
            return a;
        }
        return m.value();
    }

    /** Any JSON answer: numbers at the edges, hostile text, PCI-like strings, arrays and objects of such (two deep). */
    static Arbitrary<JsonNode> values(int depth) {
        List<Arbitrary<JsonNode>> kinds = new ArrayList<>(List.of(
                Arbitraries.just(F.nullNode()),
                Arbitraries.oneOf(Arbitraries.of(0, -1, 1, 2, 3, 5, 6, 7, 0xFF, 0xFFFF, Integer.MAX_VALUE, Integer.MIN_VALUE),
                        Arbitraries.integers()).map(F::numberNode),
                Arbitraries.oneOf(Arbitraries.of(-1L, 0xFFFFFFFFL, Long.MAX_VALUE, Long.MIN_VALUE), Arbitraries.longs())
                        .map(F::numberNode),
                Arbitraries.of(Double.NaN, Double.POSITIVE_INFINITY, -0.5, 1e300).map(F::numberNode),
                text().map(F::textNode),
                Arbitraries.of(true, false).map(F::booleanNode),
                Arbitraries.of("FFFFFFFF:FF:FF.0", "0000:zz:00.0", "9.0", "", "GPU-", "13000").map(F::textNode)));
        if (depth < 2) {
            Arbitrary<JsonNode> inner = Arbitraries.lazy(() -> values(depth + 1));
            kinds.add(inner.list().ofMaxSize(5).map(l -> {
                ArrayNode a = F.arrayNode();
                l.forEach(a::add);
                return a;
            }));
            List<String> keys = List.of("busId", "domain", "bus", "device", "clusterUuid", "state", "valueType", "path");
            kinds.add(Combinators.combine(Arbitraries.subsetOf(keys), inner.list().ofSize(keys.size())).as((chosen, vals) -> {
                ObjectNode o = F.objectNode();
                for (int i = 0; i < keys.size(); i++) {
                    if (chosen.contains(keys.get(i))) {
                        o.set(keys.get(i), vals.get(i));
                    }
                }
                return o;
            }));
        }
        return Arbitraries.oneOf(kinds);
    }

    /** Letters with control, bidi, C1, surrogate and markup characters mixed in; sometimes 5,000 characters long. */
    static Arbitrary<String> text() {
        String specials = "\u0000\u001b[2J\u0007\r\n\t\u202e\u0085\u009b\u00ff\uFFFD\uD83D\uDE00\"\\<>&'";
        Arbitrary<Character> chars = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(3, Arbitraries.chars().range('a', 'z')),
                net.jqwik.api.Tuple.of(1, Arbitraries.of(specials.chars().mapToObj(c -> (char) c).toList())));
        Arbitrary<String> shortText = chars.list().ofMaxSize(40)
                .map(l -> l.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining()));
        // a long one is a short one repeated to 5,000 characters: as hostile, and cheap to generate 400 times a try
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(9, shortText),
                net.jqwik.api.Tuple.of(1, shortText.filter(t -> !t.isEmpty()).map(t -> t.repeat(5000 / t.length() + 1).substring(0, 5000))));
    }
}
