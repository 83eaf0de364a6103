package dev.fabricscope.advisor;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How to advise.
 *
 * @param frameworks which frameworks to advise (sglang, vllm, flashinfer, nccl); empty means all
 * @param versions   framework → rule-set version ({@code --framework-version}); missing means the newest
 * @param assume     machine facts to assume ({@code --assume KEY=VALUE}), overriding the snapshot
 */
public record Options(List<String> frameworks, Map<String, String> versions, Map<String, String> assume) {

    /** Every framework the advisor has rules for, in the order it advises them. */
    public static final List<String> FRAMEWORKS = FrameworkRegistry.names();

    public Options {
        frameworks = frameworks == null ? List.of() : List.copyOf(frameworks);
        versions = versions == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(versions));
        assume = assume == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(assume));
    }

    /** Every valid {@code NAME=VERSION} with what it models. */
    public static List<String> describeVersions() {
        return VersionChoice.describeAll();
    }

    public static Options defaults() {
        return new Options(List.of(), Map.of(), Map.of());
    }

    public Options withAssume(String key, String value) {
        Map<String, String> a = new LinkedHashMap<>(assume);
        if (value == null) {
            a.remove(key);
        } else {
            a.put(key, value);
        }
        return new Options(frameworks, versions, a);
    }

    public Options withVersion(String framework, String version) {
        Map<String, String> v = new LinkedHashMap<>(versions);
        v.put(framework, version);
        return new Options(frameworks, v, assume);
    }

    public Options withFrameworks(List<String> fws) {
        return new Options(fws, versions, assume);
    }
}
