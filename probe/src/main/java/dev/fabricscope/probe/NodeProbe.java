package dev.fabricscope.probe;

import dev.fabricscope.model.Missing;
import dev.fabricscope.model.Nic;
import dev.fabricscope.model.NodeInfo;
import dev.fabricscope.model.NodeInfo.PcieEndpoint;
import dev.fabricscope.model.NodeInfo.ServiceState;
import dev.fabricscope.model.PciAddress;
import dev.fabricscope.model.Reading;
import dev.fabricscope.nativeapi.NativeAnswer;
import dev.fabricscope.nativeapi.host.HostCalls;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The node around the GPUs through the host seam: RDMA adapters ({@code /sys/class/infiniband}), PCI network
 * interfaces ({@code /sys/class/net}), every device's place in the PCIe tree (its sysfs device link), and the fabric
 * manager and IMEX services (systemd's {@code /run/systemd/units} where systemd runs, else the processes of their
 * names; their TCP ports from {@code /proc/net/tcp}). An absent directory is a normal answer (no RDMA stack, no
 * systemd). Only the service names and ports asked about cross the seam, never the process list or the TCP tables.
 */
public final class NodeProbe {

    private static final Pattern BDF = Pattern.compile("[0-9a-fA-F]{4,8}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-7]");
    private static final int MAX_ENTRIES = 4096;
    /** nv-fabricmanager's FM_CMD_PORT_NUMBER and nvidia-imex's SERVER_PORT defaults (their config files). */
    static final int FABRIC_MANAGER_PORT = 6666;
    static final int IMEX_PORT = 50000;
    /** The process names ({@code comm}, 15 characters at most) of the services, and their ports, in that order. */
    static final List<String> SERVICE_PROCESSES = List.of("nv-fabricmanage", "nvidia-imex");
    static final List<Integer> SERVICE_PORTS = List.of(FABRIC_MANAGER_PORT, IMEX_PORT);

    private final HostCalls host;

    public NodeProbe(HostCalls host) {
        this.host = host;
    }

    public NodeInfo probe(List<PciAddress> gpus) {
        List<PcieEndpoint> places = new ArrayList<>();
        for (PciAddress g : gpus) {
            places.add(place(g.toString()));
        }
        List<ServiceState> services = new ArrayList<>(services());
        services.add(nvlsm());
        return new NodeInfo(nics(), places, services, fabricManagerVersion(), nvlsmInstalled());
    }

    /**
     * NVLSM's process ({@code comm} {@code nvlsm}), asked even where systemd answers: it has no unit of its own (the
     * fabric manager's start script runs it), so only the process table tells whether it runs. No TCP port: it talks to
     * the fabric manager over {@code /var/run/nvidia-fabricmanager/fm_sm_ipc.socket} (siderolabs/extensions 26822f5
     * nvidia-fabricmanager-wrapper/main.go:34).
     */
    ServiceState nvlsm() {
        NativeAnswer<Map<String, List<Integer>>> a = host.processesNamed(List.of(NodeInfo.NVLSM));
        Reading<List<Integer>> pids = notRecorded(a) ? Reading.missing(new Missing(Missing.Kind.UNAVAILABLE, "list /proc", null, null,
                "not recorded in this trace")) : HostRead.NODE.read("list /proc", a, NodeProbe::pidsByName)
                .map(m -> m.getOrDefault(NodeInfo.NVLSM, List.of()));
        return new ServiceState(NodeInfo.NVLSM, Reading.missing(Missing.notApplicable("no unit of its own: nvidia-fabricmanager starts it")),
                pids, Reading.missing(Missing.notApplicable("no TCP port: a UNIX socket to the fabric manager")));
    }

    /** Whether {@link NodeInfo#NVLSM_BINARY} is there: its directory listed for that one name. */
    Reading<Boolean> nvlsmInstalled() {
        String dir = NodeInfo.NVLSM_BINARY.substring(0, NodeInfo.NVLSM_BINARY.lastIndexOf('/'));
        NativeAnswer<List<String>> a = host.listDirectory(dir, NodeInfo.NVLSM);
        if (notRecorded(a)) {
            return Reading.missing(new Missing(Missing.Kind.UNAVAILABLE, "list " + dir, null, null, "not recorded in this trace"));
        }
        if (HostRead.absent(a)) {
            return Reading.of(false);
        }
        return HostRead.NODE.read("list " + dir, a, names -> names.contains(NodeInfo.NVLSM));
    }

    private static boolean notRecorded(NativeAnswer<?> a) {
        return a != null && a.fault() == NativeAnswer.Fault.NOT_RECORDED;
    }

    private static final java.util.regex.Pattern VERSION = java.util.regex.Pattern.compile("\\b(\\d{3,}\\.\\d+(?:\\.\\d+)?)\\b");

    /**
     * The fabric manager's version from {@code nv-fabricmanager --version} (the first {@code NNN.NN[.NN]} in its
     * output, which names the driver branch it belongs to); not applicable where none is installed (a VM guest).
     */
    Reading<String> fabricManagerVersion() {
        String what = "nv-fabricmanager --version";
        NativeAnswer<List<String>> a = host.fabricManagerVersion();
        if (notRecorded(a)) {
            return Reading.missing(new Missing(Missing.Kind.UNAVAILABLE, what, null, null, "not recorded in this trace"));
        }
        if (HostRead.absent(a)) {
            return Reading.missing(new Missing(Missing.Kind.NOT_APPLICABLE, what, null, null, "nv-fabricmanager not installed"));
        }
        return HostRead.NODE.read(what, a, lines -> {
            for (String line : lines) {
                java.util.regex.Matcher m = VERSION.matcher(line == null ? "" : line);
                if (m.find()) {
                    return m.group(1);
                }
            }
            throw new IllegalArgumentException("no version number in " + clean(String.join(" | ", lines)));
        });
    }

    // --- reading helpers (HostRead.NODE): every answer a value or the operation and errno that stopped it ---

    private Reading<String> firstLine(String path) {
        return HostRead.NODE.read("read " + path, host.readLines(path), lines -> {
            if (lines == null || lines.isEmpty() || lines.get(0) == null || lines.get(0).isBlank()) {
                throw new IllegalArgumentException("empty file");
            }
            return clean(lines.get(0).strip());
        });
    }

    /** Text from a file, control characters dropped, bounded. */
    private static String clean(String s) {
        String t = s.replaceAll("\\p{Cntrl}", "");
        return t.length() > 120 ? t.substring(0, 120) : t;
    }

    private List<String> list(String dir, String glob, List<Missing> failures) {
        NativeAnswer<List<String>> a = host.listDirectory(dir, glob);
        if (HostRead.absent(a)) {
            return List.of();
        }
        Reading<List<String>> r = HostRead.NODE.read("list " + dir, a, v -> v);
        if (!r.isPresent()) {
            failures.add(r.missing());
            return List.of();
        }
        return r.value().stream().filter(n -> n != null && !n.isBlank() && !n.contains("/")).map(NodeProbe::clean)
                .limit(MAX_ENTRIES).toList();
    }

    // --- PCIe places ---

    /** A PCI device's place: {@code /sys/bus/pci/devices/<bdf>} resolved into its host bridge and bridges. */
    PcieEndpoint place(String bdf) {
        String dev = "/sys/bus/pci/devices/" + bdf;
        Reading<List<String>> path = HostRead.NODE.read("realpath " + dev, host.realPath(dev), real -> pathAbove(real, bdf));
        return new PcieEndpoint(bdf, path, numa(bdf));
    }

    private Reading<Integer> numa(String bdf) {
        Reading<String> n = firstLine("/sys/bus/pci/devices/" + bdf + "/numa_node");
        if (!n.isPresent()) {
            return Reading.missing(n.missing());
        }
        int v;
        try {
            v = Integer.parseInt(n.value().trim());
        } catch (NumberFormatException e) {
            return Reading.missing(Missing.invalid("read /sys/bus/pci/devices/" + bdf + "/numa_node", n.value(), "not a number"));
        }
        return v < 0 ? Reading.missing(Missing.notApplicable("numa_node " + v + ": no NUMA affinity"))
                : v > 1 << 16 ? Reading.missing(Missing.invalid("numa_node", n.value(), "NUMA node out of range")) : Reading.of(v);
    }

    /**
     * {@code /sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:1b:00.0} → {@code [pci0000:00, 0000:00:01.0,
     * 0000:01:00.0]}: the host bridge and the bridges above {@code bdf}.
     */
    static List<String> pathAbove(String real, String bdf) {
        List<String> parts = new ArrayList<>();
        boolean inTree = false;
        for (String c : real.split("/")) {
            if (c.startsWith("pci") && c.length() > 3 && c.contains(":")) {
                inTree = true;
                parts.clear();
                parts.add(c.toLowerCase(Locale.ROOT));
            } else if (inTree && BDF.matcher(c).matches()) {
                parts.add(c.toLowerCase(Locale.ROOT));
            } else if (inTree) {
                break;
            }
        }
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("no PCI host bridge in " + real);
        }
        String last = parts.get(parts.size() - 1);
        if (bdf != null && !last.equalsIgnoreCase(bdf)) {
            throw new IllegalArgumentException(bdf + " is not the end of " + real);
        }
        parts.remove(parts.size() - 1);
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("no PCI host bridge in " + real);
        }
        return List.copyOf(parts);
    }

    /** The PCI device a sysfs device link leads to (the last address in it: {@code …/0000:00:03.0/virtio2} → that). */
    static String lastBdf(String real) {
        String found = null;
        for (String c : real.split("/")) {
            if (BDF.matcher(c).matches()) {
                found = c.toLowerCase(Locale.ROOT);
            }
        }
        if (found == null) {
            throw new IllegalArgumentException("no PCI address in " + real);
        }
        return found;
    }

    // --- NICs ---

    private Reading<List<Nic>> nics() {
        List<Missing> failures = new ArrayList<>();
        List<Nic> out = new ArrayList<>();
        Set<String> rdmaNetDevices = new HashSet<>();
        Set<String> rdmaPci = new HashSet<>();
        for (String hca : list("/sys/class/infiniband", "*", failures)) {
            String base = "/sys/class/infiniband/" + hca;
            Reading<String> real = HostRead.NODE.read("realpath " + base + "/device", host.realPath(base + "/device"), v -> v);
            Reading<String> pci = real.isPresent() ? HostRead.NODE.read("realpath " + base + "/device", NativeAnswer.ok(real.value()), NodeProbe::lastBdf)
                    : Reading.missing(real.missing());
            pci.asOptional().ifPresent(rdmaPci::add);
            List<String> nets = list(base + "/device/net", "*", failures);
            rdmaNetDevices.addAll(nets);
            List<Nic.Port> ports = new ArrayList<>();
            for (String p : list(base + "/ports", "*", failures)) {
                int port;
                try {
                    port = Integer.parseInt(p);
                } catch (NumberFormatException e) {
                    continue;
                }
                String pb = base + "/ports/" + p;
                ports.add(new Nic.Port(port, firstLine(pb + "/link_layer"), firstLine(pb + "/state").map(NodeProbe::afterColon),
                        firstLine(pb + "/phys_state").map(NodeProbe::afterColon), firstLine(pb + "/rate")));
            }
            out.add(nic(hca, true, real, pci, firstLine(base + "/hca_type").map(NodeProbe::adapterName), firstLine(base + "/fw_ver"), ports, nets));
        }
        for (String iface : list("/sys/class/net", "*", failures)) {
            if (rdmaNetDevices.contains(iface)) {
                continue;
            }
            String base = "/sys/class/net/" + iface;
            NativeAnswer<String> dev = host.realPath(base + "/device");
            if (HostRead.absent(dev)) {
                continue; // a virtual interface (lo, bridges, ifb): no PCI device
            }
            Reading<String> real = HostRead.NODE.read("realpath " + base + "/device", dev, v -> v);
            Reading<String> pci = real.isPresent() ? HostRead.NODE.read("realpath " + base + "/device", NativeAnswer.ok(real.value()), NodeProbe::lastBdf)
                    : Reading.missing(real.missing());
            if (pci.isPresent() && rdmaPci.contains(pci.value())) {
                continue;
            }
            Reading<String> model = pci.isPresent() ? pciId(pci.value()) : Reading.missing(pci.missing());
            Reading<String> speed = firstLine(base + "/speed").map(v -> v.startsWith("-") ? "unknown" : v + " Mb/s");
            out.add(nic(iface, false, real, pci, model, Reading.missing(Missing.notApplicable("no RDMA firmware version")),
                    List.of(new Nic.Port(1, Reading.of("Ethernet"), firstLine(base + "/operstate"),
                            Reading.missing(Missing.notApplicable("not an RDMA port")), speed)), List.of(iface)));
        }
        if (out.isEmpty() && !failures.isEmpty()) {
            return Reading.missing(failures.get(0));
        }
        return Reading.of(List.copyOf(out));
    }

    /** The adapter's PCIe path comes from its own device link ({@code real}); its NUMA node from the PCI device. */
    private Nic nic(String name, boolean rdma, Reading<String> real, Reading<String> pci, Reading<String> model, Reading<String> fw,
                    List<Nic.Port> ports, List<String> nets) {
        Reading<List<String>> path;
        Reading<Integer> numa;
        if (pci.isPresent()) {
            path = HostRead.NODE.read("realpath " + name + " device", NativeAnswer.ok(real.value()), r -> pathAbove(r, pci.value()));
            numa = numa(pci.value());
        } else {
            path = Reading.missing(pci.missing());
            numa = Reading.missing(pci.missing());
        }
        return new Nic(name, rdma, pci, model, fw, numa, path, ports, nets);
    }

    private Reading<String> pciId(String bdf) {
        Reading<String> vendor = firstLine("/sys/bus/pci/devices/" + bdf + "/vendor");
        Reading<String> device = firstLine("/sys/bus/pci/devices/" + bdf + "/device");
        if (!vendor.isPresent()) {
            return vendor;
        }
        return device.isPresent() ? Reading.of("PCI " + vendor.value() + ":" + device.value()) : device;
    }

    /** {@code 4: ACTIVE} → {@code ACTIVE}. */
    static String afterColon(String s) {
        int c = s.indexOf(':');
        return c < 0 ? s.trim() : s.substring(c + 1).trim();
    }

    /**
     * {@code hca_type} is {@code MT} and the PCI device id in decimal (pci.ids, vendor 15b3): MT4123 = 0x101b
     * ConnectX-6, MT4125 = 0x101d ConnectX-6 Dx, MT4127 = 0x101f ConnectX-6 Lx, MT4129 = 0x1021 ConnectX-7,
     * MT4131 = 0x1023 ConnectX-8, MT41692 = 0xa2dc BlueField-3.
     */
    static String adapterName(String hcaType) {
        String name = switch (hcaType.trim().toUpperCase(Locale.ROOT)) {
            case "MT4123" -> "ConnectX-6";
            case "MT4125" -> "ConnectX-6 Dx";
            case "MT4127" -> "ConnectX-6 Lx";
            case "MT4129" -> "ConnectX-7";
            case "MT4131" -> "ConnectX-8";
            case "MT41692" -> "BlueField-3";
            default -> null;
        };
        return name == null ? hcaType.trim() : name + " (" + hcaType.trim() + ")";
    }

    // --- services ---

    private List<ServiceState> services() {
        Reading<Set<String>> invocations = systemdInvocations();
        Reading<Set<String>> unitFiles = invocations.isPresent() ? unitFiles() : Reading.missing(invocations.missing());
        Reading<Map<String, List<Integer>>> processes = invocations.isPresent()
                ? Reading.missing(Missing.notApplicable("systemd answers; processes not scanned"))
                : HostRead.NODE.read("list /proc", host.processesNamed(SERVICE_PROCESSES), NodeProbe::pidsByName);
        // Map.copyOf refuses a null port or answer (a hostile trace): the reading is then invalid, naming the answer
        Reading<Map<Integer, Boolean>> tcp = HostRead.NODE.read("read /proc/net/tcp", host.tcpListening(SERVICE_PORTS), Map::copyOf);
        return List.of(service("nvidia-fabricmanager", SERVICE_PROCESSES.get(0), FABRIC_MANAGER_PORT, invocations, unitFiles, processes, tcp),
                service("nvidia-imex", SERVICE_PROCESSES.get(1), IMEX_PORT, invocations, unitFiles, processes, tcp));
    }

    private ServiceState service(String unit, String comm, int port, Reading<Set<String>> invocations, Reading<Set<String>> unitFiles,
                                 Reading<Map<String, List<Integer>>> processes, Reading<Map<Integer, Boolean>> tcp) {
        Reading<String> systemd;
        if (!invocations.isPresent()) {
            systemd = Reading.missing(invocations.missing());
        } else if (invocations.value().contains("invocation:" + unit + ".service")) {
            systemd = Reading.of("active");
        } else {
            systemd = Reading.of(unitFiles.orElse(Set.of()).contains(unit + ".service") ? "inactive" : "not installed");
        }
        Reading<List<Integer>> pids = processes.map(m -> m.getOrDefault(comm, List.of()));
        Reading<Boolean> listening = tcp.map(m -> Boolean.TRUE.equals(m.get(port)));
        return new ServiceState(unit, systemd, pids, listening);
    }

    /** The seam's answer, checked: every name with a list of pids (a hostile trace may answer nulls). */
    private static Map<String, List<Integer>> pidsByName(Map<String, List<Integer>> answer) {
        Map<String, List<Integer>> out = new java.util.HashMap<>();
        answer.forEach((name, pids) -> out.put(java.util.Objects.requireNonNull(name, "null name"),
                List.copyOf(java.util.Objects.requireNonNull(pids, "no pids for " + name))));
        return out;
    }

    /** systemd records a running unit's invocation id as {@code /run/systemd/units/invocation:<unit>}. */
    private Reading<Set<String>> systemdInvocations() {
        NativeAnswer<List<String>> booted = host.listDirectory("/run/systemd/system", "*");
        if (HostRead.absent(booted)) {
            return Reading.missing(Missing.notApplicable("no systemd (/run/systemd/system absent)"));
        }
        if (booted == null || booted.fault() != null || booted.rc() != 0) {
            return HostRead.NODE.read("list /run/systemd/system", booted, v -> null);
        }
        NativeAnswer<List<String>> units = host.listDirectory("/run/systemd/units", "invocation:nvidia-*");
        if (HostRead.absent(units)) {
            return Reading.of(Set.of());
        }
        return HostRead.NODE.read("list /run/systemd/units", units, v -> Set.copyOf(v.stream().filter(x -> x != null).toList()));
    }

    private Reading<Set<String>> unitFiles() {
        Set<String> out = new HashSet<>();
        List<Missing> failures = new ArrayList<>();
        for (String dir : List.of("/etc/systemd/system", "/usr/lib/systemd/system", "/lib/systemd/system")) {
            out.addAll(list(dir, "nvidia-*.service", failures));
        }
        return Reading.of(Set.copyOf(out));
    }
}
