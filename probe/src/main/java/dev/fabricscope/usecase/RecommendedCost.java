package dev.fabricscope.usecase;

import dev.fabricscope.advisor.Advisor;
import dev.fabricscope.advisor.Options;
import dev.fabricscope.advisor.api.AdviceResult;
import dev.fabricscope.advisor.api.AdvisorInputException;
import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Recommendation;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.predict.Backend;
import dev.fabricscope.predict.CostModel;
import dev.fabricscope.predict.ModelShapes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The predicted all-reduce cost beside each recommendation (issue 29 item 3). Per framework: the time
 * {@link Predict} gives each backend the recommendation selects — what the advisor's verdicts say is used once the
 * recommendation is applied — at the model's decode and prefill sizes, or at a small and a large message; and the
 * fastest backend the advisor calls valid where that is another one. The advisor knows nothing of the cost model:
 * this use case joins the two, and the renderers only print its words.
 */
public final class RecommendedCost {

    /** The sizes priced without {@code --model} and {@code --tokens}: a decode-sized and a prefill-sized message. */
    public static final long SMALL = 64L << 10;
    public static final long LARGE = 8L << 20;

    private RecommendedCost() {
    }

    /**
     * One backend at one size.
     *
     * @param us       the predicted time, or null when the model does not price it here
     * @param unpriced why not, or null
     */
    public record Price(String backend, long bytes, String phase, Double us, String unpriced) {
    }

    /**
     * One framework's recommendation, priced.
     *
     * @param backends the backends it selects ({@code nccl}, {@code oneshot}, …)
     * @param selected their prices, backend by backend, size by size
     * @param fastest  per size, the fastest backend the advisor calls valid at this deployment, where it is not one of
     *                 {@code backends}
     * @param unpriced why no selected backend is priced at any size (one reason for all), or null
     * @param line     all of it in one line, as the text, the app and the JSON show it
     */
    public record Cost(String framework, List<String> backends, List<Price> selected, List<Price> fastest, String unpriced,
                       String line) {
        public Cost {
            backends = List.copyOf(backends);
            selected = List.copyOf(selected);
            fastest = List.copyOf(fastest);
        }

        Map<String, Object> jsonTree() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("framework", framework);
            m.put("backends", backends);
            m.put("selected", selected.stream().map(RecommendedCost::json).toList());
            m.put("fastestValid", fastest.stream().map(RecommendedCost::json).toList());
            if (unpriced != null) m.put("unpriced", unpriced);
            m.put("text", line);
            return m;
        }
    }

    /**
     * The costs of every recommendation of one advice.
     *
     * @param sizes       which sizes were priced and why those, e.g. {@code at 64 KiB and 8 MiB, a small and a large
     *                    message (no --model with --tokens given)}
     * @param basis       {@code from specs}, or why nothing was predicted
     * @param byFramework per framework recommended, in the advice's order
     */
    public record Costs(String sizes, String basis, Map<String, Cost> byFramework) {
        public Costs {
            byFramework = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(byFramework));
        }

        static Costs none(String why) {
            return new Costs(null, "no prediction: " + why, Map.of());
        }

        /** The header line above the recommendations: where the figures come from and at which sizes. */
        public String heading() {
            if (sizes == null) {
                return "Predicted all-reduce: " + basis;
            }
            return "Predicted all-reduce time ('fabricscope predict', " + basis + ") " + sizes;
        }

        /** Per framework, its one line (for the renderers, which do not know the cost model). */
        public Map<String, String> lines() {
            Map<String, String> m = new LinkedHashMap<>();
            byFramework.forEach((fw, c) -> m.put(fw, c.line()));
            return m;
        }

        public Map<String, Object> jsonTree() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("basis", basis);
            if (sizes != null) m.put("sizes", sizes);
            m.put("recommendations", byFramework.values().stream().map(Cost::jsonTree).toList());
            return m;
        }
    }

    /** Prices every recommendation of {@code advice}, which was given for {@code d} on {@code machine}. */
    public static Costs of(MachineSnapshot machine, DeploymentRequest d, AdviceResult advice) {
        if (advice.blocked() != null) {
            return Costs.none(advice.blocked());
        }
        if (machine == null) {
            return Costs.none("no machine snapshot to read the fabric from");
        }
        StringBuilder sizesNote = new StringBuilder();
        List<Predict.Size> sizes = sizes(d, sizesNote);
        Predict.Result priced;
        try {
            priced = new Predict().predict(new Predict.Request(machine, d, sizes, null, null));
        } catch (UseCaseException e) {
            return Costs.none(e.getMessage());
        }
        if (priced.blocked() != null) {
            return Costs.none(priced.blocked());
        }
        Map<String, Cost> out = new LinkedHashMap<>();
        for (Recommendation rec : advice.recommendations()) {
            Set<Backend> chosen = selected(machine, d, rec);
            out.put(rec.framework(), cost(rec.framework(), chosen, priced.rows(), sizes));
        }
        return new Costs(sizesNote.toString(), "from specs", out);
    }

    /** The model's decode (one sequence) and prefill all-reduces in bf16, as predict computes them; else 64 KiB and 8 MiB. */
    static List<Predict.Size> sizes(DeploymentRequest d, StringBuilder note) {
        String why;
        if (d.model() == null) {
            why = "no --model with --tokens given";
        } else if (d.tokens() == null || d.tokens() < 1) {
            why = "--model without --tokens";
        } else {
            var shape = ModelShapes.find(d.model()).orElse(null);
            if (shape != null) {
                int element = ModelShapes.elementBytes("bf16");
                long decode = (long) shape.hiddenSize() * element;
                long prefill = (long) d.tokens() * shape.hiddenSize() * element;
                note.append(String.format(Locale.ROOT, "at the model's all-reduces (%s, hidden %d, bf16): decode 1 token = %s, "
                        + "prefill %d tokens = %s", shape.name(), shape.hiddenSize(), CostModel.size(decode), d.tokens(),
                        CostModel.size(prefill)));
                return List.of(new Predict.Size(decode, "decode"), new Predict.Size(prefill, "prefill"));
            }
            why = "the hidden size of " + dev.fabricscope.text.Escape.cut(dev.fabricscope.text.Escape.visible(d.model(), false), 120)
                    + " is not in predict's table";
        }
        note.append("at ").append(CostModel.size(SMALL)).append(" and ").append(CostModel.size(LARGE))
                .append(", a small and a large message (").append(why).append(")");
        return List.of(new Predict.Size(SMALL, null), new Predict.Size(LARGE, null));
    }

    /**
     * The backends a recommendation selects: NCCL (every framework's fallback, and its large messages), and each
     * backend whose knob, with the recommendation applied, the advisor finds at the backend's value and ok, or
     * resolved to that backend.
     */
    static Set<Backend> selected(MachineSnapshot machine, DeploymentRequest d, Recommendation rec) {
        Set<Backend> out = new LinkedHashSet<>();
        AdviceResult after;
        try {
            after = Advisor.advise(machine, Advisor.applied(rec, d.deployment()),
                    new Options(List.of(rec.framework()), d.versions(), d.assume()));
        } catch (AdvisorInputException e) {
            after = null; // a flag the input grammar does not take back: only the fallback is known to be used
        }
        for (Predict.Probe p : Predict.PROBES) {
            if (!p.framework().equals(rec.framework())) {
                continue;
            }
            if (p.knob() == null) {
                out.add(p.backend());
                continue;
            }
            Verdict v = after == null || after.blocked() != null ? null : after.verdict(p.framework(), p.knob()).orElse(null);
            if (v != null && selects(v, p)) {
                out.add(p.backend());
            }
        }
        return out;
    }

    /** Whether a verdict says its knob selects the probe's backend. */
    static boolean selects(Verdict v, Predict.Probe p) {
        String value = v.value() == null ? "" : v.value().replaceFirst("\\s*\\(.*\\)$", "").strip();
        if (v.outcome() == Outcome.OK && value.equalsIgnoreCase(p.value())) {
            return true;
        }
        if (v.outcome() == Outcome.ERROR || v.resolved() == null) {
            return false;
        }
        // auto or unset: the framework chooses, and the verdict's resolved backend says what (a fallback names where it went)
        String resolved = v.resolved().toLowerCase(Locale.ROOT);
        if (resolved.contains("disabled")) {
            return false;
        }
        List<String> words = List.of(resolved.split("[^a-z0-9_-]+"));
        return switch (p.backend()) {
            case NVLS -> words.contains("nvls");
            case TRTLLM -> words.contains("trtllm");
            case MNNVL -> words.contains("mnnvl");
            case SYMM_MEM -> words.contains("symm_mem") || words.contains("symm-mem");
            default -> false;
        };
    }

    static Cost cost(String framework, Set<Backend> chosen, List<Predict.Row> rows, List<Predict.Size> sizes) {
        List<Price> selected = new ArrayList<>();
        for (Backend b : chosen) {
            for (Predict.Row r : rows) {
                if (r.framework().equals(framework) && r.backend().equals(b.id)) {
                    selected.add(new Price(b.id, r.bytes(), r.phase(), r.predictedUs(),
                            r.predictedUs() == null ? r.basis().replaceFirst("^not priced: ", "") : null));
                }
            }
        }
        List<Price> fastest = new ArrayList<>();
        for (Predict.Size s : sizes) {
            Predict.Row best = null;
            for (Predict.Row r : rows) {
                if (r.framework().equals(framework) && r.bytes() == s.bytes() && r.valid() && r.predictedUs() != null
                        && (best == null || r.predictedUs() < best.predictedUs())) {
                    best = r;
                }
            }
            String bestId = best == null ? null : best.backend();
            double chosenBest = selected.stream().filter(p -> p.bytes() == s.bytes() && p.us() != null).mapToDouble(Price::us)
                    .min().orElse(Double.POSITIVE_INFINITY);
            // another backend, and faster than what is selected (a backend priced by the same terms ties: not named)
            if (best != null && chosen.stream().noneMatch(b -> b.id.equals(bestId)) && best.predictedUs() < chosenBest) {
                fastest.add(new Price(best.backend(), best.bytes(), best.phase(), best.predictedUs(), null));
            }
        }
        Set<String> reasons = new LinkedHashSet<>();
        selected.forEach(p -> reasons.add(p.unpriced()));
        String unpriced = reasons.size() == 1 && reasons.iterator().next() != null ? reasons.iterator().next() : null;
        if (selected.isEmpty()) {
            unpriced = "the recommendation selects none of " + framework + "'s all-reduce backends";
        }
        List<String> ids = chosen.stream().map(b -> b.id).toList();
        return new Cost(framework, ids, selected, fastest, unpriced, line(selected, fastest, unpriced, sizes));
    }

    /**
     * {@code predicted (us at 64 KiB/8 MiB): nccl 15.8/83.6 · oneshot 7.3/181; fastest valid here: symm-mem 49.8 us at
     * 8 MiB}: one figure per size, joined by a slash so that a wrapped line never splits a backend's figures.
     */
    static String line(List<Price> selected, List<Price> fastest, String unpriced, List<Predict.Size> sizes) {
        StringBuilder sb = new StringBuilder("predicted");
        if (unpriced != null) {
            sb.append(": no prediction: ").append(unpriced);
        } else {
            sb.append(" (us at ").append(String.join("/", sizes.stream().map(s -> at(s.bytes(), s.phase())).toList())).append("): ");
            Map<String, Map<Long, Price>> byBackend = new LinkedHashMap<>();
            for (Price p : selected) {
                byBackend.computeIfAbsent(p.backend(), k -> new LinkedHashMap<>()).put(p.bytes(), p);
            }
            List<String> parts = new ArrayList<>();
            byBackend.forEach((b, at) -> {
                Set<String> why = new LinkedHashSet<>();
                List<String> figures = new ArrayList<>();
                for (Predict.Size s : sizes) {
                    Price p = at.get(s.bytes());
                    figures.add(p == null || p.us() == null ? "—" : CostModel.micros(p.us()));
                    if (p != null && p.unpriced() != null) why.add(p.unpriced());
                }
                boolean none = at.values().stream().allMatch(p -> p.us() == null);
                parts.add(b + " " + (none ? "no prediction: " + String.join("; ", why)
                        : String.join("/", figures) + (why.isEmpty() ? "" : " (—: no prediction: " + String.join("; ", why) + ")")));
            });
            sb.append(String.join(" · ", parts));
        }
        if (!fastest.isEmpty()) {
            List<String> f = new ArrayList<>();
            for (Price p : fastest) f.add(p.backend() + " " + us(p.us()) + " at " + at(p.bytes(), p.phase()));
            sb.append("; fastest valid here: ").append(String.join(", ", f));
        }
        return sb.toString();
    }

    private static String at(long bytes, String phase) {
        return phase == null ? CostModel.size(bytes) : phase + " " + CostModel.size(bytes);
    }

    static String us(double v) {
        return CostModel.micros(v) + " us";
    }

    private static Map<String, Object> json(Price p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("backend", p.backend());
        m.put("bytes", p.bytes());
        if (p.phase() != null) m.put("phase", p.phase());
        if (p.us() != null) m.put("predictedUs", Math.round(p.us() * 100) / 100.0);
        if (p.unpriced() != null) m.put("unpriced", p.unpriced());
        return m;
    }
}
