package dev.fabricscope.advisor.sglang;

import dev.fabricscope.advisor.api.SourceRef;
import dev.fabricscope.advisor.customallreduce.CustomAllReduceSources;
import dev.fabricscope.advisor.rule.Pedigree;
import dev.fabricscope.advisor.rule.UpstreamReleases;
import java.util.ArrayList;
import java.util.List;

/**
 * What each SGLang rule set was read from, and what is proven of its releases (UpstreamReleases: upstream-releases.tsv,
 * proven against mmangkad-dev/sglang's main up to 2026-08-16). A set gets a release range only where every one of its files
 * is proven in those releases; none is: the stored index's copies (its commits are not in the fork) match no version of
 * their paths there, except custom_all_reduce_v2.py@50e143a6 (main 2026-03-20 … 2026-04-13, after the last release
 * version.py names). What is proven per file goes into the release note. A source install names its commit instead
 * ({@code direct_url.json}).
 */
final class SglangRuleSets {

    static final String NO_RELEASE = "no release proven for every file: ";
    static final String CHOOSE = "; name a commit (prefix), or install from git: direct_url.json's commit then picks the set";

    private static final List<SourceRef> COMMON = List.of(SglangSources.SEED_ARGS, SglangSources.AUTO, SglangSources.TSM,
            CustomAllReduceSources.SGLANG_CAR);

    private SglangRuleSets() {
    }

    static Pedigree of(String id) {
        List<SourceRef> s = new ArrayList<>(COMMON);
        if (id.equals("newest")) {
            s.add(SglangSources.CAR_V2_FALLBACK);
        }
        switch (id) {
            case "newest", "v2-strict" -> s.addAll(List.of(SglangSources.ENGINE_NEW, SglangSources.FUSION_NEW, SglangSources.PREFLIGHT,
                    SglangSources.EXEC_COMM, SglangSources.ENVIRON_CAR_V2, SglangSources.CAR_V2, SglangSources.CP_HOOK,
                    SglangSources.KIMI_K3_DCP, SglangSources.PARALLEL_FIELDS, SglangSources.DETERMINISTIC_TP));
            case "middle" -> s.addAll(List.of(SglangSources.ENGINE_MID, SglangSources.FUSION_TB));
            case "older" -> s.addAll(List.of(SglangSources.ENGINE_OLD, SglangSources.FUSION_TB, SglangSources.TRANSPORT));
            default -> throw new IllegalArgumentException("no SGLang rule set " + id);
        }
        List<Pedigree.File> files = UpstreamReleases.noted(Pedigree.files(s, SglangSources.FORK_DATES));
        List<String> every = UpstreamReleases.provenForEvery(files);
        if (!every.isEmpty()) {
            return new Pedigree(files, every.get(0), UpstreamReleases.nextSglangRelease(every.get(every.size() - 1)), List.of(),
                    "every file's text proven in these releases' bump commits: " + UpstreamReleases.summary(SglangKnobs.FW, files));
        }
        return new Pedigree(files, null, null, List.of(), NO_RELEASE + UpstreamReleases.summary(SglangKnobs.FW, files) + CHOOSE);
    }
}
