package dev.fabricscope.advisor;

import dev.fabricscope.advisor.api.AdviceResult;
import dev.fabricscope.advisor.api.AdvisorInputException;
import dev.fabricscope.advisor.api.Deployment;
import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Verdict;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.fabricscope.model.MachineSnapshot;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A what-if for the advisor's pure API: machine facts as --assume pairs (synthetic machines described by their
 * public specs: e.g. HGX H100 = 8 × SM 9.0 with third-generation NVSwitches), a deployment and versions.
 */
final class What {

    /** HGX H100/H200 8-GPU board: SM 9.0, NVSwitch (NVLink4), multicast with Fabric Manager, no MNNVL. */
    static final String[] HGX_H100 = {"sm=9.0", "gpus-per-node=8", "multicast=true", "nvswitch=true", "all-nvlink=true", "p2p=true",
            "fabric-handles=false", "mnnvl-fabric=false", "torch-cuda=12.8"};
    /** HGX B200 8-GPU board: SM 10.0, NVSwitch (NVLink5), multicast, no MNNVL. */
    static final String[] HGX_B200 = {"sm=10.0", "gpus-per-node=8", "multicast=true", "nvswitch=true", "all-nvlink=true", "p2p=true",
            "fabric-handles=false", "mnnvl-fabric=false", "torch-cuda=12.8"};
    /** GB200 NVL72 compute tray: 4 × SM 10.0 per node, MNNVL fabric with fabric handles. */
    static final String[] GB200_NVL = {"sm=10.0", "gpus-per-node=4", "multicast=true", "nvswitch=true", "all-nvlink=true", "p2p=true",
            "fabric-handles=true", "mnnvl-fabric=true", "torch-cuda=12.8", "host-arch=aarch64", "imex-channel=true"};
    /** PCIe workstation: 4 × RTX PRO 6000 (SM 12.0), no NVLink, no multicast. */
    static final String[] PCIE_SM120 = {"sm=12.0", "gpus-per-node=4", "multicast=false", "nvswitch=false", "all-nvlink=false", "p2p=true",
            "fabric-handles=false", "mnnvl-fabric=false", "torch-cuda=12.8"};

    final Map<String, String> assume = new LinkedHashMap<>();
    Deployment d = Deployment.defaults();
    Options o = Options.defaults();
    MachineSnapshot snapshot;

    static What machine(String... kv) {
        What w = new What();
        return w.assume(kv);
    }

    static What snapshot(MachineSnapshot s, String... kv) {
        What w = new What();
        w.snapshot = s;
        return w.assume(kv);
    }

    What assume(String... kv) {
        for (String p : kv) {
            int eq = p.indexOf('=');
            assume.put(p.substring(0, eq), p.substring(eq + 1));
        }
        return this;
    }

    What tp(int n) {
        d = d.withTp(n);
        return this;
    }

    What nodes(int n) {
        d = d.withNodes(n);
        return this;
    }

    What dcp(int n) {
        d = d.withDcp(n);
        return this;
    }

    What model(String m) {
        d = d.withModel(m);
        return this;
    }

    What tokens(int n) {
        d = d.withTokens(n);
        return this;
    }

    What flag(String name, String value) {
        d = d.withFlag(name, value);
        return this;
    }

    What env(String name, String value) {
        d = d.withEnv(name, value);
        return this;
    }

    What framework(String framework) {
        o = o.withFrameworks(java.util.List.of(framework));
        return this;
    }

    What version(String framework, String version) {
        o = o.withVersion(framework, version);
        return this;
    }

    AdviceResult advise() {
        try {
            Options opts = new Options(o.frameworks(), o.versions(), assume);
            return Advisor.advise(snapshot, d, opts);
        } catch (AdvisorInputException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    Verdict verdict(String framework, String knob) {
        AdviceResult r = advise();
        assertNull(r.blocked(), r.blocked());
        return r.verdict(framework, knob).orElseThrow(() -> new AssertionError("no verdict " + framework + " " + knob));
    }

    static void ok(Verdict v, String resolved) {
        assertEquals(Outcome.OK, v.outcome(), v::toString);
        assertEquals(resolved, v.resolved(), v::toString);
    }

    static void fallback(Verdict v, String resolved, String message) {
        assertEquals(Outcome.FALLBACK, v.outcome(), v::toString);
        assertEquals(resolved, v.resolved(), v::toString);
        checkMessage(v, message);
    }

    static void error(Verdict v, String errorClass, String message) {
        assertEquals(Outcome.ERROR, v.outcome(), v::toString);
        assertNull(v.resolved(), v::toString);
        assertEquals(errorClass, v.errorClass(), v::toString);
        checkMessage(v, message);
    }

    private static void checkMessage(Verdict v, String message) {
        if (message == null) {
            assertNull(v.message(), v::toString);
        } else {
            assertNotNull(v.message(), v::toString);
            assertEquals(message, v.message(), v::toString);
        }
    }

    static void whyMentions(Verdict v, String... parts) {
        for (String p : parts) {
            if (v.why() == null || !v.why().contains(p)) {
                fail("why lacks '" + p + "': " + v.why());
            }
        }
    }

    static List<String> withAll(String[] base, String... more) {
        List<String> l = new java.util.ArrayList<>(List.of(base));
        l.addAll(List.of(more));
        return l;
    }
}
