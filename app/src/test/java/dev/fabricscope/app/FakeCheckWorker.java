package dev.fabricscope.app;

import dev.fabricscope.check.CheckProcess;
import dev.fabricscope.check.api.CheckResult;
import dev.fabricscope.check.api.CheckStatus;
import dev.fabricscope.check.api.MemoryAudit;
import dev.fabricscope.check.api.P2pResult;
import dev.fabricscope.usecase.RunCheck;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The real {@link RunCheck} with a shell script standing in for the check's child process: it answers
 * {@code check NAME … --worker} with the worker lines a real worker prints (a result, read from a file), and
 * {@code check memory} with no NVML. A check without an answer blocks (like a hung collective) until its process is
 * ended, after writing its process id to {@code NAME.pid}. Results synthetic.
 */
public final class FakeCheckWorker {

    public final Path dir;
    public final RunCheck runs;

    public FakeCheckWorker(Map<RunCheck.Kind, CheckResult> answers) {
        try {
            dir = Files.createTempDirectory("fabricscope-fake-worker-");
            StringBuilder sh = new StringBuilder("case \"$*\" in *'check memory'*) cat '" + file("memory.line") + "'; exit 0;; esac; ");
            Files.writeString(file("memory.line"), CheckProcess.WorkerLine.memory(Map.of(), "test: no NVML") + "\n");
            for (RunCheck.Kind k : RunCheck.Kind.values()) {
                sh.append("case \"$*\" in *'check ").append(k.check).append(" '*) ");
                if (answers.containsKey(k)) {
                    Files.writeString(file(k.check + ".line"), CheckProcess.WorkerLine.result(answers.get(k)) + "\n");
                    sh.append("cat '").append(file(k.check + ".line")).append("'; exit 0;; esac; ");
                } else {
                    sh.append("echo $$ > '").append(file(k.check + ".pid")).append("'; exec sleep 600;; esac; ");
                }
            }
            runs = RunCheck.inChildProcesses(() -> new CheckProcess.Launcher(List.of("sh", "-c", sh.toString(), "fabricscope")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Path file(String name) {
        return dir.resolve(name);
    }

    /** Whether the blocked check {@code kind} was started and its process has ended since. */
    public boolean endedAfterStart(RunCheck.Kind kind) {
        try {
            Path pid = file(kind.check + ".pid");
            if (!Files.exists(pid)) {
                return false;
            }
            long id = Long.parseLong(Files.readString(pid).strip());
            return ProcessHandle.of(id).map(p -> !p.isAlive()).orElse(true);
        } catch (IOException | NumberFormatException e) {
            return false;
        }
    }

    /** Synthetic P2P result on 2 GPUs: 390 GB/s one way, 388 the other. */
    public static P2pResult p2pOnTwoGpus() {
        return new P2pResult("p2p", CheckStatus.PASSED, "2 GPUs measured", null,
                List.of(new P2pResult.Local(0, "GPU0", 2800.0, null, null, null, null),
                        new P2pResult.Local(1, "GPU1", 2790.0, null, null, null, null)),
                List.of(new P2pResult.Pair(0, 1, true, 390.0, null, null, null, null, null),
                        new P2pResult.Pair(1, 0, true, 388.0, null, null, null, null, null)),
                List.of(), MemoryAudit.none("test"));
    }
}
