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

    @Test
    void listsImexChannels() throws Exception {
        write("dev/nvidia-caps-imex-channels/channel0", "");
        assertEquals(java.util.List.of("/dev/nvidia-caps-imex-channels/channel0"), // the device path on the host
                new HostProbe(root).imexChannels().value());
    }
}
