package dev.fabricscope.advisor;

import dev.fabricscope.advisor.api.AdvisorInputException;
import dev.fabricscope.advisor.api.MachineFacts;
import dev.fabricscope.advisor.rule.FrameworkRules;
import dev.fabricscope.advisor.rule.RuleVersion;
import dev.fabricscope.advisor.rule.Versions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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

    /** {@code newest} names the first (default) version of every framework. */
    private static RuleVersion pick(FrameworkRules rules, String id) throws AdvisorInputException {
        List<? extends RuleVersion> versions = rules.versions();
        if ("newest".equals(id) || "latest".equals(id)) {
            return versions.get(0);
        }
        for (RuleVersion v : versions) {
            if (v.id().equals(id)) {
                return v;
            }
        }
        throw new AdvisorInputException("unknown " + rules.name() + " version '" + id + "'; valid: "
                + String.join(", ", versions.stream().map(RuleVersion::id).toList()) + " (newest is the default)");
    }

    /**
     * The rule sets for the installed releases where the release is known to carry a behaviour (each framework's
     * {@link FrameworkRules#versionForMachine}), else as given; for an installed Python framework no release→commit
     * mapping is recorded, so its newest rules stay and {@code notes} says so. Frameworks in {@code requested}
     * ({@code --framework-version}) are left as requested.
     */
    static Versions forInstalled(Versions chosen, Map<String, String> requested, MachineFacts facts, Map<String, String> installed,
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
            String version = installed.get(fw);
            if (version == null || req.containsKey(fw)) {
                continue;
            }
            notes.add(fw + " " + version + " installed (read): which rule set that release matches is not recorded "
                    + "(the rules cite commits, not releases), so the newest rules are used; --framework-version " + fw
                    + "=… chooses others");
        }
        return v;
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
