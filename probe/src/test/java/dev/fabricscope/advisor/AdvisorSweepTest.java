package dev.fabricscope.advisor;

import dev.fabricscope.advisor.api.AdviceResult;
import dev.fabricscope.advisor.api.KnobSpec;
import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Recommendation;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.advisor.flashinfer.FlashInferVersion;
import dev.fabricscope.advisor.inventory.InventoryEntry;
import dev.fabricscope.advisor.inventory.UpstreamInventory;
import dev.fabricscope.advisor.nccl.NcclVersion;
import dev.fabricscope.advisor.sglang.SglangVersion;
import dev.fabricscope.advisor.vllm.VllmVersion;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every rule over a grid of machines and deployments, and every knob at every value: no rule throws, every knob
 * gets exactly one verdict per framework, every verdict is complete, errors carry a fix, and the recommended
 * settings never fail on their own.
 */
class AdvisorSweepTest {

    static final List<String> SMS = List.of("8.0", "8.9", "9.0", "10.0", "10.3", "11.0", "12.0");

    static List<What> machines() {
        List<What> out = new ArrayList<>();
        for (String sm : SMS) {
            for (int nodes : List.of(1, 2)) {
                for (int tp : List.of(1, 2, 3, 4, 6, 8, 16)) {
                    if (tp > 8 * nodes) {
                        continue; // impossible on these machines: refused before any verdict (AdvisorDeploymentTest)
                    }
                    for (boolean mc : List.of(true, false)) {
                        out.add(What.machine("sm=" + sm, "gpus-per-node=8", "multicast=" + mc, "nvswitch=" + mc, "all-nvlink=" + mc,
                                "fabric-handles=" + mc, "mnnvl-fabric=" + (mc && nodes > 1)).tp(tp).nodes(nodes));
                    }
                }
            }
        }
        for (String p : List.of("rocm", "cpu")) {
            for (int tp : List.of(1, 2, 8)) {
                out.add(What.machine("platform=" + p, "gpus-per-node=8").tp(tp));
            }
        }
        return out;
    }

    static void check(AdviceResult r, String ctx) {
        assertNull(r.blocked(), ctx);
        Set<String> seen = new HashSet<>();
        for (Verdict v : r.verdicts()) {
            assertTrue(seen.add(v.framework() + " " + v.knob()), "duplicate verdict " + v.knob() + " " + ctx);
            assertNotNull(v.when(), ctx + v);
            assertNotNull(v.why(), ctx + v);
            assertNotNull(v.source(), ctx + v);
            assertNotNull(v.value(), ctx + v);
            if (v.outcome() == Outcome.ERROR) {
                assertNotNull(v.fix(), "error without fix: " + ctx + v);
            }
            assertFalse(withoutUpstreamText(v).contains("null"), ctx + v);
        }
        assertEquals(4, r.recommendations().size(), ctx);
    }

    /**
     * The why of a not-modelled upstream branch quotes upstream's condition and message, which may spell the string
     * 'null' (SGLang's --disaggregation-mode null); those quotes are not an unrendered value.
     */
    static String withoutUpstreamText(Verdict v) {
        String why = v.why();
        if (!v.knob().startsWith("upstream:")) {
            return why;
        }
        String id = v.knob().substring("upstream:".length());
        for (InventoryEntry e : UpstreamInventory.bundled().entries()) {
            if (e.id().equals(id)) {
                why = why.replace(e.condition().replace('\n', ' '), "").replace(e.message().replace('\n', ' '), "");
            }
        }
        return why;
    }

    @Test
    void defaultsOnEveryMachine() {
        for (What w : machines()) {
            AdviceResult r = w.advise();
            check(r, w.assume + " " + w.d + ": ");
            for (Recommendation rec : r.recommendations()) {
                assertFalse(rec.summary().contains("null"), rec.toString());
            }
        }
    }

    @Test
    void everyKnobAtEveryValue() {
        List<What> few = List.of(
                What.machine(What.HGX_H100).tp(8), What.machine(What.GB200_NVL).tp(8).nodes(2), What.machine(What.PCIE_SM120).tp(4),
                What.machine("sm=9.0", "gpus-per-node=2", "multicast=false").tp(2), What.machine("platform=rocm", "gpus-per-node=8").tp(8));
        for (What base : few) {
            for (KnobSpec k : Knobs.all()) {
                List<String> values = switch (k.type()) {
                    case BOOL -> List.of("true", "false");
                    case PY_INT_BOOL -> List.of("0", "1", "true");
                    case PY_EQ_ONE -> List.of("1", "0", "true");
                    case CHOICE -> k.choices();
                    // parallel sizes beyond the machine are refused up front (AdvisorDeploymentTest)
                    case INT -> List.of("prefill-context-parallel-size", "pipeline-parallel-size").contains(k.name()) ? List.of("1") : List.of("1", "2", "3");
                    case NUMBER -> List.of("0.5", "64");
                    case STRING -> k.name().equals("compilation-config") ? List.of("{}", "{\"pass_config\": {\"fuse_allreduce_rms\": true}}")
                            : List.of("none", "deepep");
                    case NONE -> List.of();
                };
                for (String v : values) {
                    What w = copy(base);
                    if (k.kind() == KnobSpec.Kind.ENV) {
                        w.env(k.name(), v);
                    } else if (k.kind() == KnobSpec.Kind.DEPLOYMENT) {
                        w.dcp(Integer.parseInt(v));
                    } else {
                        w.flag(k.name(), v);
                    }
                    AdviceResult r = w.advise();
                    check(r, k.name() + "=" + v + " " + base.assume + ": ");
                    // compilation-config is read into its pass_config keys, which get the verdicts
                    if (k.kind() != KnobSpec.Kind.DEPLOYMENT && k.onlyVersion() == null && !k.name().equals("compilation-config")) {
                        Verdict verdict = r.verdict(k.framework(), k.display()).orElseThrow(() -> new AssertionError("no verdict for " + k.display()));
                        assertTrue(verdict.userSet(), k.name());
                    }
                }
            }
        }
    }

    @Test
    void everyVersionOnEveryMachine() {
        for (What w : machines().subList(0, 60)) {
            for (SglangVersion s : SglangVersion.ALL) {
                for (VllmVersion v : VllmVersion.ALL) {
                    What x = copy(w).version("sglang", s.id()).version("vllm", v.id());
                    check(x.advise(), s.id() + "/" + v.id() + " " + w.assume + ": ");
                }
            }
            for (FlashInferVersion f : FlashInferVersion.ALL) {
                check(copy(w).version("flashinfer", f.id()).advise(), f.id());
            }
            for (NcclVersion n : NcclVersion.ALL) {
                check(copy(w).version("nccl", n.id()).advise(), n.id());
            }
        }
    }

    @Test
    void recommendedSettingsHold() {
        for (What w : machines()) {
            AdviceResult r = w.advise();
            for (Recommendation rec : r.recommendations()) {
                if (rec.framework().equals("flashinfer")) {
                    continue;
                }
                What applied = copy(w);
                for (String f : rec.flags()) {
                    if (f.startsWith("-cc.pass_config.")) {
                        String[] kv = f.substring("-cc.pass_config.".length()).split("=");
                        applied.flag(kv[0], kv[1]);
                    } else if (f.contains("=")) {
                        String[] kv = f.substring(2).split("=", 2);
                        applied.flag(kv[0], kv[1]);
                    } else {
                        applied.flag(f.substring(2), "true");
                    }
                }
                rec.env().forEach(applied::env);
                AdviceResult after = applied.advise();
                for (Verdict v : after.verdicts()) {
                    if (v.framework().equals(rec.framework()) && v.outcome() == Outcome.ERROR) {
                        boolean deploymentLevel = rec.summary().contains("Deployment settings to change");
                        assertTrue(deploymentLevel, "recommended " + rec + " still errors: " + v + " on " + w.assume + " " + w.d);
                    }
                }
            }
        }
    }

    static What copy(What w) {
        What c = new What();
        c.assume.putAll(w.assume);
        c.d = w.d;
        c.o = w.o;
        c.snapshot = w.snapshot;
        return c;
    }
}
