package dev.fabricscope.advisor;

import dev.fabricscope.advisor.api.AdvisorInputException;
import dev.fabricscope.advisor.api.MachineFacts;
import dev.fabricscope.advisor.rule.FrameworkRules;
import dev.fabricscope.advisor.rule.Pedigree;
import dev.fabricscope.advisor.rule.RuleVersion;
import dev.fabricscope.advisor.rule.UpstreamReleases;
import dev.fabricscope.advisor.rule.Versions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Which rule-set version applies per framework: {@code --framework-version NAME=VERSION}, the machine, else the newest. */
final class VersionChoice {

    private VersionChoice() {
    }

    static Versions newest() {
        return new Versions(FrameworkRegistry.all().stream().map(r -> (RuleVersion) r.versions().get(0)).toList());
    }

    static Versions resolve(Map<String, String> requested) throws AdvisorInputException {
        Versions v = newest();
        if (requested == null) {
            return v;
        }
        for (Map.Entry<String, String> e : requested.entrySet()) {
            FrameworkRules rules = FrameworkRegistry.byName(e.getKey()).orElse(null);
            if (rules == null) {
                throw new AdvisorInputException("unknown framework '" + e.getKey() + "' in --framework-version; valid: "
                        + String.join(", ", FrameworkRegistry.names()));
            }
            v = v.with(pick(rules, e.getValue()));
        }
        return v;
    }

    /**
     * {@code newest} (or {@code latest}) names the first (default) version; otherwise a set's id ({@code middle},
     * {@code older}, …), a release it covers ({@code 0.6.17}) or a prefix of a commit it was read at.
     */
    static RuleVersion pick(FrameworkRules rules, String id) throws AdvisorInputException {
        List<? extends RuleVersion> versions = rules.versions();
        if ("newest".equals(id) || "latest".equals(id)) {
            return versions.get(0);
        }
        for (RuleVersion v : versions) {
            if (v.id().equals(id)) {
                return v;
            }
        }
        for (RuleVersion v : versions) {
            if (Pedigree.isCommitPrefix(id) && v.pedigree().hasCommit(id)) {
                return v;
            }
        }
        if (Pedigree.isRelease(id)) {
            for (RuleVersion v : versions) {
                if (v.pedigree().covers(id)) {
                    return v;
                }
            }
        }
        throw new AdvisorInputException("unknown " + rules.name() + " version '" + id + "'; known: " + known(rules)
                + " (by default the set covering the version the machine reports, else newest; --list-knobs lists each set's files)" + outsideEvery(rules, id));
    }

    /** Each set's id with the releases it covers, where read, and its commits. */
    private static String known(FrameworkRules rules) {
        List<String> out = new ArrayList<>();
        for (RuleVersion v : rules.versions()) {
            Pedigree p = v.pedigree();
            List<String> commits = p.files().stream().map(Pedigree.File::commit).filter(c -> c != null).map(c -> c.substring(0, 8))
                    .distinct().toList();
            out.add(v.id() + " (releases " + p.rangeText() + (commits.isEmpty() ? "" : "; commits " + String.join(" ", commits)) + ")");
        }
        return String.join(", ", out);
    }

    /**
     * A framework as the stack probe read it.
     *
     * @param version the distribution's release ({@code METADATA Version:})
     * @param commit  the git commit of a source install ({@code direct_url.json}), or null
     */
    record Installed(String version, String commit) {

        Installed(String version) {
            this(version, null);
        }

        /** {@code 0.5.6}, or {@code 0.5.6 (source install at abcdef12, direct_url.json)}. */
        String display() {
            return version + (commit == null ? "" : " (source install at " + commit.substring(0, Math.min(8, commit.length())) + ", direct_url.json)");
        }
    }

    /**
     * The rule sets for the installed releases where the release is known to carry a behaviour (each framework's
     * {@link FrameworkRules#versionForMachine}), else as given. An installed framework picks the set whose range
     * covers its release or, for a source install, the set read at its commit ({@code direct_url.json}); one outside
     * every set keeps the newest rules and {@code notes} says so. Frameworks in {@code requested}
     * ({@code --framework-version}) are left as requested.
     */
    static Versions forInstalled(Versions chosen, Map<String, String> requested, MachineFacts facts, Map<String, Installed> installed,
                                 List<String> notes) {
        Versions v = chosen;
        Map<String, String> req = requested == null ? Map.of() : requested;
        for (FrameworkRules rules : FrameworkRegistry.all()) {
            if (!req.containsKey(rules.name())) {
                v = rules.versionForMachine(facts, notes).map(v::with).orElse(v);
            }
        }
        for (FrameworkRules rules : FrameworkRegistry.all()) {
            String fw = rules.name();
            Installed inst = installed.get(fw);
            if (inst == null || req.containsKey(fw)) {
                continue;
            }
            Optional<RuleVersion> byCommit = inst.commit() == null ? Optional.empty() : matching(rules, inst.commit());
            Optional<RuleVersion> match = byCommit.isPresent() ? byCommit : matching(rules, inst.version());
            if (match.isPresent()) {
                v = v.with(match.get());
                notes.add(fw + " " + inst.display() + " installed (read): rules " + match.get().id() + (byCommit.isPresent()
                        ? " (read at that commit)" : " (releases " + match.get().pedigree().rangeText() + ")"));
            } else if (inst.commit() != null) {
                notes.add(fw + " " + inst.display() + " installed (read): outside every modelled rule set, whose commits are "
                        + String.join("; ", rules.versions().stream().map(x -> x.id() + " " + commits(x.pedigree())).toList())
                        + "; newest rules used");
            } else if (rules.versions().stream().anyMatch(x -> x.pedigree().hasRange())) {
                notes.add(fw + " " + inst.display() + " installed (read): " + outside(rules, inst.version()) + " every modelled rule set ("
                        + String.join(", ", rules.versions().stream().filter(x -> x.pedigree().hasRange())
                        .map(x -> x.id() + " " + x.pedigree().rangeText()).toList()) + "); newest rules used");
            } else {
                notes.add(fw + " " + inst.display() + " installed (read): which rule set that release matches is not recorded "
                        + "(no set's files are all proven in a release: --list-knobs says what is), so the newest rules are used; "
                        + "--framework-version " + fw + "=… chooses others" + outsideEvery(rules, inst.version()));
            }
        }
        return v;
    }

    /**
     * For a release no set covers: that it lies outside every set, and what is proven for it (UpstreamReleases: the
     * files or lines of a set that release is proven to hold); empty for an id that is not a release.
     */
    private static String outsideEvery(FrameworkRules rules, String id) {
        if (!Pedigree.isRelease(id)) {
            return "";
        }
        String proven = UpstreamReleases.provenFor(rules.versions(), id);
        return ". Release " + id + " lies outside every " + rules.name() + " set's proven range" + (proven.isEmpty()
                ? "; nothing of its files is proven for it" : ": " + proven);
    }

    /** A set's commits, 8 digits each, space-separated. */
    private static String commits(Pedigree p) {
        List<String> c = p.files().stream().map(Pedigree.File::commit).filter(x -> x != null).map(x -> x.substring(0, 8)).distinct().toList();
        return c.isEmpty() ? "(none recorded)" : String.join(" ", c);
    }

    /** The set covering an installed release, or the set one of whose commits the installed commit starts with. */
    static Optional<RuleVersion> matching(FrameworkRules rules, String installed) {
        for (RuleVersion x : rules.versions()) {
            if (x.pedigree().covers(installed) || Pedigree.isCommitPrefix(installed) && x.pedigree().hasCommit(installed)) {
                return Optional.of(x);
            }
        }
        return Optional.empty();
    }

    /** "older than" or "newer than" (or "outside", for a version that is not a release) every set with a range. */
    private static String outside(FrameworkRules rules, String version) {
        if (!Pedigree.isRelease(version)) {
            return "not a release, so outside";
        }
        boolean older = rules.versions().stream().map(RuleVersion::pedigree).filter(Pedigree::hasRange)
                .allMatch(p -> p.from() != null && Pedigree.compare(version, p.from()) < 0);
        boolean newer = rules.versions().stream().map(RuleVersion::pedigree).filter(Pedigree::hasRange)
                .allMatch(p -> p.before() != null && Pedigree.compare(version, p.before()) >= 0);
        return older ? "older than" : newer ? "newer than" : "outside";
    }

    /** Every valid {@code NAME=VERSION}, with what each version models, for help text. */
    static List<String> describeAll() {
        List<String> out = new ArrayList<>();
        for (FrameworkRules rules : FrameworkRegistry.all()) {
            rules.versions().forEach(x -> out.add(rules.name() + "=" + x.id() + ": " + x.description()));
        }
        return out;
    }
}
