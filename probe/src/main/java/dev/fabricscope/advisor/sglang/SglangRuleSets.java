package dev.fabricscope.advisor.sglang;

import dev.fabricscope.advisor.api.SourceRef;
import dev.fabricscope.advisor.customallreduce.CustomAllReduceSources;
import dev.fabricscope.advisor.rule.Pedigree;
import java.util.ArrayList;
import java.util.List;

/**
 * What each SGLang rule set was read from. Its releases are not known: the mirror is larger than fetch brings, and the
 * stored index holds python/sglang/version.py only at fd1216ca ({@code 0.5.6.post2}; an earlier session saw 0.5.3rc2 at
 * 0175ceec) and python/pyproject.toml only at aad731e7 ({@code 0.1.12}), at none of the commits the rules cite, which
 * read_file refuses for those paths. A source install names its commit instead ({@code direct_url.json}).
 */
final class SglangRuleSets {

    static final String NO_RELEASE = "no release read: the rules cite commits of the stored index, which gives no dates "
            + "and no tags, and its version.py (fd1216ca: 0.5.6.post2) is at none of the rules' commits; name a commit (prefix), "
            + "or install from git: direct_url.json's commit then picks the set";

    private static final List<SourceRef> COMMON = List.of(SglangSources.SEED_ARGS, SglangSources.AUTO, SglangSources.TSM,
            CustomAllReduceSources.SGLANG_CAR);

    private SglangRuleSets() {
    }

    static Pedigree of(String id) {
        List<SourceRef> s = new ArrayList<>(COMMON);
        switch (id) {
            case "newest" -> s.addAll(List.of(SglangSources.ENGINE_NEW, SglangSources.FUSION_NEW, SglangSources.PREFLIGHT,
                    SglangSources.EXEC_COMM, SglangSources.ENVIRON_CAR_V2, SglangSources.CAR_V2, SglangSources.CP_HOOK,
                    SglangSources.KIMI_K3_DCP, SglangSources.PARALLEL_FIELDS, SglangSources.DETERMINISTIC_TP));
            case "middle" -> s.addAll(List.of(SglangSources.ENGINE_MID, SglangSources.FUSION_TB));
            case "older" -> s.addAll(List.of(SglangSources.ENGINE_OLD, SglangSources.FUSION_TB, SglangSources.TRANSPORT));
            default -> throw new IllegalArgumentException("no SGLang rule set " + id);
        }
        return new Pedigree(Pedigree.files(s, SglangSources.FORK_DATES), null, null, List.of(), NO_RELEASE);
    }
}
