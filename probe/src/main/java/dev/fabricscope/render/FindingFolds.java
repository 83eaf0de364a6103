package dev.fabricscope.render;

import dev.fabricscope.model.Finding;
import dev.fabricscope.model.MachineSnapshot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The same finding on several GPUs as one finding about all of them ({@code GPU0–7}, {@code GPU0–3, GPU5}): what every
 * output that people read shows ({@code show}/{@code probe}, the app's Overview, Markdown and HTML reports). The
 * snapshot and its JSON keep one finding per GPU, each with its GPU's PCI address (the record; {@code diff} compares
 * those). A finding is folded with another when severity, code and message are equal and both are about one GPU
 * each, as the analysis names a GPU ({@code GPU3 (0000:4e:00.0)}); the folded one stands where the first stood.
 */
public final class FindingFolds {

    private FindingFolds() {
    }

    /** {@code s}'s findings, folded. */
    public static List<Finding> of(MachineSnapshot s) {
        return fold(s, s.findings());
    }

    /** {@code findings} of {@code s} (any order, e.g. worst first), folded, in the same order. */
    public static List<Finding> fold(MachineSnapshot s, List<Finding> findings) {
        Map<String, Integer> gpuBySubject = new HashMap<>();
        for (int i = 0; i < s.gpus().size(); i++) {
            gpuBySubject.put(subject(s, i), i);
        }
        Map<List<Object>, List<Integer>> gpus = new LinkedHashMap<>();
        Map<List<Object>, Finding> first = new HashMap<>();
        List<Object> order = new ArrayList<>();
        for (Finding f : findings) {
            Integer gpu = f.subject() == null ? null : gpuBySubject.get(f.subject());
            if (gpu == null) {
                order.add(f);
                continue;
            }
            List<Object> key = java.util.Arrays.asList(f.severity(), f.code(), f.message());
            if (!gpus.containsKey(key)) {
                order.add(key);
                first.put(key, f);
            }
            gpus.computeIfAbsent(key, k -> new ArrayList<>()).add(gpu);
        }
        List<Finding> out = new ArrayList<>();
        for (Object o : order) {
            if (o instanceof Finding f) {
                out.add(f);
                continue;
            }
            Finding f = first.get(o);
            List<Integer> on = gpus.get(o);
            out.add(on.size() == 1 ? f : new Finding(f.severity(), f.code(), f.message(), Fit.ranges("GPU", on)));
        }
        return out;
    }

    /** How the analysis names GPU {@code i} as a finding's subject. */
    static String subject(MachineSnapshot s, int i) {
        return s.label(s.gpus().get(i).pci()) + " (" + s.gpus().get(i).pci() + ")";
    }
}
