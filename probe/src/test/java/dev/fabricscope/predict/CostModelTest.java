package dev.fabricscope.predict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The cost model's parts on synthetic fabrics (labelled: each is the H100/H200 NVSwitch baseboard of the Hopper
 * whitepaper, 18 NVLink4 links × 25 GB/s, or a PCIe Gen5 x16 link, not a capture).
 */
class CostModelTest {

    static Fabric nvswitch(int ranks, boolean multicast) {
        return new Fabric(ranks, 1, 90, 18, 25.0, true, 63.0, "Gen5 x16", multicast, List.of());
    }

    static Fabric pcieOnly(int ranks) {
        return new Fabric(ranks, 1, 89, null, null, false, 31.5, "Gen4 x16", false, List.of());
    }

    @Test
    void ncclRingLlFloorIsNcclsOwnNumber() {
        // anchors-2026.md §3.1 derives it by hand from tuning.cc: 6.6 + 2(n-1) × 0.6 = 7.8 µs (2 GPUs), 15.0 µs (8 GPUs)
        assertEquals(7.8, CostModel.terms(Backend.NCCL, CostModel.Kernels.NCCL, nvswitch(2, false), 8).best(8, Scale.SPECS).us(), 1e-3);
        Estimate eight = CostModel.terms(Backend.NCCL, CostModel.Kernels.NCCL, nvswitch(8, false), 8).best(8, Scale.SPECS);
        assertEquals(15.0, eight.us(), 1e-3);
        assertEquals("Ring LL", eight.term());
        // large messages: Ring Simple at the topology's 18 × 20.6 GB/s
        Estimate big = CostModel.terms(Backend.NCCL, CostModel.Kernels.NCCL, nvswitch(2, false), 256L << 20)
                .best(256L << 20, Scale.SPECS);
        assertEquals("Ring Simple", big.term());
        assertEquals(8.4 + 2 * 3.4 + (256L << 20) / (1000 * 18 * 20.6), big.us(), 1e-6);
    }

    @Test
    void ll128OnlyOverNvlinkAndNvlsOnlyWithMulticastAndNvswitch() {
        assertTrue(CostModel.terms(Backend.NCCL, CostModel.Kernels.NCCL, pcieOnly(4), 1 << 20).terms().stream()
                .noneMatch(t -> t.label().contains("LL128")));
        assertTrue(CostModel.terms(Backend.NCCL, CostModel.Kernels.NCCL, nvswitch(4, false), 1 << 20).terms().stream()
                .anyMatch(t -> t.label().contains("LL128")));
        assertNotNull(CostModel.terms(Backend.NVLS, CostModel.Kernels.NCCL, nvswitch(8, false), 8).unpriced());
        assertNull(CostModel.terms(Backend.NVLS, CostModel.Kernels.NCCL, nvswitch(8, true), 8).unpriced());
        assertNotNull(CostModel.terms(Backend.MNNVL, CostModel.Kernels.FLASHINFER, nvswitch(8, false), 8).unpriced());
        assertNotNull(CostModel.terms(Backend.ONESHOT, CostModel.Kernels.SGLANG, nvswitch(1, false), 8).unpriced(), "TP 1");
    }

    @Test
    void oneShotMovesNMinusOneTimesTheMessageAndTwoShotTwice() {
        Fabric f = nvswitch(8, false);
        double read = 18 * 25 * Specs.READ_EFFICIENCY.value();
        Term one = CostModel.terms(Backend.ONESHOT, CostModel.Kernels.SGLANG, f, 8).terms().get(0);
        Term two = CostModel.terms(Backend.TWOSHOT, CostModel.Kernels.SGLANG, f, 8).terms().get(0);
        assertEquals(read / 7, one.gbps(), 1e-9);
        assertEquals(read * 8 / 14.0, two.gbps(), 1e-9);
        assertEquals(5.9, one.latencyUs(), 1e-9, "sglang#2904 at TP 8");
        assertEquals(4.8 + (5.9 - 4.8) / 2, CostModel.terms(Backend.ONESHOT, CostModel.Kernels.SGLANG, nvswitch(6, false), 8)
                .terms().get(0).latencyUs(), 1e-9, "between TP 4 and 8");
    }

    @Test
    void calibrationRecoversTheFactorsTheDataWasMadeWith() {
        // synthetic measurements: the NCCL model at 2 ranks with latency ×1.5, bandwidth ×0.8, 8 B .. 256 MiB
        Fabric f = nvswitch(2, false);
        Scale truth = new Scale(1.5, 0.8);
        List<Calibration.Point> pts = new ArrayList<>();
        for (long b = 8; b <= 256L << 20; b *= 4) {
            pts.add(new Calibration.Point(b, CostModel.terms(Backend.NCCL, CostModel.Kernels.NCCL, f, b).best(b, truth).us()));
        }
        Calibration.Fit fit = Calibration.fit(b -> CostModel.terms(Backend.NCCL, CostModel.Kernels.NCCL, f, b), pts);
        assertEquals(1.5, fit.scale().latency(), 1e-6);
        assertEquals(0.8, fit.scale().bandwidth(), 1e-6);
        assertTrue(fit.worstRelativeError() < 1e-9);
        assertNull(Calibration.fit(b -> CostModel.terms(Backend.NCCL, CostModel.Kernels.NCCL, f, b), pts.subList(0, 1)),
                "one point fits nothing");
    }

    @Test
    void eachProtocolNcclsTunerPicksGetsItsOwnFactorsWhereItHoldsEnoughSizes() {
        // synthetic measurements: NCCL at 2 ranks, Ring LL (8 B .. 1 MiB as the tuner picks) with latency ×1.5 and
        // bandwidth ×0.9, Ring Simple (2 MiB ..) with ×1.8 and ×0.8: one pair of factors cannot follow both
        Fabric f = nvswitch(2, false);
        java.util.Map<String, Scale> truth = java.util.Map.of("Ring LL", new Scale(1.5, 0.9),
                "Ring Simple", new Scale(1.8, 0.8));
        List<Calibration.Point> pts = new ArrayList<>();
        for (long b = 8; b <= 256L << 20; b *= 2) {
            Terms t = CostModel.terms(Backend.NCCL, CostModel.Kernels.NCCL, f, b);
            Estimate tuner = t.best(b, Scale.SPECS);
            Term term = t.terms().stream().filter(x -> x.label().equals(tuner.term())).findFirst().orElseThrow();
            pts.add(new Calibration.Point(b, term.timeUs(b, truth.get(tuner.term()))));
        }
        Calibration.Fit fit = Calibration.fit(b -> CostModel.terms(Backend.NCCL, CostModel.Kernels.NCCL, f, b), pts);
        assertEquals(truth.keySet(), fit.terms().keySet());
        for (var e : truth.entrySet()) {
            assertEquals(e.getValue().latency(), fit.scaleOf(e.getKey()).latency(), 1e-6, e.getKey());
            assertEquals(e.getValue().bandwidth(), fit.scaleOf(e.getKey()).bandwidth(), 1e-6, e.getKey());
        }
        assertEquals(8, fit.terms().get("Ring LL").fromBytes());
        assertEquals(1L << 20, fit.terms().get("Ring LL").toBytes());
        assertEquals(8, fit.terms().get("Ring Simple").points(), "2 MiB .. 256 MiB");
        assertTrue(fit.worstRelativeError() < 1e-9);
        assertEquals("Ring Simple", fit.estimate(CostModel.terms(Backend.NCCL, CostModel.Kernels.NCCL, f, 4L << 20), 4L << 20).term());

        // three Simple sizes are too few for a pair of their own: Simple takes the backend-wide factors
        List<Calibration.Point> few = pts.stream().filter(p -> p.bytes() <= 8L << 20).toList();
        Calibration.Fit less = Calibration.fit(b -> CostModel.terms(Backend.NCCL, CostModel.Kernels.NCCL, f, b), few);
        assertEquals(java.util.Set.of("Ring LL"), less.terms().keySet());
        assertEquals(less.scale(), less.scaleOf("Ring Simple"));
    }

    @Test
    void everyConstantNamesItsSource() {
        for (Constant c : Specs.all()) {
            assertTrue(c.source() != null && c.source().length() > 10, c.name());
        }
        assertTrue(NcclConstants.BASE_LAT_SRC.startsWith("NVIDIA/nccl@5067397c2676d5aed50042fc39e5c8ee96eb0027 src/graph/tuning.cc:"));
    }
}
