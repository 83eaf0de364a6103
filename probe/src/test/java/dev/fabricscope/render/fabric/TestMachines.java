package dev.fabricscope.render.fabric;

import dev.fabricscope.model.CudaAttributes;
import dev.fabricscope.model.DriverInfo;
import dev.fabricscope.model.FabricInfo;
import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.GpuPair;
import dev.fabricscope.model.HostInfo;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.Missing;
import dev.fabricscope.model.NcclInfo;
import dev.fabricscope.model.NvLink;
import dev.fabricscope.model.PciAddress;
import dev.fabricscope.model.ProbeInfo;
import dev.fabricscope.model.Reading;
import dev.fabricscope.topology.NvLinkSpecs;
import dev.fabricscope.topology.SnapshotAnalyzer;
import dev.fabricscope.topology.Topology;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * SYNTHETIC test machines for the layout tests, shaped after public specifications (DGX H100 user guide: 8× H100
 * SXM, 4 NVSwitch chips, 18 NVLink4 links per GPU split 5/4/4/5; GB200 NVL72 compute tray: 4 GPUs, 18 NVLink5
 * links each to off-tray switches; H100 NVL: pairs joined by NVLink bridges; L40S: PCIe only).
 */
final class TestMachines {

    private TestMachines() {
    }

    static final class Builder {
        private final String host;
        private final List<HostInfo.NumaNode> numa = new ArrayList<>();
        private final List<String[]> gpuSpecs = new ArrayList<>();
        private final Map<Integer, List<String[]>> links = new HashMap<>();
        private final Map<String, String> pcie = new HashMap<>();
        private final Map<Integer, String[]> fabric = new HashMap<>();
        private boolean hiddenLinks;

        Builder(String host) {
            this.host = host;
        }

        Builder numa(int id, String cpus) {
            numa.add(new HostInfo.NumaNode(id, cpus));
            return this;
        }

        Builder gpu(String pci, String name, String cc, int numaNode) {
            gpuSpecs.add(new String[] {pci, name, cc, String.valueOf(numaNode)});
            return this;
        }

        /** {@code count} links from GPU {@code gpu} to a switch at {@code switchPci} (null: not PCI-visible). */
        Builder toSwitch(int gpu, String switchPci, int count) {
            for (int i = 0; i < count; i++) {
                links.computeIfAbsent(gpu, k -> new ArrayList<>()).add(new String[] {NvLink.REMOTE_SWITCH, switchPci});
            }
            return this;
        }

        Builder direct(int a, int b, int count) {
            for (int i = 0; i < count; i++) {
                links.computeIfAbsent(a, k -> new ArrayList<>()).add(new String[] {NvLink.REMOTE_GPU, gpuSpecs.get(b)[0]});
                links.computeIfAbsent(b, k -> new ArrayList<>()).add(new String[] {NvLink.REMOTE_GPU, gpuSpecs.get(a)[0]});
            }
            return this;
        }

        Builder pcie(int a, int b, String level) {
            pcie.put(a + "-" + b, level);
            return this;
        }

        Builder mnnvl(int gpu, String cluster, long clique) {
            fabric.put(gpu, new String[] {cluster, String.valueOf(clique)});
            return this;
        }

        Builder hiddenLinks() {
            hiddenLinks = true;
            return this;
        }

        MachineSnapshot build() {
            List<Gpu> gpus = new ArrayList<>();
            for (int i = 0; i < gpuSpecs.size(); i++) {
                gpus.add(gpu(i));
            }
            List<GpuPair> pairs = new ArrayList<>();
            for (int i = 0; i < gpus.size(); i++) {
                for (int j = i + 1; j < gpus.size(); j++) {
                    Gpu a = gpus.get(i);
                    Gpu b = gpus.get(j);
                    String level = pcie.getOrDefault(i + "-" + j, a.numaNode().value().equals(b.numaNode().value()) ? "NODE" : "SYS");
                    Reading<Integer> nv = Topology.nvLinksBetween(a, b);
                    Reading<String> ok = Reading.of("OK");
                    pairs.add(new GpuPair(a.pci(), b.pci(), Topology.letter(nv, Reading.of(level)), Reading.of(level), nv,
                            ok, ok, nv.orElse(0) > 0 ? ok : Reading.of("NS"), ok, ok, Reading.of(true), Reading.of(0), Reading.of(true)));
                }
            }
            Reading<String> none = Reading.of("n/a");
            DriverInfo driver = new DriverInfo(DriverInfo.Status.OK, null, Reading.of("570.124.06"), Reading.of("12.8"),
                    Reading.of("12.570.124.06"), new NcclInfo(Reading.unavailable("not searched"), Reading.unavailable("not searched"), List.of()),
                    Reading.of(List.of()), Reading.of(gpus.size()));
            HostInfo h = new HostInfo(Reading.of(host), Reading.of("Ubuntu 22.04"), Reading.of("6.8"), Reading.of("amd64"),
                    Reading.of("Test CPU"), Reading.of(224), Reading.of(List.copyOf(numa)));
            ProbeInfo probe = new ProbeInfo("test", "2026-01-01T00:00:00Z", List.of(), null, ProbeInfo.Origin.SYNTHETIC, "test machine");
            MachineSnapshot s = new MachineSnapshot(1, probe, h, driver, gpus, Topology.switches(gpus), pairs, Map.of(), List.of());
            return s.withFindings(SnapshotAnalyzer.findings(s));
        }

        private Gpu gpu(int i) {
            String[] spec = gpuSpecs.get(i);
            double cc = Double.parseDouble(spec[2]);
            List<NvLink> nv = new ArrayList<>();
            Reading<Integer> count;
            if (hiddenLinks) {
                Missing m = Missing.unsupported("nvmlDeviceGetNvLinkState", "NVML_ERROR_NOT_SUPPORTED", 3);
                for (int l = 0; l < 18; l++) {
                    nv.add(new NvLink(l, Reading.missing(m), Reading.missing(m), Reading.of(4), Reading.missing(m), Reading.missing(m), Reading.of(25.0)));
                }
                count = Reading.missing(m);
            } else {
                List<String[]> mine = links.getOrDefault(i, List.of());
                for (int l = 0; l < mine.size(); l++) {
                    String[] link = mine.get(l);
                    Reading<PciAddress> remote = link[1] == null
                            ? Reading.missing(Missing.unsupported("nvmlDeviceGetNvLinkRemotePciInfo_v2", "NVML_ERROR_NOT_SUPPORTED", 3))
                            : Reading.of(PciAddress.parse(link[1]));
                    nv.add(new NvLink(l, Reading.of(true), Reading.of(7), Reading.of(NvLinkSpecs.generation(cc)), Reading.of(link[0]),
                            remote, Reading.of(NvLinkSpecs.gbpsPerLinkPerDirection(cc))));
                }
                count = Reading.of(mine.size());
            }
            String[] f = fabric.get(i);
            FabricInfo fi = f == null
                    ? new FabricInfo(Reading.of("v3"), Reading.of("NOT_SUPPORTED"), Reading.of("NVML_SUCCESS"), Reading.of(0L),
                    Reading.of(FabricInfo.ZERO_UUID), Reading.of(0L), Reading.of("NOT_SUPPORTED"))
                    : new FabricInfo(Reading.of("v3"), Reading.of(FabricInfo.COMPLETED), Reading.of("NVML_SUCCESS"),
                    Reading.of(Long.parseLong(f[1])), Reading.of(f[0]), Reading.of(0L), Reading.of("HEALTHY"));
            Reading<Boolean> yes = Reading.of(true);
            CudaAttributes attrs = new CudaAttributes(yes, yes, Reading.of(f != null), Reading.of(cc >= 9.0), yes, yes, Reading.of(Integer.parseInt(spec[3])));
            return new Gpu(PciAddress.parse(spec[0]), Reading.of("GPU-" + i), Reading.of(i), Reading.of(i), Reading.of(spec[1]),
                    Reading.of("S" + i), Reading.of("Arch"), Reading.of(spec[2]), Reading.of(132), Reading.of(80L << 30),
                    Reading.of(Integer.parseInt(spec[3])), Reading.of("0-55"), Reading.of("Disabled"),
                    Reading.of(hiddenLinks ? "Pass-Through" : "None"), yes, attrs, count, nv, fi);
        }
    }

    static final String[] DGX_BUS = {"18", "2a", "3a", "5d", "9a", "ab", "ba", "db"};

    /** DGX H100: 8 GPUs, 4 NVSwitches, 5/4/4/5 links per GPU. */
    static MachineSnapshot dgxH100() {
        Builder b = new Builder("dgx-h100").numa(0, "0-55,112-167").numa(1, "56-111,168-223");
        for (int i = 0; i < 8; i++) {
            b.gpu("0000:" + DGX_BUS[i] + ":00.0", "NVIDIA H100 80GB HBM3", "9.0", i < 4 ? 0 : 1);
        }
        int[] split = {5, 4, 4, 5};
        for (int i = 0; i < 8; i++) {
            for (int s = 0; s < 4; s++) {
                b.toSwitch(i, "0000:0" + (5 + s) + ":00.0", split[s]);
            }
        }
        return b.build();
    }

    /** GB200 NVL72 compute tray: 4 GPUs, 18 links each to off-tray switches, one MNNVL clique. */
    static MachineSnapshot gb200Tray() {
        Builder b = new Builder("gb200-tray").numa(0, "0-71").numa(1, "72-143");
        String[] bus = {"0008:01:00.0", "0009:01:00.0", "0018:01:00.0", "0019:01:00.0"};
        for (int i = 0; i < 4; i++) {
            b.gpu(bus[i], "NVIDIA GB200", "10.0", i < 2 ? 0 : 1).toSwitch(i, null, 18)
                    .mnnvl(i, "7a3c1e52-0d4b-4f8e-9b21-5c6d7e8f9a01", 32766);
        }
        return b.build();
    }

    /** H100 NVL: two pairs bridged with 12 links each. */
    static MachineSnapshot h100NvlPairs() {
        Builder b = new Builder("h100-nvl").numa(0, "0-63");
        for (int i = 0; i < 4; i++) {
            b.gpu("0000:" + DGX_BUS[i] + ":00.0", "NVIDIA H100 NVL", "9.0", 0);
        }
        return b.direct(0, 1, 12).direct(2, 3, 12).build();
    }

    /** 4× L40S behind two PCIe switches, two per NUMA node. */
    static MachineSnapshot l40s() {
        Builder b = new Builder("l40s").numa(0, "0-31").numa(1, "32-63");
        for (int i = 0; i < 4; i++) {
            b.gpu("0000:" + DGX_BUS[i] + ":00.0", "NVIDIA L40S", "8.9", i < 2 ? 0 : 1);
        }
        return b.pcie(0, 1, "PIX").pcie(2, 3, "PXB").build();
    }

    /** One GPU in a pass-through VM: NVLink state not readable. */
    static MachineSnapshot vm() {
        return new Builder("vm").numa(0, "0-15").gpu("0000:00:06.0", "NVIDIA H200", "9.0", 0).hiddenLinks().build();
    }
}
