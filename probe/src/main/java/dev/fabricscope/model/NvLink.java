package dev.fabricscope.model;

/**
 * One NVLink of one GPU.
 *
 * @param index               link index (0-based)
 * @param active              link state: true = active
 * @param versionCode         raw {@code nvmlDeviceGetNvLinkVersion} code (an enum code, not the generation)
 * @param generation          NVLink generation derived from the compute capability, as NCCL does
 * @param remoteType          GPU, SWITCH, IBMNPU or UNKNOWN
 * @param remotePci           PCI address of the far end (NVSwitch addresses may be unknown inside VMs)
 * @param gbpsPerDirection    nominal data bandwidth per direction of this link, GB/s
 */
public record NvLink(int index, Reading<Boolean> active, Reading<Integer> versionCode, Reading<Integer> generation,
                     Reading<String> remoteType, Reading<PciAddress> remotePci, Reading<Double> gbpsPerDirection) {

    public static final String REMOTE_GPU = "GPU";
    public static final String REMOTE_SWITCH = "SWITCH";
}
