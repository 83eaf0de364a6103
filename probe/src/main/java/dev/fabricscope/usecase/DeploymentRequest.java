package dev.fabricscope.usecase;

import dev.fabricscope.advisor.api.Deployment;
import dev.fabricscope.advisor.Options;
import dev.fabricscope.cluster.ClusterFacts;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A planned deployment and how to advise it, as {@code fabricscope advise} and {@code report} take it and as the
 * desktop app's deployment panel fills it in: one type for both. A null number is not given (the advisor derives it
 * from the machine and says so); empty frameworks mean all of them.
 *
 * @param flags    framework flags without dashes, config keys, library arguments ({@code --flag NAME=VALUE})
 * @param env      environment variables ({@code --env})
 * @param assume   what-if machine facts ({@code --assume})
 * @param versions rule-set versions by framework ({@code --framework-version}); missing means the newest
 */
public record DeploymentRequest(List<String> frameworks, Integer tp, Integer nodes, Integer dcp, String model, Integer tokens,
                                Map<String, String> flags, Map<String, String> env, Map<String, String> assume,
                                Map<String, String> versions) {

    /** Nothing given: advise every framework for the machine as it is. */
    public static final DeploymentRequest NONE = new DeploymentRequest(List.of(), null, null, null, null, null, Map.of(), Map.of(),
            Map.of(), Map.of());

    public DeploymentRequest {
        frameworks = frameworks == null ? List.of() : List.copyOf(frameworks);
        flags = ordered(flags);
        env = ordered(env);
        assume = ordered(assume);
        versions = ordered(versions);
    }

    private static Map<String, String> ordered(Map<String, String> m) {
        return m == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(m));
    }

    /** The deployment as the advisor takes it. */
    public Deployment deployment() {
        return new Deployment(tp, nodes, dcp, model, tokens, flags, env);
    }

    /** Frameworks, rule-set versions and assumptions as the advisor takes them. */
    public Options options() {
        return new Options(frameworks, versions, assume);
    }

    /** Whether anything was given. */
    public boolean given() {
        return !equals(NONE);
    }

    public DeploymentRequest withNodes(Integer n) {
        return new DeploymentRequest(frameworks, tp, n, dcp, model, tokens, flags, env, assume, versions);
    }

    public DeploymentRequest withAssume(Map<String, String> a) {
        return new DeploymentRequest(frameworks, tp, nodes, dcp, model, tokens, flags, env, a, versions);
    }

    /**
     * This deployment spread over a cluster folder's nodes, as {@code advise --cluster} and the app's cluster page
     * advise it: the cluster's facts become assumptions (what this request assumes itself wins), and the node count
     * is the cluster's when none was given.
     */
    public DeploymentRequest overCluster(ClusterFacts cluster) {
        Map<String, String> merged = new LinkedHashMap<>(cluster.assumptions());
        merged.putAll(assume);
        return withAssume(merged).withNodes(nodes != null ? nodes : cluster.nodesUsed());
    }

    /**
     * The options of {@code fabricscope advise} and {@code report} that give this deployment, in the order their help
     * lists them: {@code --framework}, {@code --tp}, {@code --nodes}, {@code --dcp}, {@code --model}, {@code --tokens},
     * {@code --flag}, {@code --env}, {@code --assume}, {@code --framework-version}.
     */
    public List<String> arguments() {
        List<String> args = new ArrayList<>();
        frameworks.forEach(f -> args.addAll(List.of("--framework", f)));
        option(args, "--tp", tp);
        option(args, "--nodes", nodes);
        option(args, "--dcp", dcp);
        option(args, "--model", model);
        option(args, "--tokens", tokens);
        pairs(args, "--flag", flags);
        pairs(args, "--env", env);
        pairs(args, "--assume", assume);
        pairs(args, "--framework-version", versions);
        return args;
    }

    private static void option(List<String> args, String name, Object value) {
        if (value != null) {
            args.addAll(List.of(name, String.valueOf(value)));
        }
    }

    private static void pairs(List<String> args, String name, Map<String, String> values) {
        values.forEach((k, v) -> args.addAll(List.of(name, k + "=" + v)));
    }
}
