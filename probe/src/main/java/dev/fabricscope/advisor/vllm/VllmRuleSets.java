package dev.fabricscope.advisor.vllm;

import dev.fabricscope.advisor.api.SourceRef;
import dev.fabricscope.advisor.rule.Pedigree;
import dev.fabricscope.advisor.rule.UpstreamReleases;
import java.util.ArrayList;
import java.util.List;

/**
 * What each vLLM rule set was read from, and what is proven of its releases: none. The stored index's copies match no
 * version of their paths in mmangkad/vllm (main up to 2026-06-23; UpstreamReleases: upstream-releases.tsv), the fork's own
 * envs.py copies are dated there, and vLLM's release tags (setuptools-scm) are not in the fork, nor did any source read
 * name the main commit a tag was cut from; so vLLM gets dates only.
 */
final class VllmRuleSets {

    static final String NO_RELEASE = "no release proven: vLLM's release tags (its version comes from them) are not in the fork "
            + "and no source read names the commit a tag was cut from; ";
    static final String CHOOSE = "; name a commit (prefix), or install from git: direct_url.json's commit then picks the set";

    private static final List<SourceRef> COMMON = List.of(VllmSources.PASS, VllmSources.DEFAULT, VllmSources.PARALLEL,
            VllmSources.MODEL_DCP, VllmSources.CAR, VllmSources.SYMM, VllmSources.FIAR);

    private VllmRuleSets() {
    }

    static Pedigree of(String id) {
        List<SourceRef> s = new ArrayList<>(COMMON);
        switch (id) {
            case "newest" -> s.addAll(List.of(VllmSources.BACKEND_NEW, VllmSources.ENVS_NEW));
            case "older" -> s.addAll(List.of(VllmSources.BACKEND_OLD, VllmSources.DCP_ASSERT_OLD, VllmSources.ENVS_OLD));
            default -> throw new IllegalArgumentException("no vLLM rule set " + id);
        }
        List<Pedigree.File> files = UpstreamReleases.noted(Pedigree.files(s, VllmSources.FORK_DATES));
        return new Pedigree(files, null, null, List.of(), NO_RELEASE + UpstreamReleases.summary(VllmKnobs.FW, files) + CHOOSE);
    }
}
