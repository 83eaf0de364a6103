package dev.fabricscope.usecase;

import dev.fabricscope.advisor.Advisor;
import dev.fabricscope.advisor.api.AdviceResult;
import dev.fabricscope.advisor.api.AdvisorInputException;
import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.check.api.AllReduceResult;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.predict.Backend;
import dev.fabricscope.predict.Calibration;
import dev.fabricscope.predict.CostModel;
import dev.fabricscope.predict.CostModel.Kernels;
import dev.fabricscope.predict.Estimate;
import dev.fabricscope.predict.Fabric;
import dev.fabricscope.predict.Scale;
import dev.fabricscope.predict.Terms;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code fabricscope predict}: the predicted all-reduce time of every backend of every framework at a deployment,
 * with whether the advisor calls it valid there. The cost model is {@link CostModel}; a machine whose report holds
 * {@code check allreduce} results gets the check's NCCL, one-shot and two-shot fitted to them.
 */
public final class Predict {

    /**
     * @param machine         the machine
     * @param deployment      TP and nodes (the advisor derives what is not given)
     * @param sizes           message sizes in bytes, with their phase label ({@code decode}, {@code prefill} or null)
     * @param calibration     a {@code check allreduce} result of this machine, or null
     * @param calibrationFrom where that result was read, e.g. {@code the report made 2026-12-01 … on vm (2× H200)}
     */
    public record Request(MachineSnapshot machine, DeploymentRequest deployment, List<Size> sizes, AllReduceResult calibration,
                          String calibrationFrom) {
        public Request {
            sizes = List.copyOf(sizes);
        }
    }

    /** A message size; {@code phase} names the model phase it comes from, or null for a size given as such. */
    public record Size(long bytes, String phase) {
    }

    /**
     * One predicted all-reduce, as {@code predict --json} writes it.
     *
     * @param predictedUs null when the model cannot price it here ({@code basis} says why)
     * @param busbwGBs    bus bandwidth of that time (algbw × 2(n-1)/n), or null
     * @param valid       the advisor's verdict for the knob that selects it is ok
     * @param verdict     that verdict's outcome ({@code ok}, {@code fallback}, {@code error}, {@code unknown}) and knob
     * @param basis       {@code from specs}, {@code calibrated by the check of …}, or why no time is given
     * @param term        which term won, e.g. {@code Ring LL}
     */
    public record Row(String framework, String backend, long bytes, String phase, Double predictedUs, Double busbwGBs,
                      boolean valid, String verdict, String basis, String term) {
    }

    /**
     * @param fabric       what the model read of the machine
     * @param rows         per framework, per backend, per size
     * @param calibrations one line per fitted backend (empty: from specs)
     * @param advice       the advisor's answer at the deployment as given (for its deployment line)
     */
    public record Result(Fabric fabric, List<Row> rows, List<String> calibrations, AdviceResult advice) {

        /** Why nothing was predicted (the advisor could give no verdict: no driver or GPU in the machine), or null. */
        public String blocked() {
            return advice.blocked();
        }

        public Map<String, Object> jsonTree() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("machine", fabric.summary());
            m.put("unknowns", fabric.unknowns());
            m.put("calibrations", calibrations);
            List<Map<String, Object>> list = new ArrayList<>();
            for (Row r : rows) {
                Map<String, Object> p = new LinkedHashMap<>();
                p.put("framework", r.framework());
                p.put("backend", r.backend());
                p.put("bytes", r.bytes());
                if (r.phase() != null) p.put("phase", r.phase());
                p.put("predictedUs", r.predictedUs() == null ? null : round(r.predictedUs()));
                p.put("busbwGBs", r.busbwGBs() == null ? null : round(r.busbwGBs()));
                p.put("valid", r.valid());
                p.put("verdict", r.verdict());
                p.put("basis", r.basis());
                if (r.term() != null) p.put("term", r.term());
                list.add(p);
            }
            m.put("predictions", list);
            List<Map<String, Object>> constants = new ArrayList<>();
            for (var c : dev.fabricscope.predict.Specs.all()) {
                constants.add(Map.of("name", c.name(), "value", c.value(), "unit", c.unit(), "source", c.source()));
            }
            m.put("constants", constants);
            return m;
        }
    }

    private static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }

    /** How the advisor is asked whether a backend is valid: set one knob, read that knob's verdict. */
    record Probe(String framework, Backend backend, Kernels kernels, String flag, String env, String value, String knob) {
    }

    static final List<Probe> PROBES = List.of(
            new Probe("sglang", Backend.NCCL, Kernels.NCCL, null, null, null, null),
            new Probe("sglang", Backend.ONESHOT, Kernels.SGLANG, "disable-custom-all-reduce", null, "false", "--disable-custom-all-reduce"),
            new Probe("sglang", Backend.TWOSHOT, Kernels.SGLANG, "disable-custom-all-reduce", null, "false", "--disable-custom-all-reduce"),
            new Probe("sglang", Backend.TRTLLM, Kernels.FLASHINFER, "flashinfer-allreduce-fusion-backend", null, "trtllm",
                    "--flashinfer-allreduce-fusion-backend"),
            new Probe("sglang", Backend.MNNVL, Kernels.FLASHINFER, "flashinfer-allreduce-fusion-backend", null, "mnnvl",
                    "--flashinfer-allreduce-fusion-backend"),
            new Probe("sglang", Backend.SYMM_MEM, Kernels.TORCH, "enable-torch-symm-mem", null, "true", "--enable-torch-symm-mem"),
            new Probe("sglang", Backend.NVLS, Kernels.NCCL, "enable-nccl-nvls", null, "true", "--enable-nccl-nvls"),
            new Probe("vllm", Backend.NCCL, Kernels.NCCL, null, null, null, null),
            new Probe("vllm", Backend.ONESHOT, Kernels.VLLM, "disable-custom-all-reduce", null, "false", "--disable-custom-all-reduce"),
            new Probe("vllm", Backend.TWOSHOT, Kernels.VLLM, "disable-custom-all-reduce", null, "false", "--disable-custom-all-reduce"),
            new Probe("vllm", Backend.TRTLLM, Kernels.FLASHINFER, null, "VLLM_FLASHINFER_ALLREDUCE_BACKEND", "trtllm",
                    "VLLM_FLASHINFER_ALLREDUCE_BACKEND"),
            new Probe("vllm", Backend.MNNVL, Kernels.FLASHINFER, null, "VLLM_FLASHINFER_ALLREDUCE_BACKEND", "mnnvl",
                    "VLLM_FLASHINFER_ALLREDUCE_BACKEND"),
            new Probe("vllm", Backend.SYMM_MEM, Kernels.TORCH, null, "VLLM_ALLREDUCE_USE_SYMM_MEM", "1", "VLLM_ALLREDUCE_USE_SYMM_MEM"),
            new Probe("flashinfer", Backend.TRTLLM, Kernels.FLASHINFER, "create_allreduce_fusion_workspace(backend)", null, "trtllm",
                    "create_allreduce_fusion_workspace(backend)"),
            new Probe("flashinfer", Backend.MNNVL, Kernels.FLASHINFER, "create_allreduce_fusion_workspace(backend)", null, "mnnvl",
                    "create_allreduce_fusion_workspace(backend)"),
            new Probe("nccl", Backend.NCCL, Kernels.NCCL, null, null, null, null),
            new Probe("nccl", Backend.NVLS, Kernels.NCCL, null, "NCCL_NVLS_ENABLE", "1", "NCCL_NVLS_ENABLE"));

    /** The check's own kernels, priced when a check calibrates them. */
    static final String CHECK_FRAMEWORK = "check";

    public Result predict(Request r) throws UseCaseException {
        DeploymentRequest d = r.deployment();
        AdviceResult base;
        try {
            base = Advisor.advise(r.machine(), d.deployment(), d.options());
        } catch (AdvisorInputException e) {
            throw UseCaseException.invalid(e.getMessage(), e);
        }
        if (base.blocked() != null) {
            return new Result(Fabric.of(r.machine(), 1, 1, false, false), List.of(), List.of(), base);
        }
        var eff = base.deployment();
        Fabric fabric = Fabric.of(r.machine(), eff.tp(), eff.nodes(), Boolean.TRUE.equals(base.machine().nvswitch().value()),
                Boolean.TRUE.equals(base.machine().multicast().value()), !Boolean.FALSE.equals(base.machine().allNvlink().value()));
        Map<String, Calibration.Fit> scales = new HashMap<>();
        List<String> calibrations = new ArrayList<>();
        if (r.calibration() != null) {
            calibrate(r.calibration(), r.calibrationFrom(), fabric, scales, calibrations);
        }
        List<String> advised = d.frameworks().isEmpty() ? null : d.frameworks();
        List<Row> rows = new ArrayList<>();
        Map<String, Validity> verdicts = new HashMap<>();
        for (Probe p : PROBES) {
            if (advised != null && !advised.contains(p.framework())) {
                continue;
            }
            Validity v = verdicts.computeIfAbsent(p.framework() + "|" + p.knob() + "=" + p.value(), k -> verdict(r.machine(), d, p));
            for (Size s : r.sizes()) {
                rows.add(row(p.framework(), p.backend(), p.kernels(), fabric, s, v.valid(), v.verdict(), scales, r.calibrationFrom()));
            }
        }
        if (r.calibration() != null) {
            for (Backend b : List.of(Backend.NCCL, Backend.ONESHOT, Backend.TWOSHOT)) {
                if (!scales.containsKey(key(b, b == Backend.NCCL ? Kernels.NCCL : Kernels.FABRICSCOPE))) {
                    continue;
                }
                AllReduceResult.Impl impl = r.calibration().impls().stream().filter(i -> i.name().equals(b.id)).findFirst().orElse(null);
                boolean passed = impl != null && impl.status() == dev.fabricscope.check.api.CheckStatus.PASSED;
                String said = impl == null ? "the check did not run it" : "the check " + impl.status().name().toLowerCase(Locale.ROOT);
                for (Size s : r.sizes()) {
                    rows.add(row(CHECK_FRAMEWORK, b, b == Backend.NCCL ? Kernels.NCCL : Kernels.FABRICSCOPE, fabric, s, passed,
                            (passed ? "ok: " : "not ok: ") + said, scales, r.calibrationFrom()));
                }
            }
        }
        return new Result(fabric, rows, calibrations, base);
    }

    static String key(Backend b, Kernels k) {
        return b.id + "|" + (b == Backend.NCCL ? Kernels.NCCL : k);
    }

    private static Row row(String framework, Backend b, Kernels k, Fabric fabric, Size s, boolean valid, String verdict,
                           Map<String, Calibration.Fit> scales, String calibrationFrom) {
        Terms t = CostModel.terms(b, k, fabric, s.bytes());
        if (t.unpriced() != null) {
            return new Row(framework, b.id, s.bytes(), s.phase(), null, null, valid, verdict, "not priced: " + t.unpriced(), null);
        }
        Calibration.Fit scale = scales.get(key(b, k));
        Estimate e = scale == null ? t.best(s.bytes(), Scale.SPECS) : scale.estimate(t, s.bytes());
        int n = fabric.worldSize();
        double busbw = s.bytes() / (e.us() * 1000.0) * 2.0 * (n - 1) / n;
        String basis = scale == null ? "from specs" : "calibrated by the check of " + calibrationFrom;
        return new Row(framework, b.id, s.bytes(), s.phase(), e.us(), busbw, valid, verdict, basis, e.term());
    }

    /** Whether the advisor calls a backend valid, and its verdict as {@code outcome: knob=value}. */
    record Validity(boolean valid, String verdict) {
    }

    /** The verdict on the probe's knob; NCCL itself is every framework's fallback. */
    private static Validity verdict(MachineSnapshot machine, DeploymentRequest d, Probe p) {
        if (p.knob() == null) {
            return new Validity(true, "ok: NCCL is the fallback every framework keeps");
        }
        Map<String, String> flags = new LinkedHashMap<>(d.flags());
        Map<String, String> env = new LinkedHashMap<>(d.env());
        if (p.flag() != null) flags.put(p.flag(), p.value());
        if (p.env() != null) env.put(p.env(), p.value());
        DeploymentRequest probe = new DeploymentRequest(List.of(p.framework()), d.tp(), d.nodes(), d.dcp(), d.model(), d.tokens(),
                flags, env, d.assume(), d.versions());
        try {
            AdviceResult a = Advisor.advise(machine, probe.deployment(), probe.options());
            Verdict v = a.verdict(p.framework(), p.knob()).orElse(null);
            if (v == null) {
                return new Validity(false, "unknown: no verdict for " + p.knob());
            }
            String outcome = v.outcome().name().toLowerCase(Locale.ROOT).replace('_', ' ');
            return new Validity(v.outcome() == Outcome.OK, outcome + ": " + p.knob() + "=" + p.value());
        } catch (AdvisorInputException e) {
            return new Validity(false, "error: " + e.getMessage());
        }
    }

    /** Fits NCCL and the check's one-/two-shot to the check's rows: graph mode where it ran, bf16 where measured. */
    private static void calibrate(AllReduceResult check, String from, Fabric fabric, Map<String, Calibration.Fit> scales,
                                  List<String> lines) {
        boolean graph = check.rows().stream().anyMatch(x -> "graph".equals(x.modeName()));
        boolean bf16 = check.rows().stream().anyMatch(x -> "bf16".equals(x.dtype()));
        String mode = graph ? "graph" : "plain";
        Fabric checked = new Fabric(check.params().worldSize(), 1, fabric.smTimes10(), fabric.nvlinks(), fabric.linkGBps(),
                fabric.nvswitch(), fabric.pcieGBps(), fabric.pcieLink(), fabric.multicast(), fabric.unknowns());
        for (Backend b : List.of(Backend.NCCL, Backend.ONESHOT, Backend.TWOSHOT)) {
            Points pts = points(check, b.id, mode, bf16);
            Kernels k = b == Backend.NCCL ? Kernels.NCCL : Kernels.FABRICSCOPE;
            Calibration.Fit fit = Calibration.fit(bytes -> CostModel.terms(b, k, checked, bytes), pts.points());
            if (fit == null) {
                continue;
            }
            scales.put(key(b, k), fit);
            String what = String.format(Locale.ROOT, "%d %s-mode %spoints (%s) of world size %d", fit.points(), mode,
                    bf16 ? "bf16 " : "", pts.what(), check.params().worldSize());
            lines.add((b == Backend.NCCL ? "nccl" : "check " + b.id) + ": " + describe(fit, what));
        }
    }

    /**
     * The measured points a check gives the fit for one implementation.
     *
     * @param events  the times are CUDA events (the time on the GPU's stream), not the host clock
     * @param inPlace the in-place runs are among them, beside the out-of-place ones
     */
    public record Points(List<Calibration.Point> points, boolean events, boolean inPlace) {
        public Points {
            points = List.copyOf(points);
        }

        /** e.g. {@code CUDA events, out of place and in place}. */
        public String what() {
            return (events ? "CUDA events" : "host clock") + ", out of place" + (inPlace ? " and in place" : "");
        }
    }

    /**
     * The rows of {@code impl} in {@code mode} (bf16 only when {@code bf16}) without a wrong element, as fit points:
     * the CUDA-event times where every such row holds them, else the host clock; both placements where run. The
     * model prices an all-reduce's time on the GPU, which is what a forward pass in a CUDA graph waits for; the events
     * measure that, the host clock adds the host's own stalls (the 2026-12-01 sweep's NCCL 1 MiB: 28.02 µs host, 17.87
     * events), and the in-place run of the same size is a second measurement of the same cost.
     */
    public static Points points(AllReduceResult check, String impl, String mode, boolean bf16) {
        List<AllReduceResult.Row> rows = check.rows().stream().filter(x -> x.impl().equals(impl) && mode.equals(x.modeName())
                && (!bf16 || "bf16".equals(x.dtype())) && x.totalWrong() == 0).toList();
        boolean events = !rows.isEmpty() && rows.stream().allMatch(x -> x.eventTimeUs() != null
                && (x.inPlaceTimeUs() == null || x.inPlaceEventTimeUs() != null));
        boolean inPlace = false;
        List<Calibration.Point> pts = new ArrayList<>();
        for (AllReduceResult.Row x : rows) {
            pts.add(new Calibration.Point(x.bytes(), events ? x.eventTimeUs() : x.timeUs()));
            Double in = events ? x.inPlaceEventTimeUs() : x.inPlaceTimeUs();
            if (in != null) {
                pts.add(new Calibration.Point(x.bytes(), in));
                inPlace = true;
            }
        }
        return new Points(pts, events, inPlace);
    }

    /**
     * One calibration in words: {@code latency ×1.13, bandwidth ×1.22 from 26 … points (worst point 12% off)}, or,
     * with terms of their own, each term's factors and the sizes NCCL's tuner assigns it.
     */
    static String describe(Calibration.Fit fit, String points) {
        String worst = String.format(Locale.ROOT, "worst point %.0f%% off", fit.worstRelativeError() * 100);
        if (fit.terms().isEmpty()) {
            return String.format(Locale.ROOT, "latency ×%.2f, bandwidth ×%.2f from %s (%s)", fit.scale().latency(),
                    fit.scale().bandwidth(), points, worst);
        }
        StringBuilder sb = new StringBuilder("per term, the " + points + " as NCCL's tuner assigns them (latency / "
                + "bandwidth factor): ");
        String sep = "";
        for (var e : fit.terms().entrySet()) {
            var t = e.getValue();
            sb.append(sep).append(String.format(Locale.ROOT, "%s ×%.2f / ×%.2f over %s – %s (%d points)", e.getKey(),
                    t.scale().latency(), t.scale().bandwidth(), CostModel.size(t.fromBytes()), CostModel.size(t.toBytes()),
                    t.points()));
            sep = ", ";
        }
        return sb.append(String.format(Locale.ROOT, "; other terms ×%.2f / ×%.2f (one pair over every size); %s",
                fit.scale().latency(), fit.scale().bandwidth(), worst)).toString();
    }
}
