package dev.fabricscope.report;

import dev.fabricscope.check.AllReduceCheck;
import dev.fabricscope.check.CheckControl;
import dev.fabricscope.check.CheckListener;
import dev.fabricscope.check.CheckOptions;
import dev.fabricscope.check.CheckProcess;
import dev.fabricscope.check.ChildChecks;
import dev.fabricscope.check.CheckResult;
import dev.fabricscope.check.CheckStatus;
import dev.fabricscope.check.P2pCheck;
import dev.fabricscope.check.PreflightCheck;
import dev.fabricscope.json.Json;
import dev.fabricscope.model.MachineSnapshot;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs the live checks for a report ({@code report --with-checks}): SGLang's FlashInfer workspace preflight, the P2P
 * matrix and the all-reduce smoke test, each with its default size and time limit, on the machine the snapshot was
 * just probed from, each in a child process ({@link CheckProcess}). A saved snapshot or a machine without driver is not checked; the section says why.
 */
public final class LiveChecks {

    /** Where the checks' child processes are started from (replaced in tests). */
    static volatile java.util.function.Supplier<CheckProcess.Launcher> LAUNCHER = CheckProcess.Launcher::current;

    private LiveChecks() {
    }

    /** Why checks cannot run for {@code s}, or null when they can. */
    public static String cannotRun(MachineSnapshot s) {
        if (!s.isLive()) {
            return "live checks run on this machine's GPUs; a saved snapshot or sample cannot be checked";
        }
        if (!s.driver().driverPresent()) {
            return "no NVIDIA driver on this machine: " + s.driver().message();
        }
        if (s.gpus().isEmpty()) {
            return "no GPUs seen on this machine";
        }
        return null;
    }

    /**
     * Runs every check in turn (stopping early when {@code control} is cancelled).
     *
     * @param worldSize the preflight's world size (the deployment's TP), or null for all local GPUs
     */
    public static ReportChecks run(MachineSnapshot live, Integer worldSize, CheckListener listener, CheckControl control) {
        String why = cannotRun(live);
        if (why != null) {
            return ReportChecks.skipped(why);
        }
        List<ReportChecks.Entry> entries = new ArrayList<>();
        CheckProcess.Launcher launcher = LAUNCHER.get();
        entries.add(entry(ChildChecks.preflight(launcher, worldSize,
                new CheckOptions(PreflightCheck.DEFAULT_TIMEOUT, listener, control))));
        if (!control.isCancelled()) {
            entries.add(entry(ChildChecks.p2p(launcher, live, new CheckOptions(P2pCheck.DEFAULT_TIMEOUT, listener, control))));
        }
        if (!control.isCancelled()) {
            entries.add(entry(ChildChecks.allReduce(launcher,
                    new CheckOptions(AllReduceCheck.DEFAULT_TIMEOUT, listener, control))));
        }
        return new ReportChecks(true, null, entries);
    }

    static ReportChecks.Entry entry(CheckResult r) {
        return new ReportChecks.Entry(r.check(), r.status().name(), r.summary(), Json.mapper().valueToTree(r));
    }

    /** The worst status among the results, or null when none ran. */
    public static CheckStatus worst(ReportChecks c) {
        CheckStatus w = null;
        for (ReportChecks.Entry e : c.results()) {
            CheckStatus s;
            try {
                s = CheckStatus.valueOf(e.status());
            } catch (IllegalArgumentException x) {
                s = CheckStatus.ERROR;
            }
            w = w == null ? s : w.worse(s);
        }
        return w;
    }
}
