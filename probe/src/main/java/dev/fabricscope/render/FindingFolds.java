package dev.fabricscope.render;

import dev.fabricscope.model.Finding;
import dev.fabricscope.model.MachineSnapshot;
import java.util.HashMap;
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
        return InOrderFold.fold(findings,
                f -> f.subject() == null || !gpuBySubject.containsKey(f.subject()) ? null : List.of(f.severity(), f.code(), f.message()),
                (f, same) -> same.size() == 1 ? f
                        : new Finding(f.severity(), f.code(), f.message(), Fit.ranges("GPU", same.stream().map(x -> gpuBySubject.get(x.subject())).toList())));
    }

    /** How the analysis names GPU {@code i} as a finding's subject. */
    static String subject(MachineSnapshot s, int i) {
        return s.label(s.gpus().get(i).pci()) + " (" + s.gpus().get(i).pci() + ")";
    }
}
