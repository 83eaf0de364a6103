package dev.fabricscope.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import dev.fabricscope.io.RecordValidator;
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

    /** Reads the summary of {@code file}, a snapshot or report. */
    public static NodeSummary read(Path file) throws SnapshotIO.ReadException {
        return read(file, SnapshotIO.OtherFormats.NONE);
    }

    /** As {@link #read(Path)}; a file of one of {@code others} (a native-call trace) is read in full, then summarised. */
    public static NodeSummary read(Path file, SnapshotIO.OtherFormats others) throws SnapshotIO.ReadException {
        byte[] bytes = SnapshotIO.readBytes(file);
        SnapshotIO.checkUtf8(bytes, file.toString());
        try {
            return parse(bytes, file.toString());
        } catch (SnapshotIO.ReadException e) {
            // a trace is never a snapshot or report (its format says so), so looking for one only after costs nothing
            return NodeSummary.of(others.read(bytes, file, e));
        }
    }

    public static NodeSummary parse(byte[] json, String where) throws SnapshotIO.ReadException {
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
