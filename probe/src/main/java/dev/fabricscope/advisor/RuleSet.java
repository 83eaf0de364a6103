package dev.fabricscope.advisor;

import dev.fabricscope.advisor.rule.Pedigree;
import dev.fabricscope.advisor.rule.RuleVersion;
import java.util.List;

/**
 * One rule set as {@code advise --list-knobs} names it: its id, the releases it is known to match and the upstream
 * files (repository, commit, commit date) its rules follow.
 *
 * @param releases    the release range read ({@code 0.6.17 or later}, {@code no release read})
 * @param tags        the release tags it was read against
 * @param releaseNote how the releases were read, or why none is known
 */
public record RuleSet(String framework, String id, String description, String releases, List<String> tags, String releaseNote,
                      List<Pedigree.File> files) {

    static RuleSet of(RuleVersion v) {
        Pedigree p = v.pedigree();
        return new RuleSet(v.framework(), v.id(), v.description(), p.rangeText(), p.tags(), p.releaseNote(), p.files());
    }

    /** Every framework's rule sets, newest first within each, in registry order. */
    public static List<RuleSet> all() {
        return FrameworkRegistry.all().stream().flatMap(r -> r.versions().stream()).map(v -> RuleSet.of((RuleVersion) v)).toList();
    }

    /** Text lines for a listing (not wrapped): the set, its releases, then one line per file. */
    public List<String> lines() {
        List<String> out = new java.util.ArrayList<>();
        out.add(framework + "=" + id + ": " + description);
        out.add("    releases: " + (tags.isEmpty() && releases.equals("no release read") ? releaseNote
                : releases + (tags.isEmpty() ? "" : "; tags " + String.join(", ", tags)) + " (" + releaseNote + ")"));
        for (Pedigree.File f : files) {
            out.add("    file: " + f.display());
        }
        return out;
    }
}
