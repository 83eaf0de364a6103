package dev.fabricscope.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.fabricscope.model.HostInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** HostProbe over a fake /proc and /sys (shapes copied from an x86 host and a Grace host). */
class HostProbeTest {

    @TempDir
    Path root;

    private void write(String rel, String content) throws Exception {
        Path p = root.resolve(rel);
        Files.createDirectories(p.getParent());
        Files.writeString(p, content);
    }

    @Test
    void readsX86HostAndNumaNodes() throws Exception {
        write("proc/sys/kernel/hostname", "node-a17\n");
        write("proc/sys/kernel/osrelease", "6.8.0-45-generic\n");
        write("etc/os-release", "NAME=\"Ubuntu\"\nPRETTY_NAME=\"Ubuntu 24.04.1 LTS\"\n");
        write("proc/cpuinfo", "processor\t: 0\nmodel name\t: Intel(R) Xeon(R) Platinum 8480C\n");
        write("sys/devices/system/cpu/online", "0-223\n");
        write("sys/devices/system/node/node0/cpulist", "0-55,112-167\n");
        write("sys/devices/system/node/node1/cpulist", "56-111,168-223\n");
        HostInfo h = new HostProbe(root).probe();
        assertEquals("node-a17", h.hostname().value());
        assertEquals("Ubuntu 24.04.1 LTS", h.os().value());
        assertEquals("6.8.0-45-generic", h.kernel().value());
        assertEquals("Intel(R) Xeon(R) Platinum 8480C", h.cpuModel().value());
        assertEquals(224, h.logicalCpus().value());
        assertEquals(2, h.numaNodes().value().size());
        assertEquals("56-111,168-223", h.numaNodes().value().get(1).cpus());
    }

    @Test
    void namesGraceFromItsMidrAndSaysWhyWhenFilesAreMissing() throws Exception {
        write("proc/cpuinfo", "processor\t: 0\nBogoMIPS\t: 2000.00\nCPU implementer\t: 0x41\nCPU part\t: 0xd4f\n");
        HostInfo h = new HostProbe(root).probe();
        assertEquals("Arm Neoverse-V2 (NVIDIA Grace)", h.cpuModel().value());
        assertFalse(h.hostname().isPresent());
        assertFalse(h.numaNodes().isPresent());
        assertEquals(java.util.List.of(), new HostProbe(root).imexChannels().value());
    }

    /**
     * A GH200 host as the kernel's node ABI shows it (Documentation/ABI/stable/sysfs-devices-node: {@code has_cpu},
     * {@code has_memory}, {@code has_normal_memory}, {@code nodeN/cpulist}, {@code nodeN/meminfo}) for the Grace Hopper
     * Superchip of NVIDIA's whitepaper (72 Neoverse V2 cores with LPDDR5X, the H100's HBM3 reached over NVLink-C2C):
     * node 0 the Grace CPU, node 1 the GPU's HBM (onlined movable: in has_memory, not in has_normal_memory), nodes 2-8
     * CPU-less and empty (the driver's MIG placeholders). Sizes are illustrative, not from a machine.
     */
    @Test
    void readsGraceHopperCpuLessGpuMemoryNodes() throws Exception {
        write("proc/cpuinfo", "processor\t: 0\nBogoMIPS\t: 2000.00\nCPU implementer\t: 0x41\nCPU part\t: 0xd4f\n");
        write("sys/devices/system/cpu/online", "0-71\n");
        write("sys/devices/system/node/has_cpu", "0\n");
        write("sys/devices/system/node/has_memory", "0-1\n");
        write("sys/devices/system/node/has_normal_memory", "0\n");
        write("sys/devices/system/node/node0/cpulist", "0-71\n");
        write("sys/devices/system/node/node0/meminfo", "Node 0 MemTotal:       491520000 kB\nNode 0 MemFree:        480000000 kB\n");
        write("sys/devices/system/node/node1/cpulist", "\n");
        write("sys/devices/system/node/node1/meminfo", "Node 1 MemTotal:       99614720 kB\nNode 1 MemFree:         99000000 kB\n");
        for (int n = 2; n <= 8; n++) {
            write("sys/devices/system/node/node" + n + "/cpulist", "\n");
            write("sys/devices/system/node/node" + n + "/meminfo", "Node " + n + " MemTotal:              0 kB\n");
        }
        HostInfo h = new HostProbe(root).probe();
        assertEquals("Arm Neoverse-V2 (NVIDIA Grace)", h.cpuModel().value());
        assertEquals(9, h.numaNodes().value().size());
        assertEquals("0", h.nodesWithCpu().value());
        assertEquals("0-1", h.nodesWithMemory().value());
        assertEquals("0", h.nodesWithNormalMemory().value());
        assertEquals(java.util.List.of(1), h.cpuLessMemoryNodes().stream().map(HostInfo.NumaNode::id).toList());
        assertEquals(99614720L * 1024, h.numaNode(1).memTotalBytes().value());
        assertEquals(0L, h.numaNode(5).memTotalBytes().value());
        assertEquals("", h.numaNode(1).cpus());
    }

    @Test
    void recordsOnlyTheMemTotalLineOfANodesMeminfo() throws Exception {
        write("sys/devices/system/node/node0/cpulist", "0-3\n");
        write("sys/devices/system/node/node0/meminfo", "Node 0 MemTotal:       1024 kB\nNode 0 MemFree:        512 kB\n");
        java.util.List<String> asked = new java.util.ArrayList<>();
        dev.fabricscope.nativeapi.host.FileHost files = new dev.fabricscope.nativeapi.host.FileHost(root, java.util.Map.of(),
                n -> false, n -> false);
        dev.fabricscope.nativeapi.host.HostCalls spy = (dev.fabricscope.nativeapi.host.HostCalls) java.lang.reflect.Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {dev.fabricscope.nativeapi.host.HostCalls.class}, (p, m, a) -> {
                    if (a != null && a.length > 0 && String.valueOf(a[0]).endsWith("meminfo")) {
                        asked.add(m.getName() + " " + java.util.Arrays.toString(a));
                    }
                    return m.invoke(files, a);
                });
        HostInfo h = new HostProbe(spy).probe();
        assertEquals(1024L * 1024, h.numaNode(0).memTotalBytes().value());
        assertEquals(java.util.List.of("fileFields [/sys/devices/system/node/node0/meminfo, [Node 0 MemTotal]]"), asked);
        // no has_cpu on this tree: not applicable, and the CPU-less test falls back to the nodes' own readings
        assertFalse(h.nodesWithCpu().isPresent());
        assertEquals(java.util.List.of(), h.cpuLessMemoryNodes());
    }

    @Test
    void aMalformedNodeSizeOrMaskIsInvalidNotAGap() throws Exception {
        write("sys/devices/system/node/has_memory", "zero\n");
        write("sys/devices/system/node/node0/cpulist", "0-3\n");
        write("sys/devices/system/node/node0/meminfo", "Node 0 MemTotal:       lots\n");
        HostInfo h = new HostProbe(root).probe();
        assertEquals(dev.fabricscope.model.Missing.Kind.INVALID, h.nodesWithMemory().missing().kind());
        assertEquals(dev.fabricscope.model.Missing.Kind.INVALID, h.numaNode(0).memTotalBytes().missing().kind());
    }

    @Test
    void listsImexChannels() throws Exception {
        write("dev/nvidia-caps-imex-channels/channel0", "");
        assertEquals(java.util.List.of("/dev/nvidia-caps-imex-channels/channel0"), // the device path on the host
                new HostProbe(root).imexChannels().value());
    }
}
