package dev.fabricscope.advisor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.advisor.api.AdvisorInputException;
import dev.fabricscope.advisor.rule.Pedigree;
import dev.fabricscope.advisor.rule.UpstreamReleases;
import dev.fabricscope.advisor.rule.UpstreamReleases.Bump;
import dev.fabricscope.advisor.rule.UpstreamReleases.Proof;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The proven record of the SGLang and vLLM copies (upstream-releases.tsv, sglang-release-bumps.tsv) against the rule sets:
 * every cited file was examined, a set's range rests only on files proven in it, each release listed is a bump commit
 * inside the text's span on main, and a release no set covers is said to lie outside every set with what is proven for it.
 */
class RuleSetReleasesTest {

    private static final List<String> PROVEN = List.of("sglang", "vllm");

    @Test
    void everyCitedFileWasExamined() {
        for (RuleSet s : RuleSet.all()) {
            if (!PROVEN.contains(s.framework())) {
                continue;
            }
            for (Pedigree.File f : s.files()) {
                assertTrue(UpstreamReleases.whole(f.repo(), f.commit(), f.path()).isPresent(),
                        s.framework() + "=" + s.id() + ": no proof row for " + f.display());
            }
        }
    }

    @Test
    void aSetsRangeRestsOnlyOnFilesProvenInIt() {
        for (RuleSet s : RuleSet.all()) {
            if (!PROVEN.contains(s.framework())) {
                continue;
            }
            List<String> every = UpstreamReleases.provenForEvery(s.files());
            Pedigree p = FrameworkRegistry.byName(s.framework()).orElseThrow().versions().stream()
                    .filter(v -> v.id().equals(s.id())).findFirst().orElseThrow().pedigree();
            assertEquals(!every.isEmpty(), p.hasRange(), s.framework() + "=" + s.id());
            for (String r : every) {
                assertTrue(p.covers(r), s.framework() + "=" + s.id() + " proven in " + r + " but its range is " + p.rangeText());
            }
            if (!p.hasRange()) {
                assertTrue(s.releaseNote().startsWith("no release proven"), s.releaseNote());
            }
        }
    }

    @Test
    void eachRowIsOfItsKind() {
        for (Proof p : UpstreamReleases.all()) {
            String row = p.repo() + "@" + p.commit() + " " + p.path() + " " + p.part();
            assertTrue(Pedigree.isCommitPrefix(p.commit()) && p.commit().length() == 40, row);
            switch (p.found()) {
                case "absent" -> assertTrue(p.whole() && p.blob() == null && p.first() == null && p.releases().isEmpty()
                        && (p.chars() != null || p.method().startsWith("path:")), row);
                case "main", "branch" -> assertTrue(p.whole() && p.blob().matches("[0-9a-f]{40}") && p.first() != null, row);
                case "region" -> assertTrue(!p.whole() && p.first() != null && p.replaced() != null, row);
                default -> throw new AssertionError("unknown kind " + p.found() + ": " + row);
            }
        }
    }

    /** A release listed is one whose bump commit falls in the text's span on main, and every such bump is listed. */
    @Test
    void releasesAreTheBumpsInsideTheSpan() {
        List<Bump> bumps = UpstreamReleases.sglangBumps();
        for (Proof p : UpstreamReleases.all()) {
            if (!p.framework().equals("sglang") || p.first() == null || !p.found().matches("main|region")) {
                continue;
            }
            java.time.Instant from = instant(p.first().split(" ")[1]);
            java.time.Instant to = p.replaced() == null ? java.time.Instant.MAX : instant(p.replaced().split(" ")[1]);
            List<String> inside = bumps.stream().filter(b -> !instant(b.date()).isBefore(from) && instant(b.date()).isBefore(to))
                    .map(Bump::release).toList();
            assertEquals(inside, p.releases(), p.file() + "@" + p.commit().substring(0, 8) + " " + p.part());
        }
    }

    @Test
    void aReleaseOutsideEverySetSaysWhatIsProvenForIt() {
        AdvisorInputException mid = assertThrows(AdvisorInputException.class, () -> pick("sglang", "0.5.4"));
        assertTrue(mid.getMessage().contains("Release 0.5.4 lies outside every sglang set's proven range: release 0.5.4 is proven "
                + "to hold engine.py's _set_envs_and_config NCCL lines as set middle follows it (engine.py@ea961060, releases "
                + "0.4.10.post2 … 0.5.4.post1)"), mid.getMessage());
        AdvisorInputException old = assertThrows(AdvisorInputException.class, () -> pick("sglang", "0.4.5"));
        assertTrue(old.getMessage().contains("as set older follows it (engine.py@18bfdd16, releases 0.4.3 … 0.4.10.post1)"),
                old.getMessage());
        AdvisorInputException later = assertThrows(AdvisorInputException.class, () -> pick("sglang", "0.5.6"));
        assertTrue(later.getMessage().endsWith("Release 0.5.6 lies outside every sglang set's proven range; nothing of its files "
                + "is proven for it"), later.getMessage());
        AdvisorInputException v = assertThrows(AdvisorInputException.class, () -> pick("vllm", "0.11.0"));
        assertTrue(v.getMessage().endsWith("nothing of its files is proven for it"), v.getMessage());
        AdvisorInputException notRelease = assertThrows(AdvisorInputException.class, () -> pick("sglang", "oldest"));
        assertTrue(!notRelease.getMessage().contains("lies outside"), notRelease.getMessage());
    }

    @Test
    void aFileNotInTheForkSaysSo() {
        Pedigree.File f = FrameworkRegistry.byName("sglang").orElseThrow().versions().stream().filter(v -> v.id().equals("older")).findFirst()
                .orElseThrow().pedigree().files().stream()
                .filter(x -> x.commit().startsWith("18bfdd16")).findFirst().orElseThrow();
        assertEquals(null, f.date());
        assertEquals("not in mmangkad-dev/sglang (all refs; main up to 2026-08-16): no version of the path has its 22200 characters",
                f.dateNote());
    }

    private static String pick(String fw, String what) throws AdvisorInputException {
        return VersionChoice.resolve(Map.of(fw, what)).id(fw);
    }

    private static java.time.Instant instant(String iso) {
        return java.time.OffsetDateTime.parse(iso).toInstant();
    }
}
