package dev.fabricscope.advisor.api;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/** The machine facts the rules read, named as {@code --assume KEY=VALUE} spells them. */
public enum FactKey {
    SM("sm", Type.VERSION, "compute capability major.minor, e.g. 9.0, 10.0, 12.0"),
    PLATFORM("platform", Type.CHOICE, "cuda, rocm or cpu", "cuda", "rocm", "cpu"),
    NODES("nodes", Type.COUNT, "nodes of this kind in the machine"),
    GPUS_PER_NODE("gpus-per-node", Type.COUNT, "GPUs in each node"),
    MULTICAST("multicast", Type.BOOL, "every GPU reports CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED (132)"),
    FABRIC_HANDLES("fabric-handles", Type.BOOL, "every GPU reports CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED (128)"),
    MNNVL_FABRIC("mnnvl-fabric", Type.BOOL, "every GPU is registered in an MNNVL fabric (NVML fabric state COMPLETED, non-zero cluster UUID)"),
    NVSWITCH("nvswitch", Type.BOOL, "the GPUs reach NVSwitches"),
    ALL_NVLINK("all-nvlink", Type.BOOL, "every GPU pair is NVLink-connected (NVML P2P NVLINK status OK)"),
    NVLINK_BRIDGE("nvlink-bridge", Type.BOOL, "GPUs are joined by direct NVLink (bridges, e.g. H100 NVL) rather than NVSwitches"),
    P2P("p2p", Type.BOOL, "every GPU pair can access each other (cuDeviceCanAccessPeer)"),
    TORCH_CUDA("torch-cuda", Type.VERSION, "the CUDA version torch was built for (torch.version.cuda)"),
    CONFIDENTIAL_COMPUTE("confidential-compute", Type.BOOL, "NVIDIA Confidential Computing is on"),
    HOST_ARCH("host-arch", Type.CHOICE, "x86_64 or aarch64", "x86_64", "aarch64"),
    FLASHINFER("flashinfer", Type.BOOL, "FlashInfer with its comm module is installed"),
    NCCL_VERSION("nccl-version", Type.VERSION, "the NCCL the framework loads, e.g. 2.28.9"),
    FABRIC_READY("fabric-ready", Type.BOOL, "no GPU reports its NVLink fabric (Fabric Manager) as not started or in progress"),
    IMEX_CHANNEL("imex-channel", Type.BOOL, "an IMEX channel device exists under /dev/nvidia-caps-imex-channels (FABRIC-handle memory needs one)");

    enum Type { BOOL, COUNT, VERSION, CHOICE }

    private static final Pattern VERSION = Pattern.compile("\\d+\\.\\d+(\\.\\d+)?");

    public final String key;
    final Type type;
    public final String description;
    private final List<String> choices;

    FactKey(String key, Type type, String description, String... choices) {
        this.key = key;
        this.type = type;
        this.description = description;
        this.choices = List.of(choices);
    }

    public static Optional<FactKey> of(String key) {
        return Arrays.stream(values()).filter(k -> k.key.equals(key)).findFirst();
    }

    public static List<String> keys() {
        return Arrays.stream(values()).map(k -> k.key).toList();
    }

    /** The value normalised (booleans to true/false), or an exception naming what is valid. */
    String parse(String raw) throws AdvisorInputException {
        String v = raw == null ? "" : raw.trim();
        String bad = "invalid value '" + v + "' for --assume " + key + ": ";
        switch (type) {
            case BOOL -> {
                String b = Values.bool(v);
                if (b == null) {
                    throw new AdvisorInputException(bad + "expected true or false");
                }
                return b;
            }
            case COUNT -> {
                try {
                    int n = Integer.parseInt(v);
                    if (n >= 1) {
                        return Integer.toString(n);
                    }
                } catch (NumberFormatException e) {
                    // fall through
                }
                throw new AdvisorInputException(bad + "expected a whole number >= 1");
            }
            case VERSION -> {
                if (!VERSION.matcher(v).matches()) {
                    throw new AdvisorInputException(bad + "expected a version like " + (this == SM ? "9.0" : "12.8"));
                }
                return v;
            }
            default -> {
                String c = v.toLowerCase(Locale.ROOT);
                if (!choices.contains(c)) {
                    throw new AdvisorInputException(bad + "expected one of " + String.join(", ", choices));
                }
                return c;
            }
        }
    }
}
