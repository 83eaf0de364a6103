package dev.fabricscope.predict;

import static dev.fabricscope.predict.NcclConstants.*;

import java.util.ArrayList;
import java.util.List;

/**
 * NCCL's all-reduce cost model ({@code ncclTopoTuneModel} and {@code ncclTopoGetAlgoTime} of tuning.cc), for Ring and
 * Tree × LL/LL128/Simple, and NVLS. One simplification: NCCL's channel count comes from its graph search; here the
 * channels together carry the GPU's total link bandwidth (the search's goal, search.cc l.1198) and the per-channel
 * caps ({@code perChMax*}) are taken not to bind (they bind only below about 10 channels on Hopper).
 */
final class NcclModel {
    private NcclModel() {
    }

    /** The GPU's total bandwidth as NCCL's topology sees it: links × SMxx_NVLINK_BW, or the PCIe link. */
    static Double totalBw(Fabric f) {
        if (f.nvlink()) {
            return f.nvlinks() * nvlinkBw(f.smTimes10());
        }
        return f.pcieGBps();
    }

    static Terms terms(Fabric f, long bytes) {
        Double intra = totalBw(f);
        if (intra == null) {
            return Terms.none("no NVLink or PCIe bandwidth read");
        }
        if (f.nodes() > 1) {
            return Terms.none("across nodes NCCL's model needs the network's bandwidth per GPU, which is not modelled");
        }
        boolean nvl = f.nvlink();
        int n = f.worldSize();
        int nsteps = 2 * (n - 1);
        int cc = ccIndex(f.smTimes10());
        double llMaxBw = LL_MAX_BW[cc][0];
        double[] hwRing = nvl ? HW_LAT_NVLINK_RING : HW_LAT_PCI_RING;
        double[] hwTree = nvl ? HW_LAT_NVLINK_TREE : HW_LAT_PCI_TREE;
        List<Term> out = new ArrayList<>();
        int logSize = log2(bytes >> 6);
        for (int p = 0; p < 3; p++) {
            if (p == 1 && (!nvl || f.smTimes10() < 70)) {
                continue; // LL128 only up to NVB paths (l.531) and from SM70 (l.534)
            }
            // Ring (l.327-329, ratio l.379, latency l.393-413)
            double ring = intra;
            if (p == 0) ring = Math.min(llMaxBw, ring * .5);
            if (p == 1) ring = ring * 0.92;
            ring *= (double) n / nsteps;
            out.add(new Term("Ring " + PROTOCOLS[p], BASE_LAT_RING[p] + nsteps * hwRing[p], ring));
            // Tree (l.330-335, ratio .5 l.380, latency l.416, correction l.640-641)
            double tree = intra * .92;
            if (p == 0) tree = Math.min(tree / 3.8, llMaxBw);
            if (p == 1) tree = tree * 7.0 / 9.0;
            tree *= .5;
            if (logSize >= 0 && logSize < 23) tree *= TREE_CORRECTION[p][logSize];
            out.add(new Term("Tree " + PROTOCOLS[p], BASE_LAT_TREE[p] + 2 * (n - 1) * hwTree[p], tree));
        }
        return new Terms(out, null, List.of(BASE_LAT_SRC, nvl ? HW_LAT_NVLINK_SRC : HW_LAT_PCI_SRC, BW_CAPS_SRC,
                COMPOSITION_SRC, TREE_CORRECTION_SRC, TIME_SRC, nvl ? NVLINK_BW_SRC : Fabric.PCIE_SRC, SEARCH_SRC));
    }

    /** NVLS (Simple only): NVSwitch multicast on Hopper and later, one node (l.301, 307-323, 424-426, 502-506). */
    static Terms nvls(Fabric f) {
        if (!f.multicast() || !f.nvswitch() || !f.nvlink() || f.smTimes10() < 90) {
            return Terms.none("NVLS needs NVSwitches with CUDA multicast on SM 9.0 or later; the snapshot shows "
                    + (f.multicast() ? "" : "no multicast, ") + (f.nvswitch() ? "" : "no NVSwitch, ") + "SM " + f.smTimes10() / 10.0);
        }
        if (f.nodes() > 1) {
            return Terms.none("NVLS across nodes needs CollNet (NVLS Tree); not modelled");
        }
        int n = f.worldSize();
        int channels = Math.min(32, n);
        double eff = NVLS_EFFICIENCY[ccIndex(f.smTimes10())];
        double bus = totalBw(f) * eff * (channels - 1) / channels * 2.0;
        double alg = bus * n / (2.0 * (n - 1));
        return new Terms(List.of(new Term("NVLS Simple", HW_LAT_NVLS_SIMPLE, alg)), null,
                List.of(HW_LAT_NVLS_SRC, NVLS_SRC, NVLS_EFFICIENCY_SRC, NVLS_CHANNELS_SRC, NVLINK_BW_SRC));
    }

    static int log2(long v) {
        return v <= 0 ? -1 : 63 - Long.numberOfLeadingZeros(v);
    }
}
