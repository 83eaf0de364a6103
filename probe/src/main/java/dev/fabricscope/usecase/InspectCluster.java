package dev.fabricscope.usecase;

import dev.fabricscope.cluster.ClusterAnalysis;
import dev.fabricscope.cluster.ClusterFacts;
import dev.fabricscope.cluster.ClusterNode;
import dev.fabricscope.cluster.read.ClusterReader;
import dev.fabricscope.cluster.ClusterView;
import dev.fabricscope.cluster.NodeCheckSummary;
import dev.fabricscope.cluster.read.NodeCheckReader;
import dev.fabricscope.cluster.NodeJudge;
import dev.fabricscope.model.Finding;
import dev.fabricscope.topology.SnapshotAnalyzer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * A folder of node reports ({@code cluster collect}) read and merged: NVLink domains, what differs between nodes, the
 * nodes whose {@code check node} failed, and the cluster's facts for advising a deployment over it. What
 * {@code cluster show}, {@code advise --cluster} and the app's cluster page share.
 */
public final class InspectCluster {

    /**
     * @param dir        the folder
     * @param nodeChecks also read each node's {@code check node} results (the CLI and the app's cluster page list the
     *                   nodes whose check failed)
     * @param progress   files read so far, or null
     */
    public record Request(Path dir, boolean nodeChecks, ClusterReader.Progress progress) {
        public static Request of(Path dir) {
            return new Request(dir, true, null);
        }
    }

    /**
     * @param view         the merged view
     * @param facts        the facts for advising over every readable node, or null when there is none
     * @param factsProblem why {@code facts} is null, or null
     */
    public record Result(ClusterView view, ClusterFacts facts, String factsProblem) {
    }

    /**
     * Each node judged by itself as {@code show} judges it, from what its summary holds: the driver rules and every
     * GPU's fabric rules of {@link SnapshotAnalyzer}.
     */
    public static final NodeJudge JUDGE = s -> {
        List<Finding> out = new java.util.ArrayList<>(SnapshotAnalyzer.driverFindings(s.driver(), s.gpus().size()));
        for (int i = 0; i < s.gpus().size(); i++) {
            out.addAll(SnapshotAnalyzer.fabricFindings(s.gpus().get(i).fabric(), "GPU" + i));
        }
        return out;
    };

    /** Reads and merges the folder; a folder that cannot be listed is {@link UseCaseException.Reason#UNREADABLE_INPUT}. */
    public Result open(Request request) throws UseCaseException {
        List<ClusterNode> nodes;
        try {
            nodes = ClusterReader.read(request.dir(), request.progress() == null ? (read, total) -> { } : request.progress(),
                    OpenSnapshot.TRACES);
        } catch (IOException e) {
            throw UseCaseException.unreadable(e.getMessage(), e);
        }
        ClusterView view = ClusterAnalysis.analyse(request.dir().toString(), nodes, JUDGE);
        if (request.nodeChecks()) {
            view = NodeCheckReader.attach(view);
        }
        ClusterFacts facts = null;
        String problem = null;
        try {
            facts = ClusterFacts.of(view, null);
        } catch (IllegalArgumentException e) {
            problem = e.getMessage();
        }
        return new Result(view, facts, problem);
    }

    /**
     * The facts for a deployment over {@code nodes} of the cluster's readable nodes (null: all of them).
     *
     * @throws UseCaseException {@code INVALID_REQUEST} for a node count the folder cannot give, {@code UNREADABLE_INPUT}
     *                          when no node report is readable
     */
    public ClusterFacts factsFor(ClusterView view, Integer nodes) throws UseCaseException {
        if (nodes != null && (nodes < 1 || nodes > view.readable().size())) {
            throw UseCaseException.invalid("--nodes " + nodes + " but the cluster folder has " + view.readable().size()
                    + " readable node report(s)", null);
        }
        try {
            return ClusterFacts.of(view, nodes);
        } catch (IllegalArgumentException e) {
            throw UseCaseException.unreadable(e.getMessage(), e);
        }
    }
}
