package dev.fabricscope.app;

import dev.fabricscope.app.viewmodel.MainViewModel;
import dev.fabricscope.probe.TraceReplay;
import java.util.List;

/**
 * The desktop window's live probe: this machine's NVML and CUDA driver read as {@code probe --record} reads them, the
 * native calls kept, so that File -> Save Trace saves the recording of what the window shows.
 */
public final class LiveRecordingProbe implements MainViewModel.RecordingProbe {

    @Override
    public MainViewModel.LiveReading probe() {
        TraceReplay.Recorded r = TraceReplay.record(List.of("fabricscope-app"), null);
        return new MainViewModel.LiveReading(r.snapshot(), r.traceText());
    }
}
