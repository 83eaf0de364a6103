package dev.fabricscope.predict;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Predicted all-reduce time per backend from a machine's fabric: every backend is one or more alpha-beta terms
 * ({@code latency + bytes / bandwidth}) and the fastest term is the backend's time, as NCCL's tuner picks the fastest
 * algorithm × protocol ({@code ncclTopoGetAlgoTime}, {@link NcclConstants#TIME_SRC}).
 */
public final class CostModel {
    private CostModel() {
    }

    /** Whose kernels a one-shot / two-shot backend runs: the published figures differ by implementation. */
    public enum Kernels { FABRICSCOPE, SGLANG, VLLM, FLASHINFER, TORCH, NCCL }

    public static Terms terms(Backend b, Kernels k, Fabric f, long bytes) {
        int n = f.worldSize();
        if (n < 2) {
            return Terms.none("no all-reduce between GPUs at TP " + n);
        }
        return switch (b) {
            case NCCL -> NcclModel.terms(f, bytes);
            case NVLS -> NcclModel.nvls(f);
            case ONESHOT, TWOSHOT -> custom(b == Backend.ONESHOT, k, f);
            case TRTLLM, MNNVL -> flashinfer(b, f);
            case SYMM_MEM -> symmMem(f);
        };
    }

    /** Peer-read bandwidth per GPU per direction, GB/s: NVLink within a node, else PCIe; null when neither was read. */
    static Double peerRead(Fabric f) {
        Double line = f.nvlink() ? f.nvlinkGBps() : f.pcieGBps();
        return line == null ? null : line * Specs.READ_EFFICIENCY.value();
    }

    static double hop(Fabric f) {
        return f.nvlink() ? Specs.HOP_NVLINK.value() : Specs.HOP_PCI.value();
    }

    private static String intraNodeOnly(Fabric f) {
        if (f.nodes() > 1) {
            return "a peer-memory kernel within one node; the deployment spans " + f.nodes() + " nodes";
        }
        if (peerRead(f) == null) {
            return "no NVLink or PCIe bandwidth read";
        }
        return null;
    }

    /**
     * One-shot: every rank reads all peers' inputs, (n-1)·S over its links, after one flag exchange. Two-shot:
     * reduce-scatter then all-gather, 2(n-1)/n·S, after two.
     */
    static Terms custom(boolean oneShot, Kernels k, Fabric f) {
        String why = intraNodeOnly(f);
        if (why != null) {
            return Terms.none(why);
        }
        int n = f.worldSize();
        double read = peerRead(f);
        double remote = oneShot ? (n - 1) : 2.0 * (n - 1) / n; // bytes over the links per byte of input
        double barrier = (oneShot ? 2 : 4) * hop(f);
        List<String> src = new ArrayList<>(List.of(Specs.READ_EFFICIENCY.source(), (f.nvlink() ? Specs.HOP_NVLINK : Specs.HOP_PCI).source()));
        String label = oneShot ? "one-shot" : "two-shot";
        switch (k) {
            case FABRICSCOPE -> {
                Constant floor = oneShot ? Specs.OURS_ONESHOT_FLOOR : Specs.OURS_TWOSHOT_FLOOR;
                Constant local = oneShot ? Specs.OURS_ONESHOT_LOCAL : Specs.OURS_TWOSHOT_LOCAL;
                double gbps = 1.0 / (1.0 / local.value() + remote / read);
                src.add(floor.source());
                return new Terms(List.of(new Term(label + " (Fabricscope's kernel)", floor.value() + barrier, gbps)), null, src);
            }
            case SGLANG, VLLM, FLASHINFER, TORCH, NCCL -> {
                double[] table = k == Kernels.VLLM ? Specs.VLLM_CA_512B : Specs.SGLANG_CA_512B;
                double alpha = Specs.atRanks(table, n) + (oneShot ? 0 : 2 * hop(f)); // the published time holds one exchange
                src.add(Specs.CA_SRC);
                return new Terms(List.of(new Term(label, alpha, read / remote)), null, src);
            }
            default -> throw new IllegalStateException();
        }
    }

    /**
     * FlashInfer's trtllm (peer memory) and mnnvl (multicast) all-reduces: a one-shot and a two-shot kernel, the
     * faster taken. No FlashInfer latency was read upstream: the SGLang custom all-reduce band stands in for both.
     */
    static Terms flashinfer(Backend b, Fabric f) {
        if (b == Backend.MNNVL && !f.multicast()) {
            return Terms.none("mnnvl needs CUDA multicast, which the snapshot does not show");
        }
        Terms one = custom(true, Kernels.FLASHINFER, f);
        if (one.unpriced() != null && b == Backend.TRTLLM) {
            return one;
        }
        if (one.unpriced() != null) {
            return Terms.none(one.unpriced() + " (mnnvl across nodes needs an MNNVL fabric: not modelled)");
        }
        Terms two = custom(false, Kernels.FLASHINFER, f);
        List<Term> t = List.of(one.terms().get(0), two.terms().get(0));
        List<String> src = new ArrayList<>(one.sources());
        src.add("no published FlashInfer " + b.id + " latency read: the SGLang custom all-reduce figures stand in");
        return new Terms(t, null, src);
    }

    /** PyTorch symmetric memory: multimem (NVLS-like bandwidth) where multicast exists, else its one-/two-shot. */
    static Terms symmMem(Fabric f) {
        String why = intraNodeOnly(f);
        if (why != null) {
            return Terms.none(why);
        }
        int n = f.worldSize();
        double read = peerRead(f);
        List<Term> t = new ArrayList<>();
        List<String> src = new ArrayList<>(List.of(Specs.SYMM_MEM_MULTIMEM.source() + " (8 GPUs; used at every TP)",
                Specs.READ_EFFICIENCY.source()));
        if (f.multicast() && f.nvlink() && f.smTimes10() >= 90) {
            double eff = NcclConstants.NVLS_EFFICIENCY[NcclConstants.ccIndex(f.smTimes10())];
            // multimem.ld_reduce + multimem.st: each GPU moves 2(n-1)/n·S through the switch at the NVLS efficiency
            t.add(new Term("multimem", Specs.SYMM_MEM_MULTIMEM.value(), f.nvlinkGBps() * eff * n / (2.0 * (n - 1))));
            src.add(NcclConstants.NVLS_EFFICIENCY_SRC);
        }
        t.add(new Term("one-shot", Specs.SYMM_MEM_ONESHOT.value(), read / (n - 1)));
        t.add(new Term("two-shot", Specs.SYMM_MEM_TWOSHOT.value(), read * n / (2.0 * (n - 1))));
        return new Terms(t, null, src);
    }

    /** A predicted time's figure as every prediction prints it: whole microseconds from 100, one decimal below. */
    public static String micros(double us) {
        return us >= 100 ? String.format(Locale.ROOT, "%.0f", us) : String.format(Locale.ROOT, "%.1f", us);
    }

    /** A size in its largest exact binary unit: {@code 8 B}, {@code 64 KiB}, {@code 1.5 MiB} where not exact. */
    public static String size(long b) {
        String[] units = {"B", "KiB", "MiB", "GiB"};
        int u = 0;
        double v = b;
        while (v >= 1024 && u < 3 && (long) v % 1024 == 0) {
            v /= 1024;
            u++;
        }
        return (v == Math.rint(v) ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.1f", v)) + " " + units[u];
    }

    static String fmt(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }
}
