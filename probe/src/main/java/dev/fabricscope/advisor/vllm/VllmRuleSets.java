package dev.fabricscope.advisor.vllm;

import dev.fabricscope.advisor.api.SourceRef;
import dev.fabricscope.advisor.rule.Pedigree;
import java.util.ArrayList;
import java.util.List;

/**
 * What each vLLM rule set was read from. Its releases are not known: the mirror is larger than fetch brings, vLLM's
 * version comes from setuptools-scm (git tags) and the stored index shows neither tags nor dates.
 */
final class VllmRuleSets {

    static final String NO_RELEASE = "no release read: the rules cite commits of the stored index, which gives no dates "
            + "and no tags (vLLM's version comes from its git tags); name a commit (prefix), or install from git: "
            + "direct_url.json's commit then picks the set";

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
        return new Pedigree(Pedigree.files(s, VllmSources.FORK_DATES), null, null, List.of(), NO_RELEASE);
    }
}
