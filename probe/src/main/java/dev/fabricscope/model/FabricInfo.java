package dev.fabricscope.model;

/**
 * MNNVL GPU fabric state from {@code nvmlDeviceGetGpuFabricInfoV} (or the older {@code nvmlDeviceGetGpuFabricInfo}).
 *
 * @param api           which NVML call answered (e.g. {@code nvmlDeviceGetGpuFabricInfoV v3})
 * @param state         NOT_SUPPORTED, NOT_STARTED, IN_PROGRESS or COMPLETED
 * @param status        the fabric's nvmlReturn_t status as a name, e.g. {@code NVML_SUCCESS}
 * @param cliqueId      clique id
 * @param clusterUuid   cluster UUID in canonical form; all-zero means "not MNNVL"
 * @param healthMask    raw health mask (v2+)
 * @param healthSummary HEALTHY, UNHEALTHY, LIMITED_CAPACITY or NOT_SUPPORTED (v3)
 */
public record FabricInfo(Reading<String> api, Reading<String> state, Reading<String> status, Reading<Long> cliqueId,
                         Reading<String> clusterUuid, Reading<Long> healthMask, Reading<String> healthSummary) {

    public static final String COMPLETED = "COMPLETED";
    public static final String ZERO_UUID = "00000000-0000-0000-0000-000000000000";

    /** FlashInfer's test: state COMPLETED and a non-zero cluster UUID (fabric handles are checked separately). */
    public boolean inMnnvlDomain() {
        return COMPLETED.equals(state.value()) && clusterUuid.isPresent() && !ZERO_UUID.equals(clusterUuid.value());
    }
}
