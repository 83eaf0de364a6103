package dev.fabricscope.probe;

import dev.fabricscope.model.CudaAttributes;
import dev.fabricscope.model.FabricInfo;
import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.Missing;
import dev.fabricscope.model.NvLink;
import dev.fabricscope.model.PciAddress;
import dev.fabricscope.model.Reading;
import java.util.ArrayList;
import java.util.List;

/** Minimal hand-built GPUs for topology tests (synthetic; only the fields the topology reads are meaningful). */
public final class TestGpus {
    private TestGpus() {
    }

    public static final Reading<String> NA = Reading.missing(Missing.notApplicable("test"));

    public static NvLink link(int i, String remoteType, String remotePci) {
        return new NvLink(i, Reading.of(true), Reading.of(7), Reading.of(4), Reading.of(remoteType),
                remotePci == null ? Reading.missing(Missing.notApplicable("hidden")) : Reading.of(PciAddress.parse(remotePci)),
                Reading.of(25.0));
    }

    public static NvLink inactive(int i) {
        Missing m = Missing.notApplicable("link inactive");
        return new NvLink(i, Reading.of(false), Reading.missing(m), Reading.of(4), Reading.missing(m), Reading.missing(m), Reading.of(25.0));
    }

    public static NvLink unsupported(int i) {
        Missing m = Missing.unsupported("nvmlDeviceGetNvLinkState", "NVML_ERROR_NOT_SUPPORTED", 3);
        return new NvLink(i, Reading.missing(m), Reading.missing(m), Reading.of(4), Reading.missing(m), Reading.missing(m), Reading.of(25.0));
    }

    /** A GPU with {@code perSwitch[k]} links to switch {@code switches[k]} and {@code direct} links to each GPU in {@code peers}. */
    public static Gpu gpu(String pci, String[] switches, int[] perSwitch, String[] peers, int direct) {
        List<NvLink> links = new ArrayList<>();
        int i = 0;
        for (int s = 0; s < switches.length; s++) {
            for (int k = 0; k < perSwitch[s]; k++) {
                links.add(link(i++, NvLink.REMOTE_SWITCH, switches[s]));
            }
        }
        for (String p : peers) {
            for (int k = 0; k < direct; k++) {
                links.add(link(i++, NvLink.REMOTE_GPU, p));
            }
        }
        return gpu(pci, links);
    }

    public static Gpu gpu(String pci, List<NvLink> links) {
        Reading<Boolean> b = Reading.of(true);
        CudaAttributes attrs = new CudaAttributes(b, b, b, b, b, b, Reading.of(0));
        Reading<Long> nl = Reading.missing(Missing.notApplicable("test"));
        FabricInfo fabric = new FabricInfo(NA, NA, NA, nl, NA, nl, NA);
        return new Gpu(PciAddress.parse(pci), Reading.of("GPU-test-" + pci), Reading.of(0), Reading.of(0), Reading.of("NVIDIA H100 80GB HBM3"),
                NA, Reading.of("Hopper"), Reading.of("9.0"), Reading.of(132), Reading.of(85L << 30), Reading.of(0), Reading.of("0-55"),
                Reading.of("Disabled"), Reading.of("None"), Reading.of(true), attrs, Reading.of(links.size()), links, fabric);
    }
}
