package dev.fabricscope.cluster.read;

import dev.fabricscope.cluster.NodeSummary;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import dev.fabricscope.io.RecordValidator;
import dev.fabricscope.io.SeenValues;
import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.json.Json;
import dev.fabricscope.model.CudaAttributes;
import dev.fabricscope.model.DriverInfo;
import dev.fabricscope.model.FabricInfo;
import dev.fabricscope.model.HostInfo;
import dev.fabricscope.model.PciAddress;
import dev.fabricscope.model.ProbeInfo;
import dev.fabricscope.model.PythonStack;
import dev.fabricscope.model.Reading;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Reads a node's {@link NodeSummary} from its report or snapshot file without building the rest: the parser skips
 * the GPU pairs, findings, NVSwitch details and every link reading but the link state, so a cluster folder of
 * thousands of reports binds a few percent of its bytes. The file is untrusted and checked as
 * {@link SnapshotIO#read} checks it: size, UTF-8, the envelope ({@link SnapshotIO#checkEnvelope}), well-formed JSON
 * throughout (skipped parts included), no duplicate keys, readings read as readings ({@code unreadable (…)} for
 * values that do not parse), and the kept records validated ({@link RecordValidator}). A part it skips can still be
 * wrong in ways only the full read sees (e.g. a pair without its GPUs): opening that node then says so.
 *
 * <p>Two paths, one answer: {@link SummaryScan} checks the bytes and keeps the summary's members for binding (the fast
 * path, for files as Fabricscope writes them), and whatever it steps aside from is bound whole by Jackson (the full
 * path, whose errors are the user's one-line messages). {@code SummaryScanTest} holds the first to the second.
 */
public final class SummaryReader {

    private SummaryReader() {
    }

    // Parts not kept are named as ignored: Jackson then skips them in the parser, where an unknown member of a record
    // is first copied into a token buffer (a tenth of the time of a 10,000-report folder). The binding records are
    // named as the model records they stand for, so RecordValidator's rules by type name (optional members, the GPU
    // limit, the compute capability) apply to them unchanged.

    /** The parts of a snapshot the summary keeps, as they appear in the file. */
    @JsonIgnoreProperties(value = {"pairs", "findings", "node"}, ignoreUnknown = true)
    private record MachineSnapshot(int schemaVersion, ProbeInfo probe, HostInfo host, DriverInfo driver,
                                   @JsonProperty(required = true) List<Gpu> gpus,
                                   @JsonDeserialize(using = ObjectCounter.class) Integer nvSwitches,
                                   Map<String, String> environment, PythonStack pythonStack) {
        MachineSnapshot { // absent lists and maps read as empty, as MachineSnapshot's constructor reads them
            gpus = gpus == null ? List.of() : gpus;
            nvSwitches = nvSwitches == null ? 0 : nvSwitches;
            environment = environment == null ? Map.of() : environment;
        }
    }

    @JsonIgnoreProperties(value = {"uuid", "nvmlIndex", "cudaOrdinal", "serial", "architecture", "smCount",
        "memoryTotalBytes", "numaNode", "cpuAffinity", "persistenceMode", "nvLinkCount", "health"}, ignoreUnknown = true)
    private record Gpu(PciAddress pci, Reading<String> name, Reading<String> computeCapability,
                       Reading<String> migMode, Reading<String> virtualizationMode, CudaAttributes cuda,
                       List<NvLink> nvLinks, FabricInfo fabric) {
        Gpu {
            nvLinks = nvLinks == null ? List.of() : nvLinks;
        }
    }

    @JsonIgnoreProperties(value = {"index", "versionCode", "generation", "remoteType", "remotePci", "gbpsPerDirection",
        "speedMbps", "errors"}, ignoreUnknown = true)
    private record NvLink(Reading<Boolean> active) {
    }

    /** A report file: the summary comes from its {@code snapshot} member. */
    @JsonIgnoreProperties(value = {"advice", "checks", "redaction", "commandLine"}, ignoreUnknown = true)
    private record Wrapped(MachineSnapshot snapshot) {
    }

    /** Counts the objects of an array, skipping their contents (the parser still checks them). */
    static final class ObjectCounter extends JsonDeserializer<Integer> {
        @Override
        public Integer deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (p.currentToken() != JsonToken.START_ARRAY) {
                return ctxt.reportInputMismatch(Integer.class, "not a list");
            }
            int n = 0;
            for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
                if (t != JsonToken.START_OBJECT) {
                    return ctxt.reportInputMismatch(Integer.class, "element " + n + " is not an object");
                }
                p.skipChildren();
                n++;
            }
            return n;
        }
    }

    /** What the fast path keeps: the components of the binding records, so the two cannot drift apart. */
    private static final SummaryScan.Shape SHAPE = new SummaryScan.Shape(components(MachineSnapshot.class),
            components(Gpu.class), components(NvLink.class));

    private static java.util.Set<String> components(Class<? extends Record> type) {
        return java.util.Arrays.stream(type.getRecordComponents()).map(java.lang.reflect.RecordComponent::getName)
                .collect(java.util.stream.Collectors.toUnmodifiableSet());
    }

    /**
     * The parts of node files one folder's read has bound, by the bytes the summary keeps of them: the nodes of a
     * cluster mostly have the same GPUs, driver and probe (a node's own values, its UUIDs and serials, are not kept;
     * its host name is set apart), so each is bound once. Bounded: past {@link #MAX_PARTS} parts or {@link #MAX_BYTES}
     * bytes of keys, parts are bound without being kept.
     */
    static final class Parts {
        static final int MAX_PARTS = 4_096;
        static final long MAX_BYTES = 4L << 20;

        /** A part's kept bytes, and the record type they were bound to. */
        private record Key(Class<?> type, byte[] bytes, int hash) {
            @Override
            public boolean equals(Object o) {
                return o instanceof Key k && hash == k.hash && type == k.type && java.util.Arrays.equals(bytes, k.bytes);
            }

            @Override
            public int hashCode() {
                return hash;
            }
        }

        private final java.util.concurrent.ConcurrentHashMap<Key, Object> bound = new java.util.concurrent.ConcurrentHashMap<>();
        /** The values each reading thread has checked, for {@link SummaryScan} to compare with; null: not kept. */
        private final ThreadLocal<SeenValues> seen;

        /** For one file's read: nothing kept past it. */
        Parts() {
            this(false);
        }

        /**
         * For a folder's read; with {@code compareSeen}, each reading thread keeps the values it checked (a few hundred
         * KiB at most), to be dropped with the threads of the folder's read.
         */
        Parts(boolean compareSeen) {
            seen = compareSeen ? ThreadLocal.withInitial(SeenValues::new) : null;
        }
        private final java.util.concurrent.atomic.AtomicLong bytes = new java.util.concurrent.atomic.AtomicLong();

        /** {@code json} bound as Jackson binds a {@code type} (null for JSON null), or the equal one bound before. */
        <T> T bind(byte[] json, Class<T> type) throws IOException {
            Key key = new Key(type, json, 31 * type.hashCode() + java.util.Arrays.hashCode(json));
            Object known = bound.get(key);
            if (known != null) {
                return type.cast(known);
            }
            T value = Json.mapper().readValue(json, type);
            if (value != null && bound.size() < MAX_PARTS && bytes.addAndGet(json.length) <= MAX_BYTES) {
                known = bound.putIfAbsent(key, value);
                return known != null ? type.cast(known) : value;
            }
            return value;
        }

        int size() {
            return bound.size();
        }
    }

    /** Reads the summary of {@code file}, a snapshot or report. */
    public static NodeSummary read(Path file) throws SnapshotIO.ReadException {
        return read(file, SnapshotIO.OtherFormats.NONE);
    }

    /** As {@link #read(Path)}; a file of one of {@code others} (a native-call trace) is read in full, then summarised. */
    public static NodeSummary read(Path file, SnapshotIO.OtherFormats others) throws SnapshotIO.ReadException {
        return read(file, others, new Parts());
    }

    /** As {@link #read(Path, SnapshotIO.OtherFormats)}, with the parts bound so far in this folder. */
    static NodeSummary read(Path file, SnapshotIO.OtherFormats others, Parts parts) throws SnapshotIO.ReadException {
        byte[] bytes = SnapshotIO.readBytes(file);
        NodeSummary fast = parseFast(bytes, parts);
        if (fast != null) {
            return fast;
        }
        SnapshotIO.checkUtf8(bytes, file.toString());
        try {
            return parseFull(bytes, file.toString());
        } catch (SnapshotIO.ReadException e) {
            // a trace is never a snapshot or report (its format says so), so looking for one only after costs nothing
            return NodeSummary.of(others.read(bytes, file, e));
        }
    }

    public static NodeSummary parse(byte[] json, String where) throws SnapshotIO.ReadException {
        NodeSummary fast = parseFast(json, new Parts());
        return fast != null ? fast : parseFull(json, where);
    }

    static NodeSummary parseFast(byte[] json) {
        return parseFast(json, new Parts());
    }

    /**
     * The fast path: {@link SummaryScan} checks the whole file and keeps the summary's members, which are bound as
     * {@link #parseFull} binds them (each GPU apart, as an element of the list is bound). Null when the file is
     * anything but plainly valid: then only the full read can say what is wrong with it, in its own words.
     */
    static NodeSummary parseFast(byte[] json, Parts known) {
        SummaryScan.Kept kept = SummaryScan.compact(json, SHAPE, known.seen == null ? null : known.seen.get());
        if (kept == null) {
            return null;
        }
        try {
            MachineSnapshot s = known.bind(kept.json(), MachineSnapshot.class);
            List<Gpu> gpus = s.gpus();
            if (kept.gpuEnds() != null) { // bound as "gpus": [], the GPUs come apart
                gpus = new java.util.ArrayList<>(kept.gpuEnds().length);
                int from = 0;
                for (int end : kept.gpuEnds()) {
                    gpus.add(known.bind(java.util.Arrays.copyOfRange(kept.gpus(), from, end), Gpu.class));
                    from = end;
                }
            }
            HostInfo host = s.host();
            if (kept.host() != null) { // bound apart, its plain host name set aside
                host = known.bind(kept.host(), HostInfo.class);
                if (kept.hostname() != null) {
                    host = host.withHostname(Reading.of(kept.hostname()));
                }
            }
            s = new MachineSnapshot(s.schemaVersion(), s.probe(), host, s.driver(), gpus, s.nvSwitches(),
                    s.environment(), s.pythonStack());
            RecordValidator.validate(s, "$");
            return summarise(s);
        } catch (IOException | RuntimeException | RecordValidator.Invalid e) {
            return null;
        }
    }

    /** The whole file through Jackson: every check, every error message. */
    static NodeSummary parseFull(byte[] json, String where) throws SnapshotIO.ReadException {
        boolean wrapped = SnapshotIO.checkEnvelope(json, where);
        MachineSnapshot s;
        try {
            s = wrapped ? Json.mapper().readValue(json, Wrapped.class).snapshot() : Json.mapper().readValue(json, MachineSnapshot.class);
        } catch (IOException | IllegalArgumentException e) {
            throw SnapshotIO.bindingFailure(where, e);
        }
        String at = wrapped ? "$.snapshot" : "$";
        if (s == null) {
            throw new SnapshotIO.ReadException(where + ": at " + at + ": missing");
        }
        try {
            RecordValidator.validate(s, at);
        } catch (RecordValidator.Invalid e) {
            throw new SnapshotIO.ReadException(where + ": " + e.getMessage());
        }
        return summarise(s);
    }

    private static NodeSummary summarise(MachineSnapshot s) {
        List<NodeSummary.GpuSummary> gpus = s.gpus().stream().map(g -> {
            List<NvLink> links = g.nvLinks();
            int active = (int) links.stream().filter(l -> Boolean.TRUE.equals(l.active().value())).count();
            boolean readable = links.isEmpty() || links.stream().anyMatch(l -> l.active().isPresent());
            return new NodeSummary.GpuSummary(g.name(), g.computeCapability(), g.migMode(), g.virtualizationMode(),
                    g.cuda(), g.fabric(), active, readable);
        }).toList();
        return new NodeSummary(s.host(), s.driver(), gpus, s.nvSwitches(), s.environment(),
                NodeSummary.pythonStackLine(s.pythonStack(), s.environment(), s.driver()));
    }
}
