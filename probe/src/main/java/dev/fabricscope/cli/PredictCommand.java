package dev.fabricscope.cli;

import dev.fabricscope.check.api.AllReduceResult;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.predict.ModelShapes;
import dev.fabricscope.render.Fit;
import dev.fabricscope.render.TextTable;
import dev.fabricscope.usecase.DeploymentRequest;
import dev.fabricscope.usecase.Predict;
import dev.fabricscope.usecase.UseCaseException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code fabricscope predict}: predicted all-reduce time of every backend the advisor calls valid at a deployment. */
@Command(name = "predict", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Predict the all-reduce time and bus bandwidth of every backend of SGLang, vLLM, FlashInfer and NCCL at a "
                + "deployment, from the machine's fabric (NVLink links and rate, NVSwitch, PCIe, multicast), and say which "
                + "the advisor calls valid there. The first line names the fastest valid backend per size or phase.",
                "The model: NCCL's own tuner constants (src/graph/tuning.cc) for NCCL and NVLS, alpha-beta terms from "
                        + "published figures for the custom kernels (docs/benchmarks.md lists every constant and its source). "
                        + "A report holding 'check allreduce' results, or --calibrate FILE, fits NCCL and the check's kernels "
                        + "to the measured times (the CUDA-event times where the result holds them, out of place and in place)."},
        footer = {"", "--json prints {\"machine\", \"unknowns\", \"calibrations\", \"predictions\": [{framework, backend, bytes, "
                + "phase, predictedUs, busbwGBs, valid, verdict, basis, term}], \"constants\": [...]}.", ExitCodes.HELP_FOOTER})
public final class PredictCommand implements Callable<Integer> {

    private final CliEnvironment env;

    PredictCommand(CliEnvironment env) {
        this.env = env;
    }

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Mixin
    SnapshotSource source;

    @Option(names = "--framework", paramLabel = "NAME", completionCandidates = Completions.Frameworks.class,
            description = "sglang, vllm, flashinfer or nccl; repeat for several (default: all).")
    List<String> frameworks = new ArrayList<>();

    @Option(names = "--tp", paramLabel = "N", description = "Tensor-parallel size: the all-reduce's ranks (default: every GPU of the nodes).")
    Integer tp;

    @Option(names = "--nodes", paramLabel = "N", description = "Nodes the deployment spans (default 1 for a snapshot).")
    Integer nodes;

    @Option(names = "--dtype", paramLabel = "D", defaultValue = "bf16", description = "Element type with --model: bf16, fp16, fp32 or fp8 (default bf16).")
    String dtype;

    @Option(names = "--bytes", paramLabel = "LIST", split = ",", converter = SizeConverter.class,
            description = "Message sizes, e.g. 8,64K,1M,8M,256M.")
    List<Long> bytes = new ArrayList<>();

    @Option(names = "--model", paramLabel = "ARCH", description = "A model id or architecture whose hidden size is known, e.g. "
            + "meta-llama/Llama-3.1-70B or DeepseekV3ForCausalLM: sizes are hidden × tokens × dtype.")
    String model;

    @Option(names = "--tokens", paramLabel = "N", description = "With --model: tokens of one prefill forward pass.")
    Integer tokens;

    @Option(names = "--batch", paramLabel = "N", defaultValue = "1", description = "With --model: sequences decoded together, one token each (default 1).")
    int batch;

    @Option(names = "--calibrate", paramLabel = "FILE", description = "A 'check allreduce --json' result of this machine to fit the model to (a report given to --snapshot is read for one too).")
    Path calibrate;

    @Option(names = "--json", description = "Print the predictions as JSON.")
    boolean json;

    @Override
    public Integer call() throws CommandFailure, UseCaseException, dev.fabricscope.io.SnapshotIO.ReadException {
        PrintWriter out = spec.commandLine().getOut();
        List<Predict.Size> sizes = new ArrayList<>();
        if (model != null) {
            if (!bytes.isEmpty()) {
                throw CommandFailure.usage("give either --bytes or --model with --tokens, not both");
            }
            var shape = ModelShapes.find(model).orElse(null);
            if (shape == null) {
                throw CommandFailure.usage("unknown model '" + model + "'; known: " + String.join(", ", ModelShapes.names()));
            }
            int element = ModelShapes.elementBytes(dtype);
            if (element == 0) {
                throw CommandFailure.usage("unknown --dtype '" + dtype + "'; valid: bf16, fp16, fp32, fp8");
            }
            if (tokens == null || tokens < 1 || batch < 1) {
                throw CommandFailure.usage("--model needs --tokens N (N ≥ 1) and --batch ≥ 1");
            }
            sizes.add(new Predict.Size((long) batch * shape.hiddenSize() * element, "decode"));
            sizes.add(new Predict.Size((long) tokens * shape.hiddenSize() * element, "prefill"));
        } else {
            if (bytes.isEmpty()) {
                throw CommandFailure.usage("give --bytes LIST or --model ARCH --tokens N");
            }
            if (tokens != null) {
                throw CommandFailure.usage("--tokens needs --model");
            }
            for (long b : bytes) {
                if (b < 1) {
                    throw CommandFailure.usage("a size must be at least 1 byte, got " + b);
                }
                sizes.add(new Predict.Size(b, null));
            }
        }
        MachineSnapshot machine = source.load(env::probeLive);
        AllReduceResult check = null;
        String from = null;
        if (calibrate != null) {
            try {
                check = dev.fabricscope.json.Json.mapper().readValue(java.nio.file.Files.readString(calibrate), AllReduceResult.class);
            } catch (java.io.IOException | RuntimeException e) {
                throw CommandFailure.of(ExitCodes.BAD_INPUT, "cannot read --calibrate " + calibrate + ": " + e.getMessage());
            }
            if (check == null || !AllReduceResult.CHECK.equals(check.check()) || check.rows() == null) {
                throw CommandFailure.of(ExitCodes.BAD_INPUT, "--calibrate " + calibrate + ": not a 'check allreduce' result");
            }
            from = calibrate.getFileName().toString();
        } else {
            var recorded = source.recordedChecks();
            if (recorded != null && recorded.result(AllReduceResult.CHECK) instanceof AllReduceResult a) {
                check = a;
                from = "the report " + recorded.provenance();
            }
        }
        DeploymentRequest d = new DeploymentRequest(frameworks, tp, nodes, null, null, null, Map.of(), Map.of(), Map.of(), Map.of());
        Predict.Result r = new Predict().predict(new Predict.Request(machine, d, sizes, check, from));
        if (r.blocked() != null) {
            boolean noDriver = machine == null || machine.driver() == null || !machine.driver().driverPresent() || machine.gpus().isEmpty();
            if (!noDriver) {
                throw CommandFailure.usage("cannot predict: " + r.blocked());
            }
            String why = machine != null && machine.driver() != null && machine.driver().message() != null ? machine.driver().message()
                    : "the " + (source.given() ? "snapshot" : "machine") + " shows no NVIDIA GPU";
            throw CommandFailure.fitted(ExitCodes.NO_DRIVER, "no NVIDIA driver" + (source.given() ? " in the snapshot" : "") + ": " + why,
                    "Predict for another machine: --sample NAME ('fabricscope samples') or --snapshot FILE");
        }
        out.print(json ? json(r) : text(r));
        out.flush();
        return ExitCodes.OK;
    }

    /** The JSON with every field of every prediction, null where no time is given, in the order written. */
    static String json(Predict.Result r) {
        try {
            return dev.fabricscope.json.Json.mapper().copy()
                    .setSerializationInclusion(com.fasterxml.jackson.annotation.JsonInclude.Include.ALWAYS)
                    .disable(com.fasterxml.jackson.databind.SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
                    .writeValueAsString(r.jsonTree()) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The answer first (fastest valid per size), the crossovers, then the table, within 120 columns. */
    static String text(Predict.Result r) {
        StringBuilder sb = new StringBuilder();
        Map<String, Predict.Row> fastest = new LinkedHashMap<>();
        for (Predict.Row row : r.rows()) {
            if (!row.valid() || row.predictedUs() == null || "check".equals(row.framework())) continue;
            String k = label(row);
            Predict.Row best = fastest.get(k);
            if (best == null || row.predictedUs() < best.predictedUs()) fastest.put(k, row);
        }
        List<String> parts = new ArrayList<>();
        fastest.forEach((k, row) -> parts.add(k + ": " + row.framework() + " " + row.backend() + " " + us(row.predictedUs())));
        sb.append(Fit.wrap("Fastest valid: " + (parts.isEmpty() ? "none priced (see below)" : String.join(" · ", parts)), Fit.WIDTH));
        List<String> cross = crossovers(r.rows());
        if (!cross.isEmpty()) {
            sb.append(Fit.wrap("Crossovers: " + String.join("; ", cross), Fit.WIDTH));
        }
        sb.append(Fit.wrap("Machine: " + r.fabric().summary(), Fit.WIDTH));
        for (String u : r.fabric().unknowns()) {
            sb.append(Fit.wrap("  " + u, Fit.WIDTH));
        }
        if (r.calibrations().isEmpty()) {
            sb.append("Basis: from specs (no 'check allreduce' result given; --calibrate FILE or a report with checks fits it)\n");
        } else {
            String by = r.rows().stream().map(Predict.Row::basis).filter(b -> b.startsWith("calibrated by ")).findFirst()
                    .orElse("calibrated");
            sb.append(Fit.wrap("Basis: " + by + "; the other backends from specs", Fit.WIDTH));
            for (String c : r.calibrations()) sb.append(Fit.wrap("  " + c, Fit.WIDTH));
        }
        sb.append('\n');
        sb.append(table(r, false)).append('\n').append("Bus bandwidth, GB/s (algbw × 2(n-1)/n):\n").append(table(r, true));
        sb.append('\n').append(Fit.wrap("Constants and their sources: docs/benchmarks.md (Predict) and 'predict --json'. NCCL: its own "
                + "tuner's constants, NVIDIA/nccl@5067397c src/graph/tuning.cc.", Fit.WIDTH));
        return sb.toString();
    }

    /** One row per framework and backend, one column per size: the time (or bus bandwidth), then a note. */
    static String table(Predict.Result r, boolean busbw) {
        List<String> all = new ArrayList<>();
        Map<String, Map<String, Predict.Row>> byBackend = new LinkedHashMap<>();
        for (Predict.Row row : r.rows()) {
            if (!all.contains(label(row))) all.add(label(row));
            byBackend.computeIfAbsent(row.framework() + " " + row.backend(), k -> new LinkedHashMap<>()).put(label(row), row);
        }
        StringBuilder out = new StringBuilder();
        for (int from = 0; from < all.size(); from += SIZES_PER_TABLE) { // more sizes: more tables, each within 120 columns
            out.append(from == 0 ? "" : "\n").append(table(byBackend, all.subList(from, Math.min(all.size(), from + SIZES_PER_TABLE)), busbw));
        }
        return out.toString();
    }

    static final int SIZES_PER_TABLE = 6;

    private static String table(Map<String, Map<String, Predict.Row>> byBackend, List<String> sizes, boolean busbw) {
        List<String> header = new ArrayList<>(List.of("FRAMEWORK", "BACKEND", "VALID"));
        header.addAll(sizes);
        if (!busbw) header.add("NOTE");
        TextTable t = new TextTable(header.toArray(String[]::new));
        for (Map<String, Predict.Row> cells : byBackend.values()) {
            Predict.Row first = cells.values().iterator().next();
            List<Object> line = new ArrayList<>(List.of(first.framework(), first.backend(), first.valid() ? "yes" : "no"));
            java.util.LinkedHashSet<String> terms = new java.util.LinkedHashSet<>();
            boolean calibrated = false;
            for (String s : sizes) {
                Predict.Row c = cells.get(s);
                Double v = c == null ? null : busbw ? c.busbwGBs() : c.predictedUs();
                line.add(v == null ? "—" : busbw ? String.format(Locale.ROOT, "%.1f", v) : us(v));
                if (c != null && c.term() != null) terms.add(c.term());
                calibrated |= c != null && c.basis().startsWith("calibrated");
            }
            if (!busbw) {
                String note = first.predictedUs() == null ? first.basis() : String.join("→", terms) + (calibrated ? " (calibrated)" : "");
                if (!first.valid()) { // the verdict's knob without its value (the backend column names it)
                    note = first.verdict().replaceFirst("=[^ ]*$", "") + (first.predictedUs() == null ? "; not priced" : "");
                }
                line.add(note);
            }
            t.row(line.toArray());
        }
        return t.render(Fit.WIDTH);
    }

    static String label(Predict.Row row) {
        return row.phase() == null ? size(row.bytes()) : row.phase() + " (" + size(row.bytes()) + ")";
    }

    /** Where a framework's fastest valid backend changes between consecutive sizes. */
    static List<String> crossovers(List<Predict.Row> rows) {
        Map<String, Map<Long, Predict.Row>> best = new LinkedHashMap<>();
        for (Predict.Row row : rows) {
            if (!row.valid() || row.predictedUs() == null || "check".equals(row.framework())) continue;
            Map<Long, Predict.Row> m = best.computeIfAbsent(row.framework(), k -> new java.util.TreeMap<>());
            Predict.Row b = m.get(row.bytes());
            if (b == null || row.predictedUs() < b.predictedUs()) m.put(row.bytes(), row);
        }
        List<String> out = new ArrayList<>();
        best.forEach((fw, m) -> {
            Predict.Row prev = null;
            for (Predict.Row row : m.values()) {
                if (prev != null && !prev.backend().equals(row.backend())) {
                    out.add(fw + ": " + prev.backend() + "→" + row.backend() + " between " + size(prev.bytes()) + " and " + size(row.bytes()));
                }
                prev = row;
            }
        });
        return out;
    }

    static String us(double v) {
        return dev.fabricscope.predict.CostModel.micros(v) + " us";
    }

    static String size(long b) {
        return dev.fabricscope.predict.CostModel.size(b);
    }
}
