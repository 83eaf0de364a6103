package dev.fabricscope.check;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fabricscope.check.api.CheckEvent;
import dev.fabricscope.check.api.CheckOptions;
import dev.fabricscope.check.api.CheckResult;
import dev.fabricscope.check.api.CheckStatus;
import dev.fabricscope.check.api.MemoryAudit;
import dev.fabricscope.json.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs a live check in a child process of the same program ({@code fabricscope check NAME … --worker}), so that the
 * caller (the CLI, the desktop app) never loads NCCL nor creates a CUDA context, and a driver call that hangs cannot
 * hang it. The worker streams JSON lines on stdout ({@link WorkerLine}): progress events, then the result. The parent
 * forwards the events, cancels by ending the process, ends it when the time limit plus a grace period has passed
 * (whatever the driver does), reports a crash as a failed check with the worker's last output, and reads NVML's used
 * memory through a second short worker ({@code check memory --worker}) before and after, so the memory audit covers
 * the whole process lifetime.
 */
public final class CheckProcess {

    /** Time past the check's own limit before the parent ends the worker (the worker stops itself first). */
    static volatile long graceMillis = 15_000;
    /** Lines of the worker's output kept for a crash report. */
    static final int TAIL_LINES = 20;

    private CheckProcess() {
    }

    /** How to start this program again: the java executable, the class path and the main class. */
    public record Launcher(List<String> command) {
        public Launcher {
            command = List.copyOf(command);
        }

        /** This JVM's java, class path and {@code dev.fabricscope.cli.Main}, passing on the checks' -D settings. */
        public static Launcher current() {
            String java = ProcessHandle.current().info().command()
                    .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            List<String> cmd = new ArrayList<>(List.of(java));
            for (String p : List.of("jna.tmpdir", "java.io.tmpdir", PtxKernels.OVERRIDE_PROPERTY, "jna.library.path",
                    "jna.boot.library.path")) {
                String v = System.getProperty(p);
                if (v != null) {
                    cmd.add("-D" + p + "=" + v);
                }
            }
            cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), "dev.fabricscope.cli.Main"));
            return new Launcher(cmd);
        }
    }

    /** One line of a worker's stdout: an event, the result (as JSON), or NVML used memory by PCI address. */
    public record WorkerLine(CheckEvent event, JsonNode result, Map<String, Long> memory, String memoryFailure) {

        public static String event(CheckEvent e) {
            return Json.mapper().createObjectNode().set("event", Json.mapper().valueToTree(e)).toString();
        }

        public static String result(CheckResult r) {
            return Json.mapper().createObjectNode().set("result", Json.mapper().valueToTree(r)).toString();
        }

        public static String memory(Map<String, Long> usedByPci, String failure) {
            var n = Json.mapper().createObjectNode();
            n.set("memory", Json.mapper().valueToTree(usedByPci));
            if (failure != null) {
                n.put("memoryFailure", failure);
            }
            return n.toString();
        }

        /** Parses one line, or returns null when it is not a worker line (stray output). */
        public static WorkerLine parse(String line) {
            if (line == null || !line.startsWith("{")) {
                return null;
            }
            try {
                JsonNode n = Json.mapper().readTree(line);
                if (n.has("event")) {
                    return new WorkerLine(Json.mapper().treeToValue(n.get("event"), CheckEvent.class), null, null, null);
                }
                if (n.has("result")) {
                    return new WorkerLine(null, n.get("result"), null, null);
                }
                if (n.has("memory")) {
                    Map<String, Long> m = new LinkedHashMap<>();
                    n.get("memory").fields().forEachRemaining(e -> m.put(e.getKey(), e.getValue().asLong()));
                    return new WorkerLine(null, null, m, n.path("memoryFailure").asText(null));
                }
            } catch (IOException | IllegalArgumentException e) {
                return null;
            }
            return null;
        }
    }

    /** Builds a result when the worker gave none. */
    @FunctionalInterface
    public interface Fallback<T> {
        T result(CheckStatus status, String message, MemoryAudit memory);
    }

    /**
     * Runs {@code fabricscope check NAME ARGS --worker --timeout S} and returns its result, with the parent's memory
     * readings added.
     */
    public static <T extends CheckResult> T run(Launcher launcher, String check, List<String> args, Class<T> type,
                                                CheckOptions options, Fallback<T> fallback) {
        Map<String, Long> before = readMemory(launcher);
        List<String> cmd = new ArrayList<>(launcher.command());
        cmd.addAll(List.of("check", check));
        cmd.addAll(args);
        cmd.addAll(List.of("--worker", "--timeout", String.valueOf(Math.max(1, options.timeout().toSeconds()))));
        Deque<String> tail = new ArrayDeque<>();
        AtomicReference<JsonNode> result = new AtomicReference<>();
        Process p;
        try {
            p = new ProcessBuilder(cmd).start();
        } catch (IOException e) {
            return fallback.result(CheckStatus.ERROR, "cannot start the check's process: " + e.getMessage(),
                    parentAudit(before, Map.of(), "check process not started"));
        }
        options.listener().onEvent(new CheckEvent(check, CheckEvent.Kind.STARTED, check + " started in process "
                + p.pid() + " (time limit " + options.timeout().toSeconds() + " s)", 0));
        Thread out = pump(p.getInputStream(), tail, line -> {
            WorkerLine w = WorkerLine.parse(line);
            if (w != null && w.event() != null) {
                try {
                    options.listener().onEvent(w.event());
                } catch (RuntimeException ignored) {
                    // a listener's failure must not break the check
                }
                return true;
            }
            if (w != null && w.result() != null) {
                result.set(w.result());
                return true;
            }
            return false;
        });
        Thread err = pump(p.getErrorStream(), tail, line -> false);
        long deadline = System.nanoTime() + options.timeout().toNanos() + TimeUnit.MILLISECONDS.toNanos(graceMillis);
        CheckStatus stoppedAs = null;
        long stopAt = 0;
        try {
            while (!p.waitFor(50, TimeUnit.MILLISECONDS)) {
                boolean cancel = options.control().isCancelled();
                boolean late = System.nanoTime() - deadline > 0;
                if (stoppedAs == null && (cancel || late)) {
                    stoppedAs = cancel ? CheckStatus.CANCELLED : CheckStatus.TIMED_OUT;
                    stopAt = System.nanoTime();
                    p.destroy(); // SIGTERM: the worker cancels its check and frees what it holds
                } else if (stoppedAs != null && System.nanoTime() - stopAt > TimeUnit.SECONDS.toNanos(5)) {
                    p.destroyForcibly();
                }
            }
            out.join(2000);
            err.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            stoppedAs = CheckStatus.CANCELLED;
        }
        Map<String, Long> after = readMemory(launcher);
        JsonNode json = result.get();
        if (json != null) {
            try {
                T r = Json.mapper().treeToValue(json, type);
                MemoryAudit m = r.memory() == null || r.memory().gpus().isEmpty()
                        ? (before.isEmpty() ? r.memory() : parentAudit(before, after, "no in-process audit"))
                        : r.memory().withAfterExit(after);
                @SuppressWarnings("unchecked")
                T withMemory = (T) r.withMemory(m);
                options.listener().onEvent(new CheckEvent(check, CheckEvent.Kind.FINISHED, check + " finished", 1));
                return withMemory;
            } catch (IOException | IllegalArgumentException e) {
                return fallback.result(CheckStatus.ERROR, "unreadable result from the check's process: " + e.getMessage(),
                        parentAudit(before, after, "no result"));
            }
        }
        String last;
        synchronized (tail) {
            last = String.join(" | ", tail);
        }
        String why = stoppedAs == CheckStatus.CANCELLED ? "cancelled; the check's process was ended"
                : stoppedAs == CheckStatus.TIMED_OUT ? "timed out after " + options.timeout().toSeconds()
                + " s; the check's process did not stop by itself and was ended"
                : "the check's process exited with code " + p.exitValue() + " without a result";
        String message = why + (last.isBlank() ? "" : "; last output: " + last);
        CheckStatus status = stoppedAs != null ? stoppedAs : CheckStatus.ERROR;
        options.listener().onEvent(new CheckEvent(check, CheckEvent.Kind.FINISHED, message, 1));
        return fallback.result(status, message, parentAudit(before, after, "the check's process gave no audit"));
    }

    /** An audit from the parent's readings alone (NVML order), when the worker gave none. */
    static MemoryAudit parentAudit(Map<String, Long> before, Map<String, Long> after, String why) {
        if (before.isEmpty()) {
            return MemoryAudit.none("not measured: NVML not readable from the check's parent");
        }
        List<MemoryAudit.Gpu> gpus = new ArrayList<>();
        int k = 0;
        for (Map.Entry<String, Long> e : before.entrySet()) {
            gpus.add(new MemoryAudit.Gpu(k++, e.getKey(), e.getValue(), null, null, null, null, why, after.get(e.getKey())));
        }
        return MemoryAudit.of(gpus);
    }

    /** NVML used memory by PCI address, through {@code check memory --worker}; empty when it cannot be read. */
    public static Map<String, Long> readMemory(Launcher launcher) {
        List<String> cmd = new ArrayList<>(launcher.command());
        cmd.addAll(List.of("check", "memory", "--worker"));
        try {
            Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            Map<String, Long> m = Map.of();
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    WorkerLine w = WorkerLine.parse(line);
                    if (w != null && w.memory() != null) {
                        m = w.memory();
                    }
                }
            }
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
            return m;
        } catch (IOException e) {
            return Map.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Map.of();
        }
    }

    private interface LineSink {
        /** True when the line was a worker line (not kept for the crash report). */
        boolean accept(String line);
    }

    private static Thread pump(InputStream in, Deque<String> tail, LineSink sink) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    if (!sink.accept(line) && !line.isBlank()) {
                        synchronized (tail) {
                            tail.addLast(dev.fabricscope.io.ErrorText.oneLineSafe(line));
                            while (tail.size() > TAIL_LINES) {
                                tail.removeFirst();
                            }
                        }
                    }
                }
            } catch (IOException ignored) {
                // the process ended
            }
        }, "fabricscope-check-output");
        t.setDaemon(true);
        t.start();
        return t;
    }
}
