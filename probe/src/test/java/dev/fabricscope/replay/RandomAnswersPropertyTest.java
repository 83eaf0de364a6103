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
import dev.fabricscope.render.FabricLayout;
import dev.fabricscope.render.FabricPalette;
import dev.fabricscope.render.FabricSvg;
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
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Nothing the hardware answers kills the probe: the real traces of the two captured H200 machines are mutated at
 * random (return codes, faults, values out of range or of the wrong shape, calls dropped or answered twice, calls
 * that hang), and each time the unchanged probe completes and its snapshot renders as text, JSON that reads back,
 * Markdown, HTML and a fabric drawing, and the advisor answers.
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

    private static NativeTrace pick(Random rnd) {
        return switch (rnd.nextInt(4)) {
            case 0 -> TWO;
            case 1 -> ONE;
            case 2 -> RECORDED_TWO;
            default -> STACK;
        };
    }

    @Property(tries = 2500, seed = "20261201")
    void probeCompletesAndRendersWhateverTheDriverAnswers(@ForAll long seed, @ForAll @IntRange(min = 1, max = 60) int percent) {
        Random rnd = new Random(seed);
        NativeTrace base = pick(rnd);
        NativeTrace mutated = mutate(base, rnd, percent);
        MachineSnapshot s = TraceReplay.replay(mutated, "random-" + seed);
        renderEverywhere(s, rnd.nextInt(8) == 0);
    }

    @Property(tries = 12, seed = "20261201")
    void aCallThatHangsBecomesATimedOutReading(@ForAll long seed) {
        Random rnd = new Random(seed);
        NativeTrace base = pick(rnd);
        List<TraceCall> calls = callsTheProbeMakes(base);
        TraceCall victim = calls.get(rnd.nextInt(calls.size()));
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

    static NativeTrace mutate(NativeTrace base, Random rnd, int percent) {
        List<TraceCall> out = new ArrayList<>();
        for (TraceCall c : base.calls()) {
            if (rnd.nextInt(100) >= percent) {
                out.add(c);
                continue;
            }
            switch (rnd.nextInt(7)) {
                case 0 -> out.add(with(c, CODES[rnd.nextInt(CODES.length)], c.value(), null));
                case 1 -> out.add(with(c, null, null, NativeAnswer.Fault.values()[rnd.nextInt(NativeAnswer.Fault.values().length)]));
                case 2, 3 -> out.add(with(c, 0, mutateValue(c.value(), rnd), null));
                case 4 -> out.add(with(c, 0, randomValue(rnd, 0), null));
                case 5 -> { } // dropped: the replay answers NOT_RECORDED
                default -> {
                    out.add(c);
                    out.add(with(c, 0, randomValue(rnd, 0), null));
                }
            }
        }
        return new NativeTrace(base.format(), base.traceVersion(), base.toolVersion(), base.recordedAt(), base.commandLine(),
                base.durationMs(), base.source(), out, null);
    }

    private static TraceCall with(TraceCall c, Integer rc, JsonNode value, NativeAnswer.Fault fault) {
        return new TraceCall(c.seq(), c.lib(), c.call(), c.args(), fault != null ? null : rc, value, fault,
                fault != null ? "random fault" : null, c.us());
    }

    static JsonNode mutateValue(JsonNode v, Random rnd) {
        if (v == null || v.isNull()) {
            return randomValue(rnd, 0);
        }
        if (v.isObject()) {
            ObjectNode o = v.deepCopy();
            List<String> names = new ArrayList<>();
            o.fieldNames().forEachRemaining(names::add);
            if (!names.isEmpty()) {
                String n = names.get(rnd.nextInt(names.size()));
                if (rnd.nextInt(5) == 0) {
                    o.remove(n);
                } else {
                    o.set(n, mutateValue(o.get(n), rnd));
                }
            }
            return o;
        }
        if (v.isArray()) {
            ArrayNode a = v.deepCopy();
            switch (rnd.nextInt(4)) {
                case 0 -> { if (a.size() > 0) a.remove(rnd.nextInt(a.size())); }
                case 1 -> a.add(randomValue(rnd, 1));
                default -> { if (a.size() > 0) { int i = rnd.nextInt(a.size()); a.set(i, mutateValue(a.get(i), rnd)); } }
            }
            return a;
        }
        return randomValue(rnd, 0);
    }

    static JsonNode randomValue(Random rnd, int depth) {
        return switch (rnd.nextInt(depth > 1 ? 7 : 9)) {
            case 0 -> F.nullNode();
            case 1 -> F.numberNode(new int[] {0, -1, 1, 2, 3, 5, 6, 7, 0xFF, 0xFFFF, Integer.MAX_VALUE, Integer.MIN_VALUE,
                rnd.nextInt()}[rnd.nextInt(13)]);
            case 2 -> F.numberNode(new long[] {-1L, 0xFFFFFFFFL, Long.MAX_VALUE, Long.MIN_VALUE, rnd.nextLong()}[rnd.nextInt(5)]);
            case 3 -> F.numberNode(new double[] {Double.NaN, Double.POSITIVE_INFINITY, -0.5, 1e300}[rnd.nextInt(4)]);
            case 4 -> F.textNode(randomText(rnd));
            case 5 -> F.booleanNode(rnd.nextBoolean());
            case 6 -> F.textNode(new String[] {"FFFFFFFF:FF:FF.0", "0000:zz:00.0", "9.0", "", "GPU-", "13000"}[rnd.nextInt(6)]);
            case 7 -> {
                ArrayNode a = F.arrayNode();
                int n = rnd.nextInt(6);
                for (int i = 0; i < n; i++) {
                    a.add(randomValue(rnd, depth + 1));
                }
                yield a;
            }
            default -> {
                ObjectNode o = F.objectNode();
                for (String k : new String[] {"busId", "domain", "bus", "device", "clusterUuid", "state", "valueType", "path"}) {
                    if (rnd.nextBoolean()) {
                        o.set(k, randomValue(rnd, depth + 1));
                    }
                }
                yield o;
            }
        };
    }

    static String randomText(Random rnd) {
        StringBuilder sb = new StringBuilder();
        int n = rnd.nextInt(10) == 0 ? 5000 : rnd.nextInt(40);
        String specials = "\u0000\u001b[2J\u0007\r\n\t\u202e\u0085\u009b\u00ff\uFFFD\uD83D\uDE00\"\\<>&'";
        for (int i = 0; i < n; i++) {
            sb.append(rnd.nextInt(4) == 0 ? specials.charAt(rnd.nextInt(specials.length())) : (char) ('a' + rnd.nextInt(26)));
        }
        return sb.toString();
    }
}
