package dev.fabricscope.model;

import java.util.List;

/**
 * A network adapter as sysfs shows it: an RDMA device under {@code /sys/class/infiniband} (what {@code nvidia-smi topo
 * -m} lists as {@code NIC#}), or a PCI network interface under {@code /sys/class/net} without RDMA.
 *
 * @param name       {@code mlx5_0}, or the interface name ({@code eth0}) for a NIC without RDMA
 * @param rdma       listed under /sys/class/infiniband
 * @param address    PCI address, {@code 0000:18:00.0}
 * @param model      the adapter ({@code hca_type}: {@code MT4129} is ConnectX-7), or the PCI vendor:device id
 * @param firmware   {@code fw_ver}
 * @param numaNode   the PCI device's {@code numa_node} (-1 in sysfs = none: read as missing)
 * @param pciePath   the host bridge, then each PCI bridge from the root port down to the adapter
 * @param ports      ports with link layer, state and rate
 * @param netDevices the network interfaces on this adapter ({@code ibp24s0})
 */
public record Nic(String name, boolean rdma, Reading<String> address, Reading<String> model, Reading<String> firmware,
                  Reading<Integer> numaNode, Reading<List<String>> pciePath, List<Port> ports, List<String> netDevices) {

    public Nic {
        ports = ports == null ? List.of() : List.copyOf(ports);
        netDevices = netDevices == null ? List.of() : List.copyOf(netDevices);
    }

    /**
     * @param linkLayer InfiniBand or Ethernet
     * @param state     {@code ACTIVE}, {@code DOWN} (IB port state), or the interface's operstate ({@code up})
     * @param physState {@code LinkUp}, {@code Disabled}, …
     * @param rate      {@code 400 Gb/sec (4X NDR)} as sysfs prints it, or {@code 25000 Mb/s}
     */
    public record Port(int port, Reading<String> linkLayer, Reading<String> state, Reading<String> physState, Reading<String> rate) {

        public boolean up() {
            String s = state.orElse("").toUpperCase();
            return s.equals("ACTIVE") || s.equals("UP");
        }
    }

    /** Whether any port's link is up. */
    public boolean linkUp() {
        return ports.stream().anyMatch(Port::up);
    }
}
