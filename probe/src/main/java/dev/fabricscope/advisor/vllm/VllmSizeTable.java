package dev.fabricscope.advisor.vllm;

import dev.fabricscope.advisor.api.SourceRef;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * vLLM's FlashInfer all-reduce size tables, verbatim: capability × 10 → world size → MB. The rules
 * ({@link VllmFusionPass}, {@link VllmCommunicatorRules}), their tests and the table in docs/backend-rules.md §2.3
 * ({@link #markdown()}) all read these rows.
 *
 * @param name   upstream's name for the table
 * @param use    what vLLM uses it for
 * @param rows   capability × 10 → world size → MB, in upstream's order; null where no stored copy holds the rows
 * @param source where the rows were read (or, for unread rows, where the table is looked up and why no rows)
 */
public record VllmSizeTable(String name, String use, Map<Integer, Map<Integer, Double>> rows, SourceRef source) {

    static final String C0052812D = "0052812d1f0655bd4b646b5dbda8b3427697fae3";
    static final String FUSION_PATH = "vllm/compilation/passes/fusion/allreduce_rms_fusion.py";

    /** The fusion pass's budget and, through {@code PassConfig.default_fi_allreduce_fusion_max_size_mb}, the standalone workspace's. */
    public static final VllmSizeTable FUSION = new VllmSizeTable("FI_ALLREDUCE_FUSION_MAX_SIZE_MB",
            "fusion pass size limit, also the standalone FlashInfer all-reduce budget",
            rows(row(90, 2, 64, 4, 2, 8, 0.5), row(100, 2, 64, 4, 32, 8, 1, 16, 64), row(103, 2, 64, 4, 64, 8, 4, 16, 64),
                    row(107, 2, 64, 4, 64, 8, 2)),
            new SourceRef(VllmSources.REPO, C0052812D, FUSION_PATH, "105-128"));

    /** Up to which size the trtllm workspace runs one-shot; mnnvl leaves the choice to FlashInfer (lines 165-169). */
    public static final VllmSizeTable ONE_SHOT = new VllmSizeTable("_FI_ALLREDUCE_ONE_SHOT_MAX_SIZES_MB",
            "trtllm one-shot up to this size, two-shot above (mnnvl: FlashInfer picks)",
            rows(row(90, 2, 32, 4, 2, 8, 0.5), row(100, 2, 32, 4, 4, 8, 1), row(103, 2, 32, 4, 4, 8, 2), row(107, 2, 32, 4, 4, 8, 2)),
            new SourceRef(VllmSources.REPO, C0052812D, FUSION_PATH, "133-154"));

    /**
     * Keyed (capability, world size, nodes) and imported from all_reduce_utils.py by one public copy of
     * flashinfer_all_reduce.py whose repository and commit the stored index does not give; the stored
     * vllm-project/vllm all_reduce_utils.py (b250ac3d) holds CUSTOM_ALL_REDUCE_MAX_SIZES, SYMM_MEM_ALL_REDUCE_MAX_SIZES
     * and NCCL_SYMM_MEM_ALL_REDUCE_CONFIG (lines 31-70) but not this table, so no row was read.
     */
    public static final VllmSizeTable MNNVL = new VllmSizeTable("FI_MNNVL_ALLREDUCE_MAX_SIZE_MB",
            "mnnvl budget per (capability, world size, nodes); no stored copy has rows",
            null, new SourceRef(VllmSources.REPO, "b250ac3dd5ef41c880d647ac1556ead89a7bff54",
            "vllm/distributed/device_communicators/all_reduce_utils.py", "31-70"));

    public static final List<VllmSizeTable> TABLES = List.of(FUSION, ONE_SHOT, MNNVL);

    public boolean rowsRead() {
        return rows != null;
    }

    /** MB for this capability × 10 and world size, if the table has the cell. */
    public Optional<Double> mb(int capTimes10, int worldSize) {
        Map<Integer, Double> row = rows == null ? null : rows.get(capTimes10);
        return Optional.ofNullable(row == null ? null : row.get(worldSize));
    }

    /** The world sizes of one capability's row, or null when the table has no such row. */
    public TreeSet<Integer> worldSizes(int capTimes10) {
        Map<Integer, Double> row = rows == null ? null : rows.get(capTimes10);
        return row == null ? null : new TreeSet<>(row.keySet());
    }

    public TreeSet<Integer> capabilities() {
        return rows == null ? new TreeSet<>() : new TreeSet<>(rows.keySet());
    }

    /** {@code 64} / {@code 0.5}: MB as upstream writes them. */
    static String fmt(double mb) {
        return mb == Math.rint(mb) ? Long.toString((long) mb) : Double.toString(mb);
    }

    /** The tables as docs/backend-rules.md §2.3 holds them (BackendRulesDocTest keeps the two in step); lines fit 120 columns. */
    public static String markdown() {
        StringBuilder b = new StringBuilder("| table | capability | TP 2 | TP 4 | TP 8 | TP 16 |\n|---|---|---|---|---|---|\n");
        StringBuilder sources = new StringBuilder();
        for (VllmSizeTable t : TABLES) {
            sources.append("\n- `").append(t.name).append("`: ").append(t.use).append(";\n  `").append(t.source.repo()).append('@')
                    .append(t.source.commit(), 0, 8).append(':').append(t.source.path()).append(':').append(t.source.line()).append('`');
            if (!t.rowsRead()) {
                b.append("| `").append(t.name).append("` | rows not read | | | | |\n");
                continue;
            }
            for (int cap : t.capabilities()) {
                b.append("| `").append(t.name).append("` | ").append(cap);
                for (int ws : List.of(2, 4, 8, 16)) {
                    b.append(" | ").append(t.mb(cap, ws).map(VllmSizeTable::fmt).orElse("—"));
                }
                b.append(" |\n");
            }
        }
        return b.append(sources).append('\n').toString();
    }

    private static Map.Entry<Integer, Map<Integer, Double>> row(int cap, double... sizeMb) {
        Map<Integer, Double> m = new LinkedHashMap<>();
        for (int i = 0; i < sizeMb.length; i += 2) {
            m.put((int) sizeMb[i], sizeMb[i + 1]);
        }
        return Map.entry(cap, java.util.Collections.unmodifiableMap(m));
    }

    @SafeVarargs
    private static Map<Integer, Map<Integer, Double>> rows(Map.Entry<Integer, Map<Integer, Double>>... rows) {
        Map<Integer, Map<Integer, Double>> m = new LinkedHashMap<>();
        for (Map.Entry<Integer, Map<Integer, Double>> r : rows) {
            m.put(r.getKey(), r.getValue());
        }
        return java.util.Collections.unmodifiableMap(m);
    }
}
