package dev.fabricscope.advisor.api;

/**
 * A deployment that needs more GPUs than the machine has (TP 3 on one GPU). It says what is short and the three ways
 * out in the words of whoever asks: the CLI's options ({@link Words#CLI}) or the desktop app's fields
 * ({@link Words#GUI}); {@link #getMessage()} is the CLI's.
 */
public final class ImpossibleDeploymentException extends AdvisorInputException {

    /** How the ways out are named: the nodes, TP and what-if settings, and the verb that sets them. */
    public record Words(String give, String nodes, String tp, String assume) {
        /** {@code give --nodes 3 …, a smaller --tp, or --assume gpus-per-node=3}. */
        public static final Words CLI = new Words("give", "--nodes ", "--tp", "--assume ");
        /** {@code set Nodes to 3 …, a smaller TP, or the what-if gpus-per-node=3}. */
        public static final Words GUI = new Words("set", "Nodes to ", "TP", "the what-if ");
    }

    private final String ranks;
    private final boolean tpOnly;
    private final int needed;
    private final int nodes;
    private final int gpusPerNode;
    private final String origin;
    private final boolean assumed;
    private final boolean nodesGiven;

    /**
     * @param ranks       what needs the GPUs, e.g. {@code TP 3} or {@code TP 2 × PCP 2}
     * @param origin      where the GPU count comes from, e.g. {@code captured snapshot}
     * @param assumed     whether the GPU count per node was a what-if
     * @param nodesGiven  whether the node count was asked for (else it is the machine's)
     */
    public ImpossibleDeploymentException(String ranks, boolean tpOnly, int needed, int nodes, int gpusPerNode, String origin,
                                         boolean assumed, boolean nodesGiven) {
        super("impossible deployment: " + text(Words.CLI, ranks, tpOnly, needed, nodes, gpusPerNode, origin, assumed, nodesGiven));
        this.ranks = ranks;
        this.tpOnly = tpOnly;
        this.needed = needed;
        this.nodes = nodes;
        this.gpusPerNode = gpusPerNode;
        this.origin = origin;
        this.assumed = assumed;
        this.nodesGiven = nodesGiven;
    }

    /** What is short and the ways out, named as {@code w} names them (no "impossible deployment:" in front). */
    public String say(Words w) {
        return text(w, ranks, tpOnly, needed, nodes, gpusPerNode, origin, assumed, nodesGiven);
    }

    private static String text(Words w, String ranks, boolean tpOnly, int needed, int nodes, int gpn, String origin, boolean assumed,
                               boolean nodesGiven) {
        String machine = nodes + (nodes == 1 ? " node" : " nodes") + " × " + gpn + " GPU" + (gpn == 1 ? "" : "s");
        String where = assumed ? w.assume() + "gpus-per-node=" + gpn
                : "the " + (origin == null ? "machine" : origin) + " shows " + gpn + " GPU" + (gpn == 1 ? "" : "s") + " per node";
        int nodesNeeded = (needed + gpn - 1) / gpn;
        return ranks + " need" + (tpOnly ? "s " : " ") + needed + " GPUs, but " + machine + " have " + (gpn * nodes) + " (" + where + "); "
                + w.give() + " " + w.nodes() + nodesNeeded + (nodesGiven ? "" : " to span " + nodesNeeded + " such nodes") + ", a smaller "
                + w.tp() + ", or " + w.assume() + "gpus-per-node=" + ((needed + nodes - 1) / nodes) + " to ask about a larger machine like this one";
    }
}
