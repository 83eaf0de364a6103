package dev.fabricscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.Missing;
import dev.fabricscope.model.NvLinkSignals;
import dev.fabricscope.topology.FabricVerdict;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Traces recorded before the NVLink signals of issue 24 were read replay them as "not recorded" readings: nothing
 * fails, every other reading stays, and the verdict says what it could not read instead of calling the fabric up.
 */
class NvLinkSignalsReplayTest {

    private static String trace(Path dir) {
        return dir.resolve("trace.json").toString();
    }

    @Test
    void nvSwitchTraceRecordedBeforeTheSignalsReplaysThemAsNotRecorded() {
        MachineSnapshot s = CapturedTraces.replay(CapturedTraces.NVSWITCH_2GPU_RECORDED);
        NvLinkSignals sig = s.gpus().get(0).signals();
        assertEquals(Missing.Kind.UNAVAILABLE, sig.bwMode().missing().kind());
        assertTrue(sig.bwMode().missing().detail().contains("not recorded"), sig.bwMode().missing().describe());
        assertEquals(18, sig.links().size(), "one entry per answered link");
        assertEquals(Missing.Kind.UNAVAILABLE, sig.link(0).state().missing().kind());
        assertEquals("NOT_SUPPORTED", sig.gfmState().value(), "the recorded v3 health mask is 0: the GFM field reads 0");
        assertEquals(18, s.gpus().get(0).activeLinks().size(), "the links themselves still read");
        assertEquals(Missing.Kind.UNAVAILABLE, s.node().fabricManagerVersion().missing().kind());

        FabricVerdict v = FabricVerdict.of(s).get(0);
        assertEquals(FabricVerdict.State.UNKNOWN, v.state(), v.summary());
        assertTrue(v.unread().get(0).startsWith("link state field"), v.unread().toString());
        assertTrue(v.evidence().contains("fabric COMPLETED (NVML_SUCCESS)"), v.evidence().toString());
        assertTrue(v.evidence().contains(FabricVerdict.inVm("Pass-Through")), "in the VM the fabric manager runs on the host");
    }

    @Test
    void theTextNoLongerCallsTheFabricManagerUpBesideServicesNotRunning() {
        CliTest.Run r = CliTest.run("probe", "--replay", trace(CapturedTraces.NVSWITCH_2GPU_RECORDED));
        assertEquals(0, r.code(), r.err());
        String out = r.out();
        assertFalse(out.contains("the NVSwitch fabric manager is up"), out);
        assertTrue(out.contains("the fabric manager on the VM's host"), out);
        assertTrue(out.contains("NVLink signals:"), out);
        assertTrue(out.contains("not rec."), out);
        assertTrue(out.contains("GPU0-1: UNKNOWN — links up, fabric unknown: not read: link state field"), out);
        out.lines().forEach(l -> assertTrue(l.length() <= 120, "fits 120 columns: " + l));
    }

    @Test
    void onePassThroughGpuWithHiddenNvLinkHasNothingToJudge() {
        MachineSnapshot s = CapturedTraces.replay(CapturedTraces.PASSTHROUGH_1GPU);
        FabricVerdict v = FabricVerdict.of(s).get(0);
        assertEquals(FabricVerdict.State.NOT_APPLICABLE, v.state());
        assertTrue(v.summary().contains("NVLink hidden from this OS"), v.summary());
        assertTrue(s.gpus().get(0).signals().links().isEmpty(), "no link answered its state: no per-link signal asked");
        assertTrue(s.findings().stream().noneMatch(f -> f.code().startsWith("nvlink-fabric-")));
        CliTest.Run json = CliTest.run("probe", "--replay", trace(CapturedTraces.PASSTHROUGH_1GPU), "--json");
        assertEquals(0, json.code(), json.err());
        assertTrue(json.out().contains("\"signals\""), "the JSON carries the signals");
    }
}
