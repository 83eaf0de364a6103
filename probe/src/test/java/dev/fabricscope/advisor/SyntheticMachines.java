package dev.fabricscope.advisor;

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
import dev.fabricscope.model.NvSwitch;
import dev.fabricscope.model.PciAddress;
import dev.fabricscope.model.ProbeInfo;
import dev.fabricscope.model.Reading;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * SYNTHETIC snapshots for advisor tests, following public specs: an HGX H100 board has 8 SM 9.0 GPUs, each with 18
 * NVLink4 links to 4 third-generation NVSwitches (NVIDIA HGX H100 datasheet); a PCIe box has no NVLink. Only the
 * readings the advisor uses are meaningful.
 */
final class SyntheticMachines {
    private SyntheticMachines() {
    }

    static final Reading<String> NA = Reading.missing(Missing.notApplicable("synthetic"));

    /**
     * @param nvswitch every GPU has 18 links to 4 switches (else no NVLink)
     * @param fabricState GPU fabric state (e.g. COMPLETED, IN_PROGRESS, NOT_SUPPORTED)
     */
    static MachineSnapshot board(int n, String sm, boolean nvswitch, boolean multicast, boolean peer, String fabricState) {
        List<Gpu> gpus = new ArrayList<>();
        String[] switches = {"0000:c0:00.0", "0000:c1:00.0", "0000:c2:00.0", "0000:c3:00.0"};
        for (int i = 0; i < n; i++) {
            List<NvLink> links = new ArrayList<>();
            if (nvswitch) {
                for (int l = 0; l < 18; l++) {
                    links.add(new NvLink(l, Reading.of(true), Reading.of(7), Reading.of(4), Reading.of(NvLink.REMOTE_SWITCH),
                            Reading.of(PciAddress.parse(switches[l % 4])), Reading.of(25.0)));
                }
            }
            Reading<Boolean> yes = Reading.of(true);
            CudaAttributes attrs = new CudaAttributes(yes, yes, Reading.of(false), Reading.of(multicast), yes, yes, Reading.of(0));
            Reading<Long> zero = Reading.of(0L);
            FabricInfo fabric = new FabricInfo(Reading.of("nvmlDeviceGetGpuFabricInfoV v3"), Reading.of(fabricState), Reading.of("NVML_SUCCESS"),
                    zero, Reading.of(FabricInfo.ZERO_UUID), zero, Reading.of("NOT_SUPPORTED"));
            gpus.add(new Gpu(pci(i), Reading.of("GPU-synthetic-" + i), Reading.of(i), Reading.of(i), Reading.of("NVIDIA H100 80GB HBM3"), NA,
                    Reading.of("Hopper"), Reading.of(sm), Reading.of(132), Reading.of(80L << 30), Reading.of(0), Reading.of("0-55"),
                    Reading.of("Disabled"), Reading.of("None"), Reading.of(true), attrs, Reading.of(links.size()), links, fabric));
        }
        List<GpuPair> pairs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                Reading<String> nvl = Reading.of(nvswitch ? "OK" : "NS");
                pairs.add(new GpuPair(pci(i), pci(j), Reading.of(nvswitch ? "NV18" : "SYS"), Reading.of("SYS"), Reading.of(nvswitch ? 18 : 0),
                        Reading.of("OK"), Reading.of("OK"), nvl, Reading.of("OK"), Reading.of("OK"), Reading.of(peer), Reading.of(0), Reading.of(true)));
            }
        }
        List<NvSwitch> nvs = new ArrayList<>();
        if (nvswitch) {
            for (int s = 0; s < 4; s++) {
                Map<String, Integer> m = new TreeMap<>();
                for (Gpu g : gpus) {
                    m.put(g.pci().toString(), s < 2 ? 5 : 4);
                }
                nvs.add(new NvSwitch("NVS" + s, Reading.of(PciAddress.parse(switches[s])), m));
            }
        }
        DriverInfo d = new DriverInfo(DriverInfo.Status.OK, null, Reading.of("580.00"), Reading.of("13.0"), Reading.of("13.580"),
                new NcclInfo(Reading.of("/usr/lib/libnccl.so.2"), Reading.of("2.27.3"), List.of()), Reading.of(List.of()), Reading.of(n));
        HostInfo h = new HostInfo(Reading.of("synthetic"), Reading.of("Linux"), Reading.of("6.8"), Reading.of("amd64"), Reading.of("cpu"),
                Reading.of(112), Reading.unavailable("synthetic"));
        return new MachineSnapshot(MachineSnapshot.SCHEMA_VERSION, new ProbeInfo("test", "2026-11-29T00:00:00Z", List.of(), 0L,
                ProbeInfo.Origin.SYNTHETIC, "SYNTHETIC test board"), h, d, gpus, nvs, pairs, Map.of(), List.of());
    }

    static PciAddress pci(int i) {
        return new PciAddress(0, 0x18 + i * 0x10, 0, 0);
    }
}
