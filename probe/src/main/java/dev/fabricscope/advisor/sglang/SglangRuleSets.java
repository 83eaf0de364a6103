package dev.fabricscope.advisor.sglang;

import dev.fabricscope.advisor.api.SourceRef;
import dev.fabricscope.advisor.customallreduce.CustomAllReduceSources;
import dev.fabricscope.advisor.rule.Pedigree;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What each SGLang rule set was read from. Its releases are not known: the mirror is larger than fetch brings, and the
 * stored index holds one python/sglang/version.py (0.5.3rc2 at 0175ceec), at none of the commits the rules cite.
 */
final class SglangRuleSets {

    static final String NO_RELEASE = "no release read: the rules cite commits of the stored index, which gives no dates "
            + "and no tags, and its only version.py is at another commit; name a commit (prefix) instead";

    private static final List<SourceRef> COMMON = List.of(SglangSources.SEED_ARGS, SglangSources.AUTO, SglangSources.TSM,
            CustomAllReduceSources.SGLANG_CAR);

    private SglangRuleSets() {
    }

    static Pedigree of(String id) {
        List<SourceRef> s = new ArrayList<>(COMMON);
        switch (id) {
            case "newest" -> s.addAll(List.of(SglangSources.ENGINE_NEW, SglangSources.FUSION_NEW, SglangSources.PREFLIGHT,
                    SglangSources.EXEC_COMM, SglangSources.ENVIRON_CAR_V2, SglangSources.CAR_V2, SglangSources.CP_HOOK,
                    SglangSources.KIMI_K3_DCP, SglangSources.PARALLEL_FIELDS));
            case "middle" -> s.addAll(List.of(SglangSources.ENGINE_MID, SglangSources.FUSION_TB));
            case "older" -> s.addAll(List.of(SglangSources.ENGINE_OLD, SglangSources.FUSION_TB, SglangSources.TRANSPORT));
            default -> throw new IllegalArgumentException("no SGLang rule set " + id);
        }
        return new Pedigree(Pedigree.files(s, Map.of()), null, null, List.of(), NO_RELEASE);
    }
}
