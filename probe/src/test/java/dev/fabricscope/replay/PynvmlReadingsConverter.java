package dev.fabricscope.replay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.fabricscope.json.Json;
import dev.fabricscope.nativeapi.nvml.NvmlCalls;
import dev.fabricscope.nativeapi.nccl.NcclCalls;
import dev.fabricscope.nativeapi.trace.NativeTrace;
import dev.fabricscope.nativeapi.trace.TraceCall;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns the readings of the two-GPU NVSwitch H200 machine (captured 2026-11-30 with pynvml and cuda-bindings, see
 * that folder's README) into a native-call trace, so that the unchanged probe replays them. Every answer comes from
 * a reading of that machine: NVML and CUDA calls from {@code nvml-cuda-readings.json}; the GPU fabric struct, memory
 * and persistence from {@code nvidia-smi -q} of the same kind of machine (pynvml's fabric call failed); CPU and NUMA
 * affinity from {@code nvidia-smi topo -m}; link speeds from {@code nvidia-smi nvlink -s}; the NCCL libraries and environment from the README. Calls nothing
 * answered (host files, serials, field values) are left out: the replay reports them as not in the trace.
 * {@code cuDeviceGetPCIBusId} is not among the readings; it is derived from the recorded PCI domain and bus
 * attributes (50, 33), matched to NVML's devices in order, as CUDA orders equal GPUs by PCI address.
 */
public final class PynvmlReadingsConverter {

    private final ObjectMapper m = Json.mapper();
    private final List<TraceCall> calls = new ArrayList<>();

    public static NativeTrace convert(Path dir) throws IOException {
        return new PynvmlReadingsConverter().run(dir);
    }

    private void add(String lib, String call, Object[] args, int rc, Object value) {
        calls.add(new TraceCall(calls.size(), lib, call, m.valueToTree(args), rc, value == null ? null : m.valueToTree(value), null, null, null));
    }

    private static Object[] args(Object... a) {
        return a;
    }

    private NativeTrace run(Path dir) throws IOException {
        JsonNode r = m.readTree(Files.readString(dir.resolve("nvml-cuda-readings.json")));
        String smi = Files.readString(dir.resolve("nvidia-smi-q.txt"));
        String topo = Files.readString(dir.resolve("nvidia-smi-topo.txt"));
        String nvlinkStatus = Files.readString(dir.resolve("nvlink-status.txt"));
        int count = r.get("count").asInt();

        add("nvml", "load", args(), 0, "libnvidia-ml.so.1");
        add("nvml", "nvmlInit_v2", args(), 0, null);
        add("nvml", "nvmlSystemGetDriverVersion", args(), 0, r.get("driver").asText());
        add("nvml", "nvmlSystemGetNVMLVersion", args(), 0, r.get("nvmlVersion").asText());
        add("nvml", "nvmlSystemGetCudaDriverVersion_v2", args(), 0, r.get("cudaDriver").asInt());
        add("nvml", "nvmlDeviceGetCount_v2", args(), 0, count);
        List<String> fbTotal = all(smi, "FB Memory Usage\\s+Total\\s+: (\\d+) MiB");
        List<String> fbUsed = all(smi, "FB Memory Usage\\s+Total[^\\n]*\\n[^\\n]*Reserved[^\\n]*\\n\\s+Used\\s+: (\\d+) MiB");
        List<String> persistence = all(smi, "Persistence Mode\\s+: (\\w+)");
        for (JsonNode g : r.get("gpus")) {
            int i = g.get("index").asInt();
            add("nvml", "nvmlDeviceGetHandleByIndex_v2", args(i), 0, null);
            add("nvml", "nvmlDeviceGetName", args(i), 0, g.get("name").asText());
            add("nvml", "nvmlDeviceGetUUID", args(i), 0, g.get("uuid").asText());
            JsonNode p = g.get("pci");
            add("nvml", "nvmlDeviceGetPciInfo_v3", args(i), 0, pci(p));
            add("nvml", "nvmlDeviceGetCudaComputeCapability", args(i), 0, new int[] {g.get("cc").get(0).asInt(), g.get("cc").get(1).asInt()});
            answer("nvml", "nvmlDeviceGetVirtualizationMode", args(i), g.get("virtMode"));
            answer("nvml", "nvmlDeviceGetNumaNodeId", args(i), g.get("numaNode"));
            answer("nvml", "nvmlDeviceGetMigMode", args(i), g.get("migMode"));
            answer("nvml", "nvmlDeviceGetArchitecture", args(i), g.get("arch"));
            long mib = 1024L * 1024L;
            long total = Long.parseLong(fbTotal.get(i)) * mib;
            long used = Long.parseLong(fbUsed.get(i)) * mib;
            add("nvml", "nvmlDeviceGetMemoryInfo", args(i), 0, new long[] {total, total - used, used});
            add("nvml", "nvmlDeviceGetPersistenceMode", args(i), 0, persistence.get(i).equals("Enabled") ? 1 : 0);
            String cpus = row(topo, "GPU" + i).get("cpu");
            add("nvml", "nvmlDeviceGetCpuAffinity", args(i, 64), 0, mask(cpus, 64));
            add("nvml", "nvmlDeviceGetMemoryAffinity", args(i, 16, 0), 0, mask(row(topo, "GPU" + i).get("numa"), 16));
            fabric(i, smi);
            for (JsonNode l : g.get("links")) {
                int link = l.get("link").asInt();
                answer("nvml", "nvmlDeviceGetNvLinkState", args(i, link), l.get("state"));
                answer("nvml", "nvmlDeviceGetNvLinkVersion", args(i, link), l.get("version"));
                JsonNode rp = l.get("remotePci");
                if (rp.get("ok").asBoolean()) {
                    add("nvml", "nvmlDeviceGetNvLinkRemotePciInfo_v2", args(i, link), 0, pci(rp.get("value")));
                }
                answer("nvml", "nvmlDeviceGetNvLinkRemoteDeviceType", args(i, link), l.get("remoteType"));
                Iterator<Map.Entry<String, JsonNode>> caps = l.get("caps").fields();
                while (caps.hasNext()) {
                    Map.Entry<String, JsonNode> c = caps.next();
                    answer("nvml", "nvmlDeviceGetNvLinkCapability", args(i, link, Integer.parseInt(c.getKey())), c.getValue());
                }
            }
            linkSpeeds(i, nvlinkStatus);
            Iterator<Map.Entry<String, JsonNode>> peers = g.get("p2p").fields();
            while (peers.hasNext()) {
                Map.Entry<String, JsonNode> peer = peers.next();
                int j = Integer.parseInt(peer.getKey());
                Iterator<Map.Entry<String, JsonNode>> caps = peer.getValue().fields();
                while (caps.hasNext()) {
                    Map.Entry<String, JsonNode> c = caps.next();
                    if (c.getKey().equals("topo")) {
                        answer("nvml", "nvmlDeviceGetTopologyCommonAncestor", args(i, j), c.getValue());
                    } else {
                        answer("nvml", "nvmlDeviceGetP2PStatus", args(i, j, Integer.parseInt(c.getKey())), c.getValue());
                    }
                }
            }
        }
        moreReadings(m.readTree(Files.readString(dir.resolve("nvml-more-readings.json"))));
        add("nvml", "nvmlShutdown", args(), 0, null);

        add("cuda", "load", args(), 0, "libcuda.so.1");
        add("cuda", "cuInit", args(0), 0, null);
        add("cuda", "cuDriverGetVersion", args(), 0, r.get("cudaDriver").asInt());
        add("cuda", "cuDeviceGetCount", args(), 0, r.get("cuda").size());
        List<JsonNode> nvmlGpus = new ArrayList<>();
        r.get("gpus").forEach(nvmlGpus::add);
        for (JsonNode c : r.get("cuda")) {
            int ord = c.get("ordinal").asInt();
            add("cuda", "cuDeviceGet", args(ord), 0, ord);
            Iterator<Map.Entry<String, JsonNode>> f = c.fields();
            while (f.hasNext()) {
                Map.Entry<String, JsonNode> e = f.next();
                String k = e.getKey();
                if (k.matches("\\d+")) {
                    ArrayNode a = (ArrayNode) e.getValue();
                    add("cuda", "cuDeviceGetAttribute", args(Integer.parseInt(k), ord), a.get(0).asText().equals("CUDA_SUCCESS") ? 0 : 1,
                            a.get(1).asInt());
                } else if (k.startsWith("canAccessPeer")) {
                    add("cuda", "cuDeviceCanAccessPeer", args(ord, Integer.parseInt(k.substring(13))), cuResult(e.getValue().asText()),
                            cuValue(e.getValue().asText()));
                } else if (k.startsWith("p2pAttr")) {
                    String[] parts = k.substring(7).split("_");
                    add("cuda", "cuDeviceGetP2PAttribute", args(Integer.parseInt(parts[0]), ord, Integer.parseInt(parts[1])),
                            cuResult(e.getValue().asText()), cuValue(e.getValue().asText()));
                }
            }
            int domain = c.get("50").get(1).asInt();
            int bus = c.get("33").get(1).asInt();
            JsonNode match = nvmlGpus.stream().filter(n -> n.get("pci").get("domain").asInt() == domain
                    && n.get("pci").get("bus").asInt() == bus).skip(ord).findFirst().orElse(nvmlGpus.get(ord));
            add("cuda", "cuDeviceGetPCIBusId", args(ord), 0,
                    String.format("%04X:%02X:%02X.0", domain, bus, match.get("pci").get("device").asInt()));
        }

        String venvNccl = "/opt/torch/.venv/lib/python3.12/site-packages/nvidia/nccl/lib/libnccl.so.2";
        add("nccl", "libraryCandidates", new Object[] {null}, 0, List.of(new NcclCalls.Candidate(venvNccl, true),
                new NcclCalls.Candidate("/usr/lib/x86_64-linux-gnu/libnccl.so.2", true)));
        add("nccl", "ncclGetVersion", args(venvNccl), 0, 22809);

        add("host", "systemProperty", args("os.arch"), 0, "amd64");
        add("host", "readLines", args("/sys/devices/system/cpu/online"), 0, List.of("0-31"));
        add("host", "listDirectory", args("/sys/devices/system/node", "node[0-9]*"), 0, List.of("node0"));
        add("host", "readLines", args("/sys/devices/system/node/node0/cpulist"), 0, List.of("0-31"));
        add("host", "listDirectory", args("/dev/nvidia-caps-imex-channels", "*"), 2, null);
        // nvidia-smi-health-and-pci.txt: /sys/class/infiniband is empty, /sys/class/net holds eth0 (virtio under
        // 0000:00:03.0) and three virtual interfaces whose device links do not exist; systemctl is absent.
        add("host", "listDirectory", args("/sys/class/infiniband", "*"), 0, List.of());
        add("host", "listDirectory", args("/sys/class/net", "*"), 0, List.of("eth0", "ifb0", "ifb1", "lo"));
        add("host", "realPath", args("/sys/class/net/eth0/device"), 0, "/sys/devices/pci0000:00/0000:00:03.0/virtio2");
        for (String virtual : List.of("ifb0", "ifb1", "lo")) {
            add("host", "realPath", args("/sys/class/net/" + virtual + "/device"), 2, null);
        }
        // the host seam answers only allow-listed variables (issue 25): NVSHMEM_DISABLE_NVLS=1 was also set there
        add("host", "environment", args(), 0, dev.fabricscope.probe.EnvironmentFilter.filter(Map.of("NCCL_NVLS_ENABLE", "0",
                "TORCH_SYMM_MEM_DISABLE_MULTICAST", "1", "NVSHMEM_DISABLE_NVLS", "1")));
        return new NativeTrace(NativeTrace.FORMAT, NativeTrace.VERSION, null, "2026-11-30T00:00:00Z", List.of("fabricscope", "probe"),
                null, "converted from pynvml/cuda-bindings readings and nvidia-smi outputs (-q, topo -m, nvlink -s) of "
                + "2x H200 NVSwitch VMs (2026-11-30), not recorded by Fabricscope; health and link error counters from "
                + "nvml-more-readings.json (a third host of the kind); NICs from its /sys/class listings; other host files not captured", calls, null);
    }

    /** The NVML calls of the health readings this build makes, as {@code nvml-more-readings.json} answered them. */
    private static final java.util.Set<String> HEALTH_CALLS = java.util.Set.of("nvmlDeviceGetNvLinkErrorCounter", "nvmlDeviceGetEccMode",
            "nvmlDeviceGetTotalEccErrors", "nvmlDeviceGetRemappedRows", "nvmlDeviceGetRetiredPages_v2",
            "nvmlDeviceGetCurrentClocksEventReasons", "nvmlDeviceGetCurrentClocksThrottleReasons", "nvmlDeviceGetPowerManagementLimit",
            "nvmlDeviceGetEnforcedPowerLimit", "nvmlDeviceGetCurrPcieLinkGeneration", "nvmlDeviceGetCurrPcieLinkWidth",
            "nvmlDeviceGetMaxPcieLinkGeneration", "nvmlDeviceGetMaxPcieLinkWidth");

    /**
     * {@code nvml-more-readings.json} (a third host of the same kind, 2026-11-30): per GPU, each call with its arguments
     * and answer or NVML error, prefixed with the device index as the seam takes it.
     */
    private void moreReadings(JsonNode more) {
        for (JsonNode g : more.get("gpus")) {
            int i = g.get("index").asInt();
            for (JsonNode c : g.get("calls")) {
                String call = c.get("call").asText();
                if (!HEALTH_CALLS.contains(call)) {
                    continue;
                }
                List<Object> a = new ArrayList<>();
                a.add(i);
                c.get("args").forEach(x -> a.add(x.asInt()));
                answer("nvml", call, a.toArray(), c);
            }
        }
    }

    /** {@code nvidia-smi nvlink -s} prints NVML_FI_DEV_NVLINK_GET_SPEED (164, scope = link) in GB/s: the same field back in MB/s. */
    private void linkSpeeds(int i, String nvlinkStatus) {
        String block = nvlinkStatus.split("GPU " + i + ":")[1].split("GPU \\d+:")[0];
        List<int[]> fields = new ArrayList<>();
        List<NvmlCalls.FieldValue> values = new ArrayList<>();
        Matcher mm = Pattern.compile("Link (\\d+): ([0-9.]+) GB/s").matcher(block);
        while (mm.find()) {
            int link = Integer.parseInt(mm.group(1));
            long mbps = Math.round(Double.parseDouble(mm.group(2)) * 1000);
            fields.add(new int[] {164, link});
            values.add(new NvmlCalls.FieldValue(164, link, 0, 1, mbps));
        }
        add("nvml", "nvmlDeviceGetFieldValues", args(i, fields.toArray(int[][]::new)), 0, values);
    }

    private void fabric(int i, String smi) {
        Matcher f = Pattern.compile("Fabric\\s+State\\s+: (\\w+)\\s+Status\\s+: (\\w+)\\s+CliqueId\\s+: (\\d+)\\s+ClusterUUID\\s+: ([0-9a-f-]+)")
                .matcher(smi);
        for (int k = 0; k <= i; k++) {
            if (!f.find()) {
                throw new IllegalStateException("no Fabric section for GPU " + i);
            }
        }
        int state = switch (f.group(1)) {
            case "Completed" -> 3;
            case "In" -> 2;
            case "Not" -> 1;
            default -> 0;
        };
        // "Health Summary : N/A" is NVML_GPU_FABRIC_HEALTH_SUMMARY_NOT_SUPPORTED (0) with an empty mask.
        add("nvml", "nvmlDeviceGetGpuFabricInfoV", args(i, 3), 0, new NvmlCalls.FabricStruct(f.group(4).replace("-", ""),
                f.group(2).equals("Success") ? 0 : 999, Long.parseLong(f.group(3)), state, 0L, 0));
    }

    /** A pynvml reading {@code {ok, value}} or {@code {ok: false, code}} as the call's answer. */
    private void answer(String lib, String call, Object[] args, JsonNode reading) {
        if (reading.get("ok").asBoolean()) {
            add(lib, call, args, 0, reading.get("value"));
        } else {
            add(lib, call, args, reading.get("code").asInt(), null);
        }
    }

    private static NvmlCalls.PciInfo pci(JsonNode p) {
        return new NvmlCalls.PciInfo(p.get("busId").asText(), p.get("domain").asLong(), p.get("bus").asLong(), p.get("device").asLong(),
                p.get("pciDeviceId").asLong(), p.get("pciSubSystemId").asLong());
    }

    private static int cuResult(String tuple) {
        Matcher mm = Pattern.compile("CUresult\\.\\w+: (\\d+)>").matcher(tuple);
        return mm.find() ? Integer.parseInt(mm.group(1)) : 999;
    }

    private static Integer cuValue(String tuple) {
        Matcher mm = Pattern.compile(">, (-?\\d+)\\)").matcher(tuple);
        return mm.find() ? Integer.valueOf(mm.group(1)) : null;
    }

    private static List<String> all(String text, String regex) {
        List<String> out = new ArrayList<>();
        Matcher mm = Pattern.compile(regex).matcher(text);
        while (mm.find()) {
            out.add(mm.group(1));
        }
        return out;
    }

    /** The {@code topo -m} row of a GPU: CPU affinity and NUMA affinity columns. */
    static Map<String, String> row(String topo, String gpu) {
        for (String line : topo.split("\n")) {
            String[] cells = line.trim().split("\\s+");
            if (cells.length > 3 && cells[0].equals(gpu) && cells[cells.length - 1].equals("N/A")) {
                return Map.of("cpu", cells[cells.length - 3], "numa", cells[cells.length - 2]);
            }
        }
        throw new IllegalStateException("no topo -m row for " + gpu);
    }

    /** A kernel CPU list as NVML's bit mask of 64-bit words. */
    static long[] mask(String list, int words) {
        long[] m = new long[words];
        for (String part : list.split(",")) {
            String[] ab = part.split("-");
            int a = Integer.parseInt(ab[0]);
            int b = ab.length > 1 ? Integer.parseInt(ab[1]) : a;
            for (int c = a; c <= b; c++) {
                m[c / 64] |= 1L << (c % 64);
            }
        }
        return m;
    }

    /** Writes the converted trace (run once; the test checks the committed file is what this produces). */
    public static void main(String[] a) throws IOException {
        NativeTrace t = convert(Path.of(a[0]));
        Files.writeString(Path.of(a[0]).resolve("trace.json"), dev.fabricscope.nativeapi.trace.TraceIO.write(t));
    }
}
