package dev.fabricscope.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.json.Json;
import dev.fabricscope.json.JsonMutation;
import dev.fabricscope.json.JsonTree;
import dev.fabricscope.json.RecordJson;
import dev.fabricscope.json.RecordReader;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.samples.Samples;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * {@link SnapshotIO#parse} reads plainly well-formed files without Jackson ({@code json.JsonTree}, {@code
 * json.RecordReader}; issue 31: Jackson-databind's start is most of {@code show --sample}). Held here: every bundled
 * sample and every captured snapshot and report takes that path and reads equal to Jackson's reading of it, and any
 * mutation of them (a member changed, removed, nulled or retyped; the text cut or spliced) reads exactly as the
 * Jackson-only reading does: the same snapshot, or the same one-line error.
 */
class SnapshotWithoutJacksonTest {

    /** Captured files that are snapshots or reports (traces are another format). */
    private static final List<String> CAPTURED = List.of(
            "captured/h200-passthrough-1gpu-2026-12-01/probe.json",
            "captured/h200-passthrough-1gpu-2026-12-01/report.json",
            "captured/h200-nvswitch-2gpu-2026-12-01/probe.json",
            "captured/h200-nvswitch-2gpu-2026-12-01/report.json",
            "captured/h200-nvswitch-2gpu-2026-12-01/node-report.json",
            "captured/h200-python-env-2026-12-01/probe.json",
            "captured/h200-passthrough-1gpu-2026-12-01-node/probe.json",
            "captured/h200-passthrough-1gpu-2026-12-01-node/node-report.json",
            "captured/h200-vm-2026-11-29/probe.json",
            "captured/h200-vm-2026-11-29-report/report.json");

    private static final Map<String, byte[]> FILES = files();

    private static Map<String, byte[]> files() {
        Map<String, byte[]> out = new LinkedHashMap<>();
        for (String r : CAPTURED) {
            try {
                out.put(r, java.nio.file.Files.readAllBytes(java.nio.file.Path.of("src/test/resources", r)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        for (Samples.Sample s : Samples.list()) {
            out.put("sample " + s.name(), RecordJson.write(s.snapshot().get()).getBytes(StandardCharsets.UTF_8));
        }
        return out;
    }

    @Test
    void everyBundledAndCapturedFileReadsWithoutJacksonAndEqualToJackson() throws Exception {
        for (Map.Entry<String, byte[]> f : FILES.entrySet()) {
            Object tree = JsonTree.parse(f.getValue());
            Object inner = ((Map<?, ?>) tree).containsKey("snapshot") ? ((Map<?, ?>) tree).get("snapshot") : tree;
            MachineSnapshot fast = RecordReader.read(inner, MachineSnapshot.class); // throws GIVE_UP if it gave up
            assertEquals(jacksonOnly(f.getValue()), fast, f.getKey());
            assertEquals(fast, SnapshotIO.parse(f.getValue(), f.getKey()), f.getKey());
        }
    }

    @Test
    void theBundledSampleItselfTakesThePath() {
        assertTrue(Samples.find("h200-vm").isPresent(), "the captured sample is bundled");
        byte[] bytes = readResource("captured/h200-vm.json");
        assertEquals(jacksonOnly(bytes), RecordReader.read(JsonTree.parse(bytes), MachineSnapshot.class));
    }

    @Provide
    Arbitrary<JsonMutation> mutations() {
        return JsonMutation.of(FILES.size());
    }

    @Property(tries = 400)
    void aMutatedFileReadsAsJacksonReadsIt(@ForAll("mutations") JsonMutation m) {
        String name = new ArrayList<>(FILES.keySet()).get(m.file());
        byte[] mutated = m.apply(FILES.get(name), Integer.MAX_VALUE);
        assertEquals(jacksonOnly(mutated), viaParse(mutated), name + " " + m);
    }

    @Property(tries = 150)
    void aCutOrSplicedFileReadsAsJacksonReadsIt(@ForAll @IntRange(min = 0, max = 9) int file,
                                               @ForAll @IntRange(min = 0, max = 1_000_000) int at,
                                               @ForAll("splices") String splice) {
        byte[] whole = new ArrayList<>(FILES.values()).get(file);
        int cut = at % (whole.length + 1);
        byte[] insert = splice.getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[cut + insert.length];
        System.arraycopy(whole, 0, out, 0, cut);
        System.arraycopy(insert, 0, out, cut, insert.length);
        assertEquals(jacksonOnly(out), viaParse(out));
    }

    @Provide
    Arbitrary<String> splices() {
        return Arbitraries.of("", "}", "}}", "]}", "\"", "\"}", "0}", "} {}", "}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}");
    }

    /** The reading as it was before the fast path: the envelope pass, Jackson's binding, the validator. */
    private static Object jacksonOnly(byte[] json) {
        try {
            boolean wrapped = SnapshotIO.checkEnvelope(json, "f");
            MachineSnapshot s;
            try {
                s = wrapped ? Json.mapper().readValue(json, Wrapped.class).snapshot() : Json.mapper().readValue(json, MachineSnapshot.class);
            } catch (IOException | IllegalArgumentException e) {
                throw SnapshotIO.bindingFailure("f", e);
            }
            if (s == null) {
                return "error: f: at $.snapshot: missing";
            }
            try {
                RecordValidator.validate(s, wrapped ? "$.snapshot" : "$");
            } catch (RecordValidator.Invalid e) {
                return "error: " + new SnapshotIO.ReadException("f: " + e.getMessage()).getMessage();
            }
            return s;
        } catch (SnapshotIO.ReadException e) {
            return "error: " + e.getMessage();
        }
    }

    private static Object viaParse(byte[] json) {
        try {
            return SnapshotIO.parse(json, "f");
        } catch (SnapshotIO.ReadException e) {
            return "error: " + e.getMessage();
        }
    }

    record Wrapped(MachineSnapshot snapshot) {
    }

    private static byte[] readResource(String r) {
        try (InputStream in = Samples.class.getResourceAsStream(r)) {
            assertNotNull(in, r);
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
