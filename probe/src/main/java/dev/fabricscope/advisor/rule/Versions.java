package dev.fabricscope.advisor.rule;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The rule-set version applied per framework, one per framework in registry order ({@link VersionChoice} picks them). */
public record Versions(List<RuleVersion> chosen) {

    public Versions {
        chosen = List.copyOf(chosen);
    }

    /** The chosen version of the framework whose version record is {@code type}. */
    public <V extends RuleVersion> V get(Class<V> type) {
        for (RuleVersion v : chosen) {
            if (type.isInstance(v)) {
                return type.cast(v);
            }
        }
        throw new IllegalStateException("no rule-set version of type " + type.getSimpleName());
    }

    /** With {@code version} replacing the chosen version of its framework. */
    public Versions with(RuleVersion version) {
        return new Versions(chosen.stream().map(v -> v.framework().equals(version.framework()) ? version : v).toList());
    }

    /** Framework → version id, in registry order. */
    public Map<String, String> ids() {
        Map<String, String> m = new LinkedHashMap<>();
        chosen.forEach(v -> m.put(v.framework(), v.id()));
        return m;
    }

    public String id(String framework) {
        return ids().get(framework);
    }
}
