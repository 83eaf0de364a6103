package dev.fabricscope.model;

import java.util.List;

/**
 * The node around the GPUs: network adapters, where the GPUs sit in the PCIe tree, and the NVIDIA services.
 *
 * @param nics     RDMA adapters and PCI network interfaces, RDMA first, by name
 * @param gpuPcie  each GPU's place in the PCIe tree (from its sysfs device link)
 * @param services {@code nvidia-fabricmanager} and {@code nvidia-imex}
 * @param services {@code nvidia-fabricmanager}, {@code nvidia-imex} and {@code nvlsm} (the last from snapshots made since
 *                 it is read)
 * @param fabricManagerVersion the installed fabric manager's version ({@code nv-fabricmanager --version}), e.g.
 *                             {@code 580.159.04}; absent in snapshots made before it was read
 * @param nvlsmInstalled whether NVIDIA's NVLink Subnet Manager is installed ({@link #NVLSM_BINARY}); missing where it
 *                       could not be read or in snapshots made before it was read
 */
public record NodeInfo(Reading<List<Nic>> nics, List<PcieEndpoint> gpuPcie, List<ServiceState> services,
                       Reading<String> fabricManagerVersion, Reading<Boolean> nvlsmInstalled) {

    /**
     * The NVLink Subnet Manager: on NVLink5 NVSwitch boards (HGX B200/B300) the fabric manager needs it to program the
     * switches (fabric manager user guide, "What is NVLink Subnet Manager?"; siderolabs/extensions#717). The package
     * {@code nvlsm} installs {@code /opt/nvidia/nvlsm/sbin/nvlsm}; it has no unit of its own: the fabric manager's
     * {@code nvidia-fabricmanager-start.sh} starts it beside {@code nv-fabricmanager} (siderolabs/extensions 26822f5
     * nvidia-gpu/nvidia-fabricmanager/nvidia-fabricmanager-wrapper/main.go:31; NVIDIA/gpu-driver-container 06a208c
     * ubuntu22.04/nvidia-driver:706-719, ubuntu22.04/install.sh:67-69). Its process name is {@code nvlsm}.
     */
    public static final String NVLSM = "nvlsm";
    public static final String NVLSM_BINARY = "/opt/nvidia/nvlsm/sbin/nvlsm";

    public NodeInfo {
        gpuPcie = gpuPcie == null ? List.of() : List.copyOf(gpuPcie);
        services = services == null ? List.of() : List.copyOf(services);
        if (fabricManagerVersion == null) {
            fabricManagerVersion = Reading.missing(Missing.notApplicable("fabric manager version not read"));
        }
        if (nvlsmInstalled == null) {
            nvlsmInstalled = Reading.missing(Missing.notApplicable("NVLSM not read"));
        }
    }

    public NodeInfo(Reading<List<Nic>> nics, List<PcieEndpoint> gpuPcie, List<ServiceState> services) {
        this(nics, gpuPcie, services, null, null);
    }

    /** A service by its name, or null. */
    public ServiceState service(String name) {
        return services.stream().filter(v -> v.name().equals(name)).findFirst().orElse(null);
    }

    /** The RDMA adapters ({@code nvidia-smi topo -m}'s NIC columns), or none when the listing failed. */
    public List<Nic> rdmaNics() {
        return nics.orElse(List.of()).stream().filter(Nic::rdma).toList();
    }

    /**
     * A PCI device's place in the PCIe tree.
     *
     * @param address  the PCI device, {@code 0000:1b:00.0}
     * @param path     the host bridge ({@code pci0000:00}), then the PCI bridges above the device, top down
     * @param numaNode its {@code numa_node}
     */
    public record PcieEndpoint(String address, Reading<List<String>> path, Reading<Integer> numaNode) {
    }

    /**
     * One service's state, from systemd where it runs, else from the process table and the listening socket.
     *
     * @param name      the systemd unit without {@code .service}
     * @param systemd   {@code active}, {@code inactive} (unit installed, no invocation), {@code not installed}; missing
     *                  without systemd
     * @param processes ids of processes with the service's command name
     * @param listening whether its TCP port is listening ({@code /proc/net/tcp})
     */
    public record ServiceState(String name, Reading<String> systemd, Reading<List<Integer>> processes, Reading<Boolean> listening) {

        /** One word a person reads: {@code running}, {@code not running} or {@code unknown}. */
        public String state() {
            if ("active".equals(systemd.value()) || !processes.orElse(List.of()).isEmpty() || Boolean.TRUE.equals(listening.value())) {
                return "running";
            }
            if (systemd.isPresent() || processes.isPresent()) {
                return "not running";
            }
            return "unknown";
        }

        /** How the state was told: {@code systemd active}, {@code process 1234}, {@code port listening}, … */
        public String evidence() {
            StringBuilder sb = new StringBuilder();
            sb.append(systemd.isPresent() ? "systemd " + systemd.value() : NVLSM.equals(name) ? "no unit of its own"
                    : "no systemd answer");
            sb.append(processes.isPresent() ? (processes.value().isEmpty() ? ", no process" : ", process " + processes.value().get(0))
                    : ", processes unread");
            if (listening.isPresent()) {
                sb.append(listening.value() ? ", port listening" : ", port closed");
            }
            return sb.toString();
        }
    }
}
