package dev.fabricscope.cli;

import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.nativeapi.trace.NativeTrace;
import dev.fabricscope.nativeapi.trace.TraceIO;
import dev.fabricscope.probe.TraceReplay;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The traces of real machines under {@code src/test/resources/captured}, and their replays. */
public final class CapturedTraces {

    public static final Path ROOT = Path.of("src/test/resources/captured");
    /** Two H200 on an NVSwitch baseboard seen from a VM (converted from readings of 2026-11-30). */
    public static final Path NVSWITCH_2GPU = ROOT.resolve("h200-nvswitch-2gpu-2026-11-30");
    /** One H200 in a pass-through VM, NVLink hidden (recorded by Fabricscope on 2026-12-01). */
    public static final Path PASSTHROUGH_1GPU = ROOT.resolve("h200-passthrough-1gpu-2026-12-01");

    /** The same one-H200 VM recorded with its Python stack (/opt/torch/.venv), 2026-12-01. */
    public static final Path PYTHON_ENV_1GPU = ROOT.resolve("h200-python-env-2026-12-01");

    private CapturedTraces() {
    }

    public static NativeTrace trace(Path dir) {
        try {
            return TraceIO.read(Files.readAllBytes(dir.resolve("trace.json")), dir.resolve("trace.json").toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (TraceIO.TraceFormatException e) {
            throw new IllegalStateException(e);
        }
    }

    public static MachineSnapshot replay(Path dir) {
        return TraceReplay.replay(trace(dir), dir.getFileName() + "/trace.json");
    }

    public static String read(Path dir, String file) {
        try {
            return Files.readString(dir.resolve(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
