package dev.fabricscope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.fabricscope.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The planted trace of issue 25 (synthetic from real): the trace recorded on the two-GPU NVSwitch H200
 * ({@code captured/h200-nvswitch-2gpu-2026-12-01/trace.json}) with the 15 kinds of identifier of the issue planted
 * where a machine puts them: the host-name file, NVML's UUID, serial and fabric answers, {@code HOME}, {@code PATH} and
 * {@code CUDA_VISIBLE_DEVICES}, /etc/os-release and the command line. Every other answer is the machine's.
 * {@link #main} writes {@code src/test/resources/planted/h200-nvswitch-2gpu-planted/trace.json};
 * {@code TraceRedactionTest} checks that the committed file is what this makes.
 */
public final class PlantedTrace {

    public static final Path FILE = Path.of("src/test/resources/planted/h200-nvswitch-2gpu-planted/trace.json");
    static final Path SOURCE = CapturedTraces.NVSWITCH_2GPU_RECORDED.resolve("trace.json");

    static final String HOST = "gpu-node17";
    static final String DOMAIN = "cluster.example.org";
    static final String FQDN = HOST + "." + DOMAIN;
    static final String HOST_UPPER = "GPU-NODE17";
    static final String USER = "alice.smith";
    static final String HOME = "/home/" + USER;
    static final List<String> UUIDS = List.of("GPU-3f2a9c1e-7b4d-4e8a-9c2f-1a2b3c4d5e6f", "GPU-3f2a9c1e-7b4d-4e8a-9c2f-1a2b3c4d5e70");
    static final List<String> SERIALS = List.of("1654422003245", "1654422003246");
    static final String CLUSTER_HEX = "5b1e2f3a4c5d46e7a8b9c0d1e2f3a4b5";
    static final String CLUSTER = "5b1e2f3a-4c5d-46e7-a8b9-c0d1e2f3a4b5";
    static final String PART = "692-2G520-0200-000";
    static final String MAC = "0c:42:a1:b2:c3:d4";
    static final String IPV4 = "10.17.3.41";
    static final String IPV6 = "fd00:17:3::41";
    static final String GUID = "0x0c42a10300b2c3d4";

    /** Kind of the issue → the strings of it planted (each must be gone after redaction, in any case). */
    public static final Map<String, List<String>> PLANTED = Map.ofEntries(
            Map.entry("host name", List.of(HOST)),
            Map.entry("fully qualified host name", List.of(FQDN)),
            Map.entry("domain", List.of(DOMAIN)),
            Map.entry("host name in upper case", List.of(HOST_UPPER)),
            Map.entry("GPU UUID", UUIDS),
            Map.entry("GPU UUID without dashes", List.of(UUIDS.get(1).substring(4).replace("-", ""))),
            Map.entry("serial", SERIALS),
            Map.entry("board part number", List.of(PART)),
            Map.entry("MAC address", List.of(MAC, MAC.replace(":", "-"))),
            Map.entry("IPv4 address", List.of(IPV4)),
            Map.entry("IPv6 address", List.of(IPV6)),
            Map.entry("InfiniBand GUID", List.of(GUID, "0c42:a103:00b2:c3d4")),
            Map.entry("/home/USER", List.of(HOME, USER)),
            Map.entry("user@host", List.of(USER + "@" + HOST, USER + "@" + IPV4)),
            Map.entry("cluster UUID", List.of(CLUSTER, CLUSTER_HEX)));

    private PlantedTrace() {
    }

    static String make() throws Exception {
        ObjectNode t = (ObjectNode) Json.mapper().readTree(Files.readString(SOURCE));
        t.put("source", "SYNTHETIC FROM REAL (issue 25): the trace recorded on the two-GPU NVSwitch H200 on 2026-12-01 with "
                + "15 kinds of identifier planted by PlantedTrace.java; not a recording");
        ArrayNode cmd = t.putArray("commandLine");
        for (String a : List.of("fabricscope", "probe", "--record", HOME + "/traces/" + FQDN + ".trace.json", "--out",
                "/tmp/" + HOST_UPPER + "-probe.json", "--remote-command", "ssh " + USER + "@" + HOST + " && scp x " + USER + "@" + IPV4 + ":/tmp")) {
            cmd.add(a);
        }
        int gpu = 0;
        int serial = 0;
        for (JsonNode n : t.withArray("calls")) {
            ObjectNode c = (ObjectNode) n;
            String call = c.path("call").asText();
            String arg0 = c.path("args").path(0).asText("");
            switch (call) {
                case "nvmlDeviceGetUUID" -> c.put("value", UUIDS.get(gpu++));
                case "nvmlDeviceGetSerial" -> c.put("value", SERIALS.get(serial++));
                case "nvmlDeviceGetGpuFabricInfoV" -> ((ObjectNode) c.get("value")).put("clusterUuid", CLUSTER_HEX);
                case "getenv" -> {
                    if (arg0.equals("HOME")) {
                        c.put("value", HOME);
                    } else if (arg0.equals("PATH")) {
                        c.put("value", HOME + "/.local/bin:" + c.get("value").asText());
                    }
                }
                case "environment" -> ((ObjectNode) c.get("value")).put("CUDA_VISIBLE_DEVICES", cudaVisibleDevices());
                default -> {
                }
            }
            if (call.equals("readLines") && arg0.equals("/proc/sys/kernel/hostname")) {
                c.putArray("value").add(HOST);
            }
            if (call.equals("readLines") && arg0.equals("/etc/os-release")) {
                ((ArrayNode) c.get("value")).add("VARIANT=\"" + DOMAIN + " image, board " + PART + "\"")
                        .add("BUILD_ID=\"built on " + MAC.replace(":", "-") + " (" + MAC + "), fabric " + GUID + " / 0c42:a103:00b2:c3d4\"")
                        .add("SUPPORT_URL=\"http://[" + IPV6 + "]/\"");
            }
            // the probe looks in HOME for conda and ~/.venv: the same questions, asked of the planted HOME
            JsonNode args = c.path("args");
            for (int i = 0; i < args.size(); i++) {
                if (args.get(i).isTextual() && (args.get(i).asText().equals("/root") || args.get(i).asText().startsWith("/root/"))) {
                    ((ArrayNode) args).set(i, TextNode.valueOf(HOME + args.get(i).asText().substring(5)));
                }
            }
        }
        ObjectNode s = (ObjectNode) t.get("snapshot");
        ((ObjectNode) s.get("host").get("hostname")).put("value", HOST);
        ((ObjectNode) s.get("environment")).put("CUDA_VISIBLE_DEVICES", cudaVisibleDevices());
        for (int i = 0; i < 2; i++) {
            ObjectNode g = (ObjectNode) s.get("gpus").get(i);
            ((ObjectNode) g.get("uuid")).put("value", UUIDS.get(i));
            ((ObjectNode) g.get("serial")).put("value", SERIALS.get(i));
            ((ObjectNode) g.get("fabric").get("clusterUuid")).put("value", CLUSTER);
        }
        return Json.write(t);
    }

    /** One GPU by UUID, the other by its UUID without prefix and dashes, as some tools print it. */
    private static String cudaVisibleDevices() {
        return UUIDS.get(0) + "," + UUIDS.get(1).substring(4).replace("-", "");
    }

    public static void main(String[] args) throws Exception {
        Files.createDirectories(FILE.getParent());
        Files.writeString(FILE, make());
    }
}
