package dev.fabricscope.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.model.HostInfo;
import dev.fabricscope.model.HostLink;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.nativeapi.trace.TraceIO;
import dev.fabricscope.render.SnapshotText;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Issue 27 item 4 on a real machine: the host-link (NVLink-C2C) and NUMA readings recorded on the H200 pass-through VM,
 * replayed through this build, against a C reader of the same NVML calls, nvidia-smi and the kernel's node files of
 * the same call (the folder's README).
 */
class HostLinkCapturedTest {

    static final Path DIR = Path.of("src/test/resources/captured/h200-passthrough-1gpu-2026-12-02-c2c");

    static MachineSnapshot replayed() throws Exception {
        return TraceReplay.replay(TraceIO.read(Files.readAllBytes(DIR.resolve("trace.json")), DIR.toString()), "c2c");
    }

    static String reader(String pattern) throws Exception {
        Matcher m = Pattern.compile(pattern).matcher(Files.readString(DIR.resolve("nvml-c2c.txt")));
        assertTrue(m.find(), pattern);
        return m.group(1);
    }

    @Test
    void theHostLinkIsWhatTheCReaderAndNvidiaSmiRead() throws Exception {
        HostLink link = replayed().gpus().get(0).hostLink();
        // nvmlDeviceGetC2cModeInfoV answers: rc=0, isC2cEnabled=0 (the C reader); nvidia-smi: no device supports C2C
        assertEquals("0", reader("nvmlDeviceGetC2cModeInfoV rc=(\\d+)"));
        assertEquals(!reader("isC2cEnabled=(\\d+)").equals("0"), link.c2cEnabled().value());
        assertEquals("No Devices support C2C.", Files.readString(DIR.resolve("smi-c2c.txt")).strip());
        // the link count's field answered NOT_SUPPORTED (nvmlReturn=3): a reading that names the call and the code
        assertEquals("3", reader("nvmlDeviceGetFieldValues\\(170, scope 0\\) rc=0 nvmlReturn=(\\d+)"));
        assertFalse(link.c2cLinkCount().isPresent());
        assertEquals(3, link.c2cLinkCount().missing().codeValue());
        assertTrue(link.c2cLinkCount().missing().call().contains("NVML_FI_DEV_C2C_LINK_COUNT"));
        assertEquals(List.of(), link.c2cLinks());
        assertEquals("3", reader("nvmlDeviceGetNumaNodeId rc=(\\d+)"));
        assertEquals("NVML_ERROR_NOT_SUPPORTED", link.memoryNumaNode().missing().code());
    }

    @Test
    void theNumaNodesAreWhatTheKernelSays() throws Exception {
        MachineSnapshot s = replayed();
        String numa = Files.readString(DIR.resolve("numa.txt"));
        HostInfo host = s.host();
        assertEquals(List.of(), host.cpuLessMemoryNodes(), "has_cpu 0 = has_memory 0: every memory node has CPUs");
        List<HostInfo.NumaNode> nodes = host.numaNodes().value();
        assertEquals(1, nodes.size());
        assertEquals("0-15", nodes.get(0).cpus());
        Matcher kb = Pattern.compile("Node 0 MemTotal:\\s+(\\d+) kB").matcher(numa);
        assertTrue(kb.find());
        // the probe read 4,680,656 kB when it recorded, the shell 4,811,728 kB seconds later: this VM's node grew by
        // 128 MiB between the two reads (memory added to the guest), so the two agree within that, not exactly
        long kernel = Long.parseLong(kb.group(1)) * 1024;
        assertEquals(4_680_656L * 1024, nodes.get(0).memTotalBytes().value(), "what the recorded fileFields answer holds");
        assertEquals(kernel, nodes.get(0).memTotalBytes().value(), 0.05 * kernel);
        String text = SnapshotText.render(s);
        assertFalse(text.contains("\nNUMA:"), "no NUMA line without CPU-less nodes");
        assertTrue(text.contains("GPU0  disabled    N/S"), text);
    }
}
