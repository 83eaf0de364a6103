package dev.fabricscope.topology;

import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.Nic;
import dev.fabricscope.model.Reading;
import java.util.ArrayList;
import java.util.List;

/** Where an RDMA adapter sits relative to the GPUs, and its ports in one line; shared by the node check and the text view. */
public final class NicPlacement {

    private NicPlacement() {
    }

    /** Each port as {@code port: state, rate}, joined by {@code ; }, or {@code none}. */
    public static String ports(Nic nic) {
        List<String> out = new ArrayList<>();
        for (Nic.Port p : nic.ports()) {
            out.add(p.port() + ": " + p.state().shortDisplay() + (p.rate().isPresent() ? ", " + p.rate().value() : ""));
        }
        return out.isEmpty() ? "none" : String.join("; ", out);
    }

    /** The GPUs closest to the NIC by topo -m letter (PIX first), e.g. {@code GPU0 (PIX)}. */
    public static String nearestGpu(MachineSnapshot s, Nic nic) {
        List<String> order = List.of("PIX", "PXB", "PHB", "NODE", "SYS");
        int best = order.size();
        List<String> who = new ArrayList<>();
        for (int i = 0; i < s.gpus().size(); i++) {
            Reading<String> l = PcieTopology.gpuToNic(s, s.gpus().get(i), nic);
            int rank = l.isPresent() ? order.indexOf(l.value()) : -1;
            if (rank < 0) {
                continue;
            }
            if (rank < best) {
                best = rank;
                who.clear();
            }
            if (rank == best) {
                who.add("GPU" + i);
            }
        }
        return who.isEmpty() ? "?" : String.join(",", who) + " (" + order.get(best) + ")";
    }
}
