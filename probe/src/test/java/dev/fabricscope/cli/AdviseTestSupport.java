package dev.fabricscope.cli;

import dev.fabricscope.model.DriverInfo;
import dev.fabricscope.model.HostInfo;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.Missing;
import dev.fabricscope.model.NcclInfo;
import dev.fabricscope.model.ProbeInfo;
import dev.fabricscope.model.Reading;
import java.util.List;
import java.util.Map;

/** Makes 'advise' without --snapshot/--sample see a machine without an NVIDIA driver, whatever machine runs the tests. */
final class AdviseTestSupport {
    private AdviseTestSupport() {
    }

    /** Synthetic: what the live probe returns on a machine where libnvidia-ml.so.1 cannot be loaded. */
    static MachineSnapshot noDriver() {
        Reading<String> na = Reading.unavailable("no NVIDIA driver");
        DriverInfo d = new DriverInfo(DriverInfo.Status.NOT_FOUND,
                "NVIDIA driver not found: libnvidia-ml.so.1: cannot open shared object file: No such file or directory",
                na, na, na, new NcclInfo(Reading.missing(Missing.unavailable("not found")), Reading.missing(Missing.unavailable("not found")), List.of()),
                Reading.unavailable("no driver"), Reading.unavailable("no driver"));
        HostInfo h = new HostInfo(Reading.of("laptop"), Reading.of("Linux"), Reading.of("6.1"), Reading.of("amd64"), Reading.of("cpu"),
                Reading.of(2), Reading.unavailable("test"));
        return new MachineSnapshot(MachineSnapshot.SCHEMA_VERSION, new ProbeInfo("test", "2026-11-29T00:00:00Z", List.of(), 0L,
                ProbeInfo.Origin.LIVE, null), h, d, List.of(), List.of(), List.of(), Map.of(), List.of());
    }

    /** Runs the command line on a machine without an NVIDIA driver (the live probe answers {@link #noDriver()}). */
    static CliTest.Run run(String... args) {
        return CliTest.run(CliEnvironment.of(args).withLiveProbe(AdviseTestSupport::noDriver), args);
    }
}
