package dev.fabricscope.advisor.nccl;

import dev.fabricscope.advisor.api.SourceRef;
import dev.fabricscope.advisor.rule.Pedigree;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What each NCCL rule set was read from and its releases: every release tag of the bare mirror (fetch github:NVIDIA/nccl)
 * was read; a set's lines are cited at its last tag, dates from {@code git log -1 --format=%cI TAG}.
 */
final class NcclRuleSets {

    private static final Map<String, String> DATES = Map.of(
            NcclSources.COMMIT, "2026-06-11T11:44:19-07:00",
            NcclSetSources.C2289, "2025-11-10T17:58:58+00:00",
            NcclSetSources.C2283, "2025-09-02T13:53:34-07:00",
            NcclSetSources.C2266, "2025-05-20T04:04:41-07:00",
            NcclSources.C2243, "2025-01-07T02:01:15-08:00",
            NcclSources.COMMIT_2_20, "2024-02-26T02:52:39-08:00",
            NcclSetSources.C2203, "2024-02-13T04:22:38-08:00",
            NcclSetSources.C2194, "2023-11-13T10:36:12-08:00",
            NcclSetSources.C2186, "2023-10-10T00:34:18-07:00",
            NcclSetSources.C2171, "2023-03-01T00:39:04-08:00");

    private NcclRuleSets() {
    }

    static Pedigree of(String id, NcclSetSources v) {
        return switch (id) {
            case "newest" -> pedigree(v, "2.29", null, List.of("v2.29.2-1 … v2.29.7-1", "v2.30.3-1 … v2.30.7-1 "
                    + "(73cf1122; 5067397c, the mirror's newest, carries the same src/)"));
            case "2.28.7-2.28.9" -> pedigree(v, "2.28.7", "2.29", List.of("v2.28.7-1", "v2.28.9-1"));
            case "2.27-2.28.3" -> pedigree(v, "2.27", "2.28.7", List.of("v2.27.3-1 … v2.27.7-1", "v2.28.3-1"));
            case "2.25-2.26" -> pedigree(v, "2.25", "2.27", List.of("v2.25.1-1", "v2.26.2-1 … v2.26.6-1"));
            case "2.21-2.24" -> pedigree(v, "2.21", "2.25", List.of("v2.21.5-1", "v2.22.3-1", "v2.23.4-1", "v2.24.3-1"));
            case "2.20.5" -> pedigree(v, "2.20.5", "2.21", List.of("v2.20.5-1"));
            case "2.20.3" -> pedigree(v, "2.20", "2.20.5", List.of("v2.20.3-1"));
            case "2.19" -> pedigree(v, "2.19", "2.20", List.of("v2.19.1-1 … v2.19.4-1"));
            case "2.18" -> pedigree(v, "2.18", "2.19", List.of("v2.18.1-1 … v2.18.6-1"));
            case "2.17" -> pedigree(v, "2.17", "2.18", List.of("v2.17.1-1"));
            default -> throw new IllegalArgumentException("no NCCL rule set " + id);
        };
    }

    private static Pedigree pedigree(NcclSetSources s, String from, String before, List<String> tags) {
        List<SourceRef> refs = new ArrayList<>(List.of(s.nvlsGate(), s.nvlsInit()));
        refs.addAll(java.util.Arrays.asList(s.nvlsSearch(), s.mnnvlGate(), s.mnnvlCumem(), s.p2pLevel(), NcclSources.TORCH));
        List<SourceRef> present = refs.stream().filter(Objects::nonNull).toList();
        return new Pedigree(Pedigree.files(present, DATES), from, before, tags, "every release tag of the mirror read; lines cited at "
                + (before == null ? "5067397c (NCCL 2.30.7)" : "the range's last tag") + (before == null ? "" : "; " + before + " behaves otherwise"));
    }
}
