package dev.fabricscope.usecase;

import dev.fabricscope.advisor.api.AdviceResult;
import dev.fabricscope.advisor.Advisor;
import dev.fabricscope.advisor.api.AdvisorInputException;
import dev.fabricscope.advisor.api.FactKey;
import dev.fabricscope.advisor.Options;
import dev.fabricscope.cluster.ClusterFacts;
import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.model.MachineSnapshot;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which all-reduce and communication backends work for a deployment on a machine, or over the nodes of a cluster
 * folder: {@code fabricscope advise}, the app's Advisor tab and every report's verdicts.
 */
public final class Advise {

    /**
     * @param machine    the machine advised; for a cluster, null (its representative node is read)
     * @param cluster    the cluster the deployment spans ({@link InspectCluster#factsFor}), or null for one machine
     * @param deployment what is planned
     */
    public record Request(MachineSnapshot machine, ClusterFacts cluster, DeploymentRequest deployment) {
        public static Request of(MachineSnapshot machine, DeploymentRequest deployment) {
            return new Request(machine, null, deployment);
        }

        public static Request overCluster(ClusterFacts cluster, DeploymentRequest deployment) {
            return new Request(null, cluster, deployment);
        }
    }

    /**
     * @param machine    the machine advised (for a cluster: its representative node)
     * @param deployment the deployment advised (for a cluster: with the cluster's facts merged in)
     * @param advice     verdicts, recommendations, the effective facts; {@code blocked()} when none could be given
     * @param cluster    one line about the cluster the deployment spans, or null
     * @param predicted  the predicted all-reduce cost beside each recommendation ({@link RecommendedCost})
     */
    public record Result(MachineSnapshot machine, DeploymentRequest deployment, AdviceResult advice, String cluster,
                         RecommendedCost.Costs predicted) {

        /** Whether no verdict could be given because the machine shows no NVIDIA driver or GPU. */
        public boolean blockedForLackOfDriver() {
            return advice.blocked() != null && (machine == null || machine.driver() == null || !machine.driver().driverPresent()
                    || machine.gpus().isEmpty());
        }

        /** The advice as JSON (a tree of maps and lists), with the cluster line when there is one and the predicted costs. */
        public Map<String, Object> jsonTree() {
            Map<String, Object> tree = new LinkedHashMap<>(advice.toJsonTree());
            if (cluster != null) {
                tree.put("cluster", cluster);
            }
            if (advice.blocked() == null) {
                tree.put("predicted", predicted.jsonTree());
            }
            return tree;
        }
    }

    /** Framework names the advisor knows. */
    public List<String> frameworks() {
        return Options.FRAMEWORKS;
    }

    /** Valid what-if keys ({@code --assume KEY=VALUE}). */
    public List<String> assumeKeys() {
        return FactKey.keys();
    }

    /**
     * Advises. A deployment the advisor rejects (unknown flag, impossible size) is {@code INVALID_REQUEST}; a cluster
     * node report that cannot be read is {@code UNREADABLE_INPUT}. A machine the advisor cannot judge is not an
     * exception: the result is {@code blocked}.
     */
    public Result advise(Request request) throws UseCaseException {
        MachineSnapshot machine = request.machine();
        DeploymentRequest d = request.deployment();
        String clusterLine = null;
        if (request.cluster() != null) {
            try {
                machine = request.cluster().representative().readSnapshot(OpenSnapshot.TRACES); // a cluster view holds summaries only
            } catch (SnapshotIO.ReadException e) {
                throw UseCaseException.unreadable(e.getMessage(), e);
            }
            d = d.overCluster(request.cluster());
            clusterLine = request.cluster().summary();
        }
        AdviceResult advice;
        try {
            advice = Advisor.advise(machine, d.deployment(), d.options());
        } catch (AdvisorInputException e) {
            throw UseCaseException.invalid(e.getMessage(), e);
        }
        return new Result(machine, d, advice, clusterLine, RecommendedCost.of(machine, d, advice));
    }
}
