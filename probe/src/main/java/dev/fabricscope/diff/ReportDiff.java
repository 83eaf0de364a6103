package dev.fabricscope.diff;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The differences that matter between two reports (or snapshots), most important first: by {@link Category} in the
 * order declared, then in machine order within a category. Pure data, for the CLI ({@code fabricscope diff}) and the
 * GUI's side-by-side view: each change has the value on the left and on the right, null where absent.
 *
 * @param left    the first report
 * @param right   the second report
 * @param changes every difference, most important first
 */
public record ReportDiff(Side left, Side right, List<Change> changes) {

    public ReportDiff {
        changes = List.copyOf(changes);
    }

    /**
     * One compared report.
     *
     * @param name    what the caller called it (a file name)
     * @param machine one line: host and GPUs
     * @param taken   when its snapshot was probed, or null
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Side(String name, String machine, String taken) {
    }

    /**
     * One difference.
     *
     * @param category what kind of difference, which sets its importance
     * @param subject  what it is about: {@code driver}, {@code GPU3}, {@code GPU0–GPU1}, {@code sglang --knob}…
     * @param item     which property: {@code driver version}, {@code compute capability}, {@code link 7 active}…
     * @param before   the value on the left, or null when only the right has it
     * @param after    the value on the right, or null when only the left has it
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Change(Category category, String subject, String item, String before, String after) {

        /** ADDED, REMOVED or CHANGED. */
        public Kind kind() {
            return before == null ? Kind.ADDED : after == null ? Kind.REMOVED : Kind.CHANGED;
        }
    }

    public enum Kind { ADDED, REMOVED, CHANGED }

    /** Kinds of difference, most important first. */
    public enum Category {
        VERSIONS("Driver, CUDA and NCCL versions"),
        GPUS("GPU models and compute capability"),
        NVLINK("NVLink links and state"),
        NVSWITCHES("NVSwitches"),
        FABRIC("Multicast, memory sharing and fabric"),
        P2P("Peer-to-peer between GPUs"),
        VERDICTS("Verdicts"),
        RECOMMENDATIONS("Recommendations"),
        DEPLOYMENT("Deployment"),
        CHECKS("Live checks"),
        FINDINGS("Findings"),
        MACHINE("Host, environment and provenance");

        private final String title;

        Category(String title) {
            this.title = title;
        }

        public String title() {
            return title;
        }

        @JsonValue
        public String json() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    @JsonIgnore
    public boolean identical() {
        return changes.isEmpty();
    }

    /** The changes grouped by category, categories most important first. */
    public Map<Category, List<Change>> byCategory() {
        Map<Category, List<Change>> m = new LinkedHashMap<>();
        for (Category c : Category.values()) {
            List<Change> l = changes.stream().filter(x -> x.category() == c).toList();
            if (!l.isEmpty()) {
                m.put(c, l);
            }
        }
        return m;
    }
}
