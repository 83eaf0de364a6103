package dev.fabricscope.advisor.nccl;

import dev.fabricscope.advisor.rule.Pedigree;
import java.util.List;
import java.util.Map;

/** What each NCCL rule set was read from and its releases, read in the bare mirror (fetch github:NVIDIA/nccl). */
final class NcclRuleSets {

    private static final Map<String, String> DATES = Map.of(
            NcclSources.COMMIT, "2026-06-11T11:44:19-07:00",
            NcclSources.COMMIT_2_20, "2024-02-26T02:52:39-08:00");

    private NcclRuleSets() {
    }

    static Pedigree of(String id) {
        return switch (id) {
            case "newest" -> new Pedigree(Pedigree.files(List.of(NcclSources.DOCS, NcclSources.DOCS_ENV, NcclSources.TORCH), DATES),
                    "2.21", null, List.of("v2.21.5-1 … v2.30.7 (5067397c, the mirror's newest)"),
                    "rules read at 5067397c (NCCL 2.30.7); releases 2.21 and later take them, as the loaded library selects");
            case "2.17-2.20" -> new Pedigree(Pedigree.files(List.of(NcclSources.DOCS_OLD), DATES), "2.17", "2.21",
                    List.of("v2.17.1-1", "v2.18.1-1 … v2.18.6-1", "v2.19.1-1 … v2.19.4-1", "v2.20.3-1", "v2.20.5-1"),
                    "tags of the mirror; nvls.cc read at 48bb7fec (v2.20.5-1)");
            default -> throw new IllegalArgumentException("no NCCL rule set " + id);
        };
    }
}
