package dev.fabricscope.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fabricscope.cli.CapturedTraces;
import dev.fabricscope.json.Json;
import dev.fabricscope.json.RecordJson;
import dev.fabricscope.nativeapi.trace.NativeTrace;
import dev.fabricscope.nativeapi.trace.TraceCall;
import dev.fabricscope.nativeapi.trace.TraceIO;
import dev.fabricscope.probe.EnvironmentFilter;
import dev.fabricscope.probe.TraceMinimizer;
import dev.fabricscope.probe.TraceReplay;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 25: the committed traces carry the least data (no process list, no TCP table, no whole /proc/cpuinfo, only
 * allow-listed variables), and reducing a trace changes nothing its replay shows. The committed traces were converted
 * once by {@link #main} ({@code TraceMinimizer} over each); {@code -Dfabricscope.regenerate=true} on this test does the same.
 */
class LeastDataTracesTest {

    static Stream<Path> traces() throws IOException {
        try (Stream<Path> files = Files.walk(CapturedTraces.ROOT)) {
            return files.filter(p -> p.getFileName().toString().equals("trace.json")).sorted().toList().stream();
        }
    }

    @ParameterizedTest
    @MethodSource("traces")
    void committedTraceIsAlreadyTheLeastData(Path file) throws Exception {
        NativeTrace t = read(file);
        if (Boolean.getBoolean("fabricscope.regenerate")) {
            Files.writeString(file, TraceIO.write(TraceMinimizer.minimize(t)));
            t = read(file);
        }
        assertEquals(TraceIO.write(t), TraceIO.write(TraceMinimizer.minimize(t)), file + ": minimizing changes nothing");
        for (TraceCall c : t.calls()) {
            String path = c.args() == null ? "" : c.args().path(0).asText("");
            boolean raw = c.lib().equals("host") && (c.call().equals("readLines") && (path.startsWith("/proc/net/tcp")
                    || path.matches("/proc/\\d+/comm") || path.equals("/proc/cpuinfo"))
                    || c.call().equals("listDirectory") && path.equals("/proc"));
            assertFalse(raw, file + " still holds " + c.call() + " " + c.args());
            if (c.call().equals("environment") && c.value() != null) {
                c.value().fieldNames().forEachRemaining(n -> assertTrue(EnvironmentFilter.recorded(n), file + ": " + n));
            }
        }
        if (t.snapshot() != null) {
            t.snapshot().path("environment").fieldNames().forEachRemaining(n -> assertTrue(EnvironmentFilter.recorded(n), file + ": " + n));
        }
    }

    @ParameterizedTest
    @MethodSource("traces")
    void aReducedTraceReplaysAsTheWholeOne(Path file) throws Exception {
        NativeTrace t = read(file);
        NativeTrace reduced = TraceMinimizer.minimize(t);
        assertEquals(shown(t), shown(reduced), file.toString());
    }

    /** The replay as JSON, without the provenance (it counts the calls). */
    static JsonNode shown(NativeTrace t) throws Exception {
        ObjectNode n = (ObjectNode) Json.mapper().readTree(RecordJson.write(TraceReplay.replay(t, "trace")));
        n.remove("probe");
        return n;
    }

    static NativeTrace read(Path file) throws Exception {
        return TraceIO.read(Files.readAllBytes(file), file.toString());
    }

    /** Converts every committed trace in place (run once, from the probe folder). */
    public static void main(String[] args) throws Exception {
        for (Path p : traces().toList()) {
            NativeTrace t = read(p);
            NativeTrace reduced = TraceMinimizer.minimize(t);
            if (reduced != t) {
                Files.writeString(p, TraceIO.write(reduced));
                System.out.println(p + ": " + t.calls().size() + " → " + reduced.calls().size() + " calls");
            }
        }
    }
}
