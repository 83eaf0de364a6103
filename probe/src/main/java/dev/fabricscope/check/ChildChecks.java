package dev.fabricscope.check;

import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.model.MachineSnapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The three live checks with their default requests, each run in a child process ({@link CheckProcess}): what the
 * desktop app and {@code report --with-checks} use, so that neither loads NCCL nor creates a CUDA context itself.
 */
public final class ChildChecks {

    private ChildChecks() {
    }

    public static PreflightResult preflight(CheckProcess.Launcher l, Integer worldSize, CheckOptions options) {
        List<String> args = new ArrayList<>();
        if (worldSize != null) {
            args.addAll(List.of("--world-size", String.valueOf(worldSize)));
        }
        return CheckProcess.run(l, PreflightCheck.NAME, args, PreflightResult.class, options, (status, message, memory) ->
                new PreflightResult(PreflightCheck.NAME, status, message, null, List.of(), null, List.of(), null, List.of(),
                        memory));
    }

    /** @param snapshot this machine's snapshot (handed to the child in a temporary file), or null */
    public static P2pResult p2p(CheckProcess.Launcher l, MachineSnapshot snapshot, CheckOptions options) {
        Path file = null;
        List<String> args = new ArrayList<>();
        try {
            if (snapshot != null) {
                file = Files.createTempFile("fabricscope-snapshot-", ".json");
                SnapshotIO.writeAtomically(file, dev.fabricscope.json.Json.write(snapshot));
                args.addAll(List.of("--snapshot", file.toString()));
            }
        } catch (IOException | RuntimeException e) {
            file = null;
            args.clear();
        }
        try {
            return CheckProcess.run(l, P2pCheck.NAME, args, P2pResult.class, options, (status, message, memory) ->
                    new P2pResult(P2pCheck.NAME, status, message, null, List.of(), List.of(), List.of(), memory));
        } finally {
            if (file != null) {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException ignored) {
                    // a temporary file left behind
                }
            }
        }
    }

    public static AllReduceResult allReduce(CheckProcess.Launcher l, CheckOptions options) {
        return CheckProcess.run(l, AllReduceCheck.NAME, List.of(), AllReduceResult.class, options, (status, message, memory) ->
                new AllReduceResult(AllReduceCheck.NAME, status, message, null, null, null, null, List.of(), List.of(),
                        memory));
    }
}
