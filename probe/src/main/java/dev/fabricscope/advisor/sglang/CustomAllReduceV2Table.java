package dev.fabricscope.advisor.sglang;

import dev.fabricscope.advisor.api.SourceRef;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * CustomAllReduceV2's {@code THRESHOLD_2_SHOT_MAP} ({@code custom_all_reduce_v2.py@50e143a6 _init_config}), one row per
 * GPU family and world size. Its keys are the world sizes V2 takes ({@code supported_world_size=list(THRESHOLD_2_SHOT_MAP.keys())}),
 * and its thresholds pick the algorithm per message: one-shot push up to the first, one-shot pull up to the second,
 * two-shot pull above, all up to {@link #MAX_PULL_BYTES}; larger messages go to NCCL. The rule, its test and
 * docs/backend-rules.md §1.5 read these rows.
 */
public final class CustomAllReduceV2Table {

    /** {@code INF = 1 << 60}: one-shot pull at every size. */
    public static final long INF = 1L << 60;
    static final long KB = 1024;
    static final long MB = 1024 * 1024;
    /** {@code max_pull_size} default (L55): the largest message V2 takes ({@code should_custom_ar}, L112). */
    public static final long MAX_PULL_BYTES = 16 * MB;

    /** Which map {@code _init_config} picks: {@code is_sm100_supported()} or not (the comment says H200 for the other). */
    public enum Family { SM100, OTHER }

    /** One {@code ModeConfig(one_shot_push_threshold, one_shot_pull_threshold)} entry. */
    public record Row(Family family, int worldSize, long oneShotPushBytes, long oneShotPullBytes) {
    }

    public static final SourceRef SM100_SOURCE = line("166-174");
    public static final SourceRef OTHER_SOURCE = line("177-185");
    /** {@code CustomAllReduceV2.__init__}: the shared NVLink helper with the map's keys and {@code cls_name="CustomAllReduceV2"}. */
    public static final SourceRef INIT = line("41-49");

    public static final List<Row> ROWS = List.of(
            new Row(Family.SM100, 2, 4 * MB, INF),
            new Row(Family.SM100, 3, 4 * MB, 4 * MB),
            new Row(Family.SM100, 4, 2 * MB, 2 * MB),
            new Row(Family.SM100, 5, 2 * MB, 2 * MB),
            new Row(Family.SM100, 6, 1 * MB, 1 * MB),
            new Row(Family.SM100, 7, 896 * KB, 896 * KB),
            new Row(Family.SM100, 8, 720 * KB, 720 * KB),
            new Row(Family.OTHER, 2, 2 * MB, INF),
            new Row(Family.OTHER, 3, 512 * KB, 512 * KB),
            new Row(Family.OTHER, 4, 384 * KB, 256 * KB),
            new Row(Family.OTHER, 5, 256 * KB, 256 * KB),
            new Row(Family.OTHER, 6, 192 * KB, 192 * KB),
            new Row(Family.OTHER, 7, 192 * KB, 192 * KB),
            new Row(Family.OTHER, 8, 160 * KB, 160 * KB));

    private CustomAllReduceV2Table() {
    }

    private static SourceRef line(String lines) {
        return new SourceRef(SglangSources.REPO, SglangSources.CAR_V2_COMMIT, SglangSources.CAR_V2_PATH, lines);
    }

    /** The world sizes V2 takes for this family (both maps have the same keys). */
    public static List<Integer> worldSizes(Family f) {
        return List.copyOf(new TreeSet<>(ROWS.stream().filter(r -> r.family() == f).map(Row::worldSize).toList()));
    }

    public static Optional<Row> row(Family f, int worldSize) {
        return ROWS.stream().filter(r -> r.family() == f && r.worldSize() == worldSize).findFirst();
    }

    /**
     * {@code is_sm100_supported()} for a capability: SM 10.0 and 10.3 here. Its body was not read; SGLang's name and
     * its use as "Blackwell B200" in the map's comment are all that is known, so other 10.x are not claimed.
     */
    public static Optional<Family> family(String sm) {
        if (sm == null) {
            return Optional.empty();
        }
        if (sm.equals("10.0") || sm.equals("10.3")) {
            return Optional.of(Family.SM100);
        }
        return sm.startsWith("10.") ? Optional.empty() : Optional.of(Family.OTHER);
    }

    /** {@code 160 KiB}, {@code 2 MiB}, {@code every size}. */
    public static String size(long bytes) {
        if (bytes >= INF) {
            return "every size";
        }
        return bytes % MB == 0 ? bytes / MB + " MiB" : bytes / KB + " KiB";
    }
}
