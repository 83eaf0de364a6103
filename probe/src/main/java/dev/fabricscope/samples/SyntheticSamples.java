package dev.fabricscope.samples;

import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.samples.SyntheticMachine.GpuModel;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Synthetic sample machines, each labelled with the public specifications it follows. Where a public nvidia-smi
 * output of such a system shows a value NVML reports (bus ids, framebuffer MiB, CPU affinity), the sample uses it;
 * everything else no public source states is a "not in public spec" reading. Identifiers are fake (see
 * {@link SyntheticMachine}). Every sample runs the same software stack: driver 580.126.20 (CUDA 13.0), NCCL 2.28.3
 * installed system-wide, on Ubuntu 24.04; the OS and kernel strings are illustrative, not taken from a spec.
 */
final class SyntheticSamples {

    private static final String DRIVER = "580.126.20";
    private static final String CUDA = "13.0";
    private static final String NCCL = "2.28.3";
    private static final String OS = "Ubuntu 24.04.3 LTS";
    private static final String KERNEL_X86 = "6.8.0-87-generic";
    private static final String KERNEL_GRACE = "6.8.0-1036-nvidia-64k";
    private static final String SINGLE_NODE_CLUSTER = "00000000-0000-0000-0000-000000000000";

    /** DGX H100 / HGX H100 and B200 8-GPU boards: GPU bus ids as public nvidia-smi outputs of these systems show. */
    private static final String[] HGX_BUS_IDS = {"0000:1b:00.0", "0000:43:00.0", "0000:52:00.0", "0000:61:00.0",
        "0000:9d:00.0", "0000:c3:00.0", "0000:d1:00.0", "0000:df:00.0"};
    /**
     * The compute-fabric adapters of DGX H100 and DGX B200 (User Guides, datasheets: 8x single-port ConnectX-7 VPI,
     * 400 Gb/s InfiniBand NDR, one per GPU behind the same PCIe switch). Their buses follow the DGX H100 User Guide's
     * interface names ({@code ibp24s0}, {@code ibp64s0}, … {@code ibp220s0}); the storage adapters (2x dual-port
     * ConnectX-7 or BlueField-3) are left out; the PCIe bridges between are illustrative.
     */
    private static final String[] HGX_NIC_BUS_IDS = {"0000:18:00.0", "0000:40:00.0", "0000:4f:00.0", "0000:5e:00.0",
        "0000:9a:00.0", "0000:c0:00.0", "0000:ce:00.0", "0000:dc:00.0"};
    private static final String CX7 = "ConnectX-7 (MT4129)";
    private static final String NDR = "400 Gb/sec (4X NDR)";
    /** Two 56-core sockets with SMT (Xeon 8480C in DGX H100, 8570 in DGX B200). */
    private static final List<String> TWO_56_CORE_SOCKETS = List.of("0-55,112-167", "56-111,168-223");

    private SyntheticSamples() {
    }

    /** Receives each synthetic machine: its name, its one-line description and how to build it. */
    @FunctionalInterface
    interface Sink {
        void add(String name, String description, Supplier<MachineSnapshot> snapshot);
    }

    /** Hands every synthetic machine to {@code sink}, in the order {@code fabricscope samples} lists them. */
    static void addTo(Sink sink) {
        for (Entry e : List.of(
                new Entry("dgx-h100", "SYNTHETIC: NVIDIA DGX H100, 8× H100 80GB HBM3 SXM5, 4 NVSwitches, 18 NVLink4 links per GPU,"
                        + " 8× ConnectX-7 400 Gb/s one per GPU (DGX H100 User Guide, H100 datasheet, Hopper whitepaper); UUIDs and serials are fake", SyntheticSamples::dgxH100),
                new Entry("hgx-b200", "SYNTHETIC: NVIDIA HGX B200 board as in DGX B200, 8× B200, 2 NVSwitch chips, 18 NVLink5 links"
                        + " per GPU, 8× ConnectX-7 400 Gb/s (DGX B200 User Guide and datasheet, Blackwell whitepaper); NVSwitch PCI ids are placeholders, UUIDs and serials fake", SyntheticSamples::hgxB200),
                new Entry("gb200-nvl72-tray", "SYNTHETIC: one GB200 NVL72 compute tray, 2 Grace (Neoverse V2) + 4 B200, GPUs on"
                        + " NVLink-C2C to their Grace, 32 CPU-less GPU NUMA nodes, 18 NVLink5 links per GPU to switch trays,"
                        + " 4× ConnectX-7, MNNVL clique (GB200 NVL72 datasheet, Blackwell whitepaper, Grace CPU datasheet);"
                        + " cluster UUID, GPU UUIDs and serials are fake", SyntheticSamples::gb200Tray),
                new Entry("dgx-a100", "SYNTHETIC: NVIDIA DGX A100, 8× A100-SXM4-80GB, 6 NVSwitches, 12 NVLink3 links per GPU"
                        + " (DGX A100 User Guide, A100 datasheet, Ampere whitepaper); UUIDs and serials are fake", SyntheticSamples::dgxA100),
                new Entry("h100-nvl-pairs", "SYNTHETIC: 4× H100 NVL, NVLink bridges joining GPU0-1 and GPU2-3 (12 links),"
                        + " PCIe otherwise (H100 NVL product brief); host, bus ids, UUIDs and serials are illustrative", SyntheticSamples::h100NvlPairs),
                new Entry("rtx-pro-6000-2x", "SYNTHETIC: 2× RTX PRO 6000 Blackwell Server Edition, SM 12.0, PCIe only"
                        + " (RTX PRO 6000 Blackwell Server Edition datasheet); host, bus ids, UUIDs and serials are illustrative", SyntheticSamples::rtxPro6000),
                new Entry("l40s-4x", "SYNTHETIC: 4× L40S, SM 8.9, PCIe only (L40S datasheet, Ada whitepaper);"
                        + " host, bus ids, UUIDs and serials are illustrative", SyntheticSamples::l40s))) {
            sink.add(e.name, e.description, () -> e.machine.get().describedAs(e.description).build());
        }
    }

    private record Entry(String name, String description, Supplier<SyntheticMachine> machine) {
    }

    /**
     * DGX H100 User Guide: 8x H100 SXM5 80 GB, 4 third-generation NVSwitches, 2x Xeon Platinum 8480C (56 cores each).
     * H100 datasheet: 132 SMs, NVLink4 900 GB/s = 18 links. NVSwitch bus ids and the link-to-switch wiring (4/5/5/4
     * links to the switches in PCI order) follow a public {@code nvidia-smi nvlink -R} of an 8x H100 board
     * (NVIDIA/nccl#1182); a single-node fabric registers COMPLETED with an all-zero cluster UUID.
     */
    private static SyntheticMachine dgxH100() {
        SyntheticMachine m = SyntheticMachine.tagged(0x0001)
                .host("dgx-h100-sample", OS, KERNEL_X86, "amd64", "Intel(R) Xeon(R) Platinum 8480C", TWO_56_CORE_SOCKETS)
                .driver(DRIVER, CUDA).systemNccl(NCCL).env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64")
                .gpuModel(GpuModel.of("NVIDIA H100 80GB HBM3", "Hopper", "9.0").sms(132).memoryMiB(81559).mig(true)
                        .fabricHandles(true).multicast(true).gpuDirectRdma(true));
        eightOnTwoSockets(m);
        return m.nvSwitches(List.of("0000:05:00.0", "0000:06:00.0", "0000:07:00.0", "0000:08:00.0"),
                        2, 2, 1, 1, 2, 2, 1, 1, 0, 0, 2, 1, 3, 3, 0, 0, 3, 3)
                .fabricCompleted(SINGLE_NODE_CLUSTER, 0, null, null)
                .rdmaNicPerGpuUnderSwitch(CX7, NDR, HGX_NIC_BUS_IDS).services("active", "inactive");
    }

    /**
     * DGX B200 datasheet / User Guide: 8x B200 (1,440 GB in all), 2 fifth-generation NVSwitch chips, NVLink5 1.8 TB/s
     * per GPU = 18 links, 2x Xeon Platinum 8570 (56 cores each). 148 SMs and 183359 MiB as public outputs show.
     * The NVSwitch chips' PCI addresses are not published: the two here are placeholders.
     */
    private static SyntheticMachine hgxB200() {
        SyntheticMachine m = SyntheticMachine.tagged(0x0002)
                .host("hgx-b200-sample", OS, KERNEL_X86, "amd64", "INTEL(R) XEON(R) PLATINUM 8570", TWO_56_CORE_SOCKETS)
                .driver(DRIVER, CUDA).systemNccl(NCCL).env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64")
                .gpuModel(GpuModel.of("NVIDIA B200", "Blackwell", "10.0").sms(148).memoryMiB(183359).mig(true)
                        .fabricHandles(true).multicast(true).gpuDirectRdma(true));
        eightOnTwoSockets(m);
        return m.nvSwitches(List.of("0000:05:00.0", "0000:06:00.0"), 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1)
                .fabricCompleted(SINGLE_NODE_CLUSTER, 0, null, null)
                .rdmaNicPerGpuUnderSwitch(CX7, NDR, HGX_NIC_BUS_IDS).services("active", "inactive");
    }

    /**
     * GB200 NVL72 datasheet: 18 compute trays of 2 GB200 superchips (1 Grace with 72 Arm cores + 2 B200 each),
     * NVLink5 1.8 TB/s per GPU = 18 links to 9 NVLink switch trays, which the tray's OS cannot see on PCI (NCCL's
     * sentinel case: one switch of unknown count). Bus ids, 189471 MiB, CPU affinity and the NUMA layout (nodes 0-1
     * the Grace CPUs, 2-33 CPU-less GPU memory nodes, 8 per GPU) as public outputs of such trays show; each GPU's
     * host NUMA node is its Grace's. An MNNVL fabric: COMPLETED,
     * a non-zero cluster UUID (fake here) and a clique id; health mask 0xaa (every health field FALSE) and summary
     * HEALTHY as an NCCL log of such a tray shows (NVIDIA/nccl#1769). IMEX channel 0 exists for fabric handles.
     * The SM count and the PCIe common ancestor are not published. NICs: 4x ConnectX-7 400 Gb/s per compute tray,
     * one per GPU (GB200 NVL72 reference architecture), on the Grace PCIe root complexes (addresses illustrative);
     * services: IMEX runs on compute trays, the fabric manager on the NVLink switch trays, not here.
     * Grace host facts: the CPU as the probe names it from /proc/cpuinfo's MIDR (implementer 0x41, part 0xd4f:
     * Neoverse V2, the Grace CPU datasheet's core); CPUs on nodes 0-1 only (has_cpu), GPUs 0-1 near node 0 and 2-3 near
     * node 1 as a GB200 tray's public layout shows (ishandhanani/srt-slurm#164; GH200's 1 + 8 per GPU CPU-less nodes:
     * bytedance/xpu-perf#129, NVIDIA/mlperf-common#16). Which CPU-less node holds each GPU's HBM, the nodes' sizes and
     * the has_memory mask are in no public output: not in public spec. NVLink-C2C joins each B200 to its Grace
     * (GB200 NVL72 datasheet: 900 GB/s NVLink-C2C); the C2C link count is not published.
     */
    private static SyntheticMachine gb200Tray() {
        List<String> numa = new ArrayList<>(List.of("0-71", "72-143"));
        for (int n = 2; n <= 33; n++) {
            numa.add("");
        }
        return SyntheticMachine.tagged(0x0003)
                .host("gb200-tray-sample", OS, KERNEL_GRACE, "aarch64", "Arm Neoverse-V2 (NVIDIA Grace)", numa)
                .nodeFacts(dev.fabricscope.model.Reading.of("0-1"), SyntheticMachine.notInSpec(), SyntheticMachine.notInSpec(),
                        SyntheticMachine.notInSpec())
                .c2c(SyntheticMachine.notInSpec(), SyntheticMachine.notInSpec())
                .driver(DRIVER, CUDA).systemNccl(NCCL).env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64")
                .imexChannels("/dev/nvidia-caps-imex-channels/channel0")
                .gpuModel(GpuModel.of("NVIDIA GB200", "Blackwell", "10.0").memoryMiB(189471).mig(true)
                        .fabricHandles(true).multicast(true).gpuDirectRdma(true))
                .gpu("0008:01:00.0", 0, "0-71").gpu("0009:01:00.0", 0, "0-71")
                .gpu("0018:01:00.0", 1, "72-143").gpu("0019:01:00.0", 1, "72-143")
                .hiddenNvSwitches(18)
                .pcieTopologyUnknown()
                .fabricCompleted("00000000-0000-4000-8000-000000000001", 0x7ffe, 0xaaL, "HEALTHY")
                .rdmaNicsOnOwnHostBridges(CX7, NDR, new int[] {0, 0, 1, 1}, "0000:03:00.0", "0002:03:00.0", "0010:03:00.0", "0012:03:00.0")
                .services("not installed", "active");
    }

    /**
     * DGX A100 User Guide: 8x A100 SXM4 80 GB, 6 second-generation NVSwitches, each GPU 12 NVLink3 links (2 to each
     * switch), 2x AMD EPYC 7742 (64 cores each) in NPS4 (8 NUMA nodes); GPUs in pairs behind shared PCIe switches.
     * A100 datasheet: 108 SMs; no multicast and no fabric handles before Hopper. Bus ids, NVSwitch ids and CPU
     * affinity as public outputs of DGX A100 show (NVIDIA/nccl#1505); NVLink version code 5 as hwloc#658 reports.
     * NVML documents the GPU fabric call for Hopper and newer: here it answers NOT_SUPPORTED.
     */
    private static SyntheticMachine dgxA100() {
        List<String> numa = new ArrayList<>();
        for (int n = 0; n < 8; n++) {
            numa.add((16 * n) + "-" + (16 * n + 15) + "," + (128 + 16 * n) + "-" + (128 + 16 * n + 15));
        }
        String[] bus = {"0000:07:00.0", "0000:0f:00.0", "0000:47:00.0", "0000:4e:00.0", "0000:87:00.0", "0000:90:00.0",
            "0000:b7:00.0", "0000:bd:00.0"};
        int[] node = {3, 3, 1, 1, 7, 7, 5, 5};
        SyntheticMachine m = SyntheticMachine.tagged(0x0004)
                .host("dgx-a100-sample", OS, KERNEL_X86, "amd64", "AMD EPYC 7742 64-Core Processor", numa)
                .driver(DRIVER, CUDA).systemNccl(NCCL).env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64")
                .gpuModel(GpuModel.of("NVIDIA A100-SXM4-80GB", "Ampere", "8.0").sms(108).memoryMiB(81920).mig(true)
                        .fabricHandles(false).multicast(false).gpuDirectRdma(true).nvLinkVersionCode(5));
        for (int i = 0; i < 8; i++) {
            m.gpuBehindSwitch(bus[i], node[i], numa.get(node[i]), "pcie-switch-" + i / 2);
        }
        return m.nvSwitches(List.of("0000:c4:00.0", "0000:c5:00.0", "0000:c6:00.0", "0000:c7:00.0", "0000:c8:00.0", "0000:c9:00.0"),
                        0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5)
                .fabricCallUnsupported();
    }

    /**
     * H100 NVL product brief: 94 GB HBM3 (95830 MiB as NVML reports), 132 SMs, pairs joined by NVLink bridges at
     * 600 GB/s (12 NVLink4 links), PCIe Gen5 otherwise; no NVSwitch, hence no multicast. Fabric handles as the
     * captured Hopper GPU without NVSwitch reports them (h200-vm). The single-socket host is illustrative.
     */
    private static SyntheticMachine h100NvlPairs() {
        return SyntheticMachine.tagged(0x0005)
                .host("h100-nvl-sample", OS, KERNEL_X86, "amd64", "Intel(R) Xeon(R) Platinum 8462Y+", List.of("0-63"))
                .driver(DRIVER, CUDA).systemNccl(NCCL).env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64")
                .gpuModel(GpuModel.of("NVIDIA H100 NVL", "Hopper", "9.0").sms(132).memoryMiB(95830).mig(true)
                        .fabricHandles(true).multicast(false).gpuDirectRdma(true))
                .gpu("0000:17:00.0", 0, "0-63").gpu("0000:3d:00.0", 0, "0-63")
                .gpu("0000:63:00.0", 0, "0-63").gpu("0000:89:00.0", 0, "0-63")
                .nvLinkBridge(0, 1, 12).nvLinkBridge(2, 3, 12)
                .fabricNotSupported();
    }

    /**
     * RTX PRO 6000 Blackwell Server Edition datasheet: 96 GB GDDR7 (97887 MiB as NVML reports), 24,064 CUDA cores
     * (188 SMs), MIG, PCIe Gen5, no NVLink. GPUDirect RDMA: CUDA documents it for professional (Quadro-class) GPUs.
     * The single-socket host is illustrative.
     */
    private static SyntheticMachine rtxPro6000() {
        return SyntheticMachine.tagged(0x0006)
                .host("rtx-pro-6000-sample", OS, KERNEL_X86, "amd64", "Intel(R) Xeon(R) Gold 6448Y", List.of("0-63"))
                .driver(DRIVER, CUDA).systemNccl(NCCL).env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64")
                .gpuModel(GpuModel.of("NVIDIA RTX PRO 6000 Blackwell Server Edition", "Blackwell", "12.0").sms(188)
                        .memoryMiB(97887).mig(true).multicast(false).gpuDirectRdma(true))
                .gpu("0000:1a:00.0", 0, "0-63").gpu("0000:3b:00.0", 0, "0-63")
                .fabricNotSupported();
    }

    /**
     * L40S datasheet: 48 GB GDDR6 (46068 MiB as NVML reports), 18,176 CUDA cores (142 SMs), PCIe Gen4, no NVLink,
     * no MIG. Ada predates Hopper: the GPU fabric call answers NOT_SUPPORTED. The single-socket host is illustrative.
     */
    private static SyntheticMachine l40s() {
        return SyntheticMachine.tagged(0x0007)
                .host("l40s-sample", OS, KERNEL_X86, "amd64", "Intel(R) Xeon(R) Gold 6448Y", List.of("0-63"))
                .driver(DRIVER, CUDA).systemNccl(NCCL).env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64")
                .gpuModel(GpuModel.of("NVIDIA L40S", "Ada", "8.9").sms(142).memoryMiB(46068).mig(false)
                        .multicast(false).gpuDirectRdma(true))
                .gpu("0000:1a:00.0", 0, "0-63").gpu("0000:3b:00.0", 0, "0-63")
                .gpu("0000:9a:00.0", 0, "0-63").gpu("0000:bb:00.0", 0, "0-63")
                .fabricCallUnsupported();
    }

    private static void eightOnTwoSockets(SyntheticMachine m) {
        for (int i = 0; i < 8; i++) {
            m.gpu(HGX_BUS_IDS[i], i / 4, TWO_56_CORE_SOCKETS.get(i / 4));
        }
    }
}
