package dev.fabricscope.report;

import dev.fabricscope.check.api.P2pResult;
import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.NvLinkSignals;
import dev.fabricscope.render.SignalText;
import dev.fabricscope.topology.FabricVerdict;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A report's "links up, fabric up?" verdicts (issue 24): the snapshot's readings and, when the report holds a P2P
 * check, each GPU's best measured copy against its links' rated speed. Also the rows of the NVLink-signals table the
 * Markdown and HTML reports share.
 */
public final class ReportVerdicts {

    private ReportVerdicts() {
    }

    public static List<FabricVerdict> of(Report r) {
        return FabricVerdict.of(r.snapshot(), measured(r));
    }

    /**
     * Per snapshot GPU index, its fastest one-direction copy to a peer in the report's P2P check (pairs name CUDA
     * ordinals: joined to the snapshot's GPUs by {@link Gpu#cudaOrdinal()}).
     */
    static Map<Integer, FabricVerdict.Measured> measured(Report r) {
        MachineSnapshot s = r.snapshot();
        Map<Integer, Integer> byOrdinal = new HashMap<>();
        for (int i = 0; i < s.gpus().size(); i++) {
            Integer ord = s.gpus().get(i).cudaOrdinal().value();
            if (ord != null) {
                byOrdinal.put(ord, i);
            }
        }
        Map<Integer, FabricVerdict.Measured> out = new HashMap<>();
        for (ReportChecks.Entry e : r.checks().results()) {
            if (!(e.typed() instanceof P2pResult p2p)) {
                continue;
            }
            for (P2pResult.Pair p : p2p.pairs()) {
                Integer src = byOrdinal.get(p.src());
                Integer dst = byOrdinal.get(p.dst());
                if (src == null || dst == null || p.uniGBps() == null) {
                    continue;
                }
                double gbps = p.uniGBps();
                FabricVerdict.Measured best = out.get(src);
                if (best == null || gbps > best.uniGBps()) {
                    out.put(src, new FabricVerdict.Measured(gbps, "GPU" + src + " → GPU" + dst));
                }
            }
        }
        return out;
    }

    /** Column heads of the signals table. */
    public static final String[] SIGNAL_HEADS = {"GPU", "System BW", "BW mode", "Modes", "NVLE", "NVLink firmware", "GFM",
        "Cliques (v4)", "Link states", "Effective BER", "FM version"};

    /** One row per GPU of the signals table. */
    public static List<String[]> signalRows(MachineSnapshot s) {
        List<String[]> rows = new ArrayList<>();
        for (int i = 0; i < s.gpus().size(); i++) {
            NvLinkSignals sig = s.gpus().get(i).signals();
            rows.add(new String[] {"GPU" + i, SignalText.cell(sig.systemBwMode(), String::valueOf), SignalText.bwMode(sig.bwMode()),
                SignalText.list(sig.supportedBwModes()), SignalText.nvle(sig.nvle()), SignalText.list(sig.firmware()),
                SignalText.cell(sig.gfmState(), String::valueOf), SignalText.list(sig.fabricCliques()), SignalText.linkStates(sig),
                SignalText.ber(sig, false), SignalText.cell(s.node().fabricManagerVersion(), String::valueOf)});
        }
        return rows;
    }
}
