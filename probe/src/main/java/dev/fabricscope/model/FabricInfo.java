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
    /** The state of a GPU that is in no NVLink fabric. */
    public static final String NOT_SUPPORTED = "NOT_SUPPORTED";
    public static final String ZERO_UUID = "00000000-0000-0000-0000-000000000000";

    /** The fabric call did not answer: every member says why. */
    public static FabricInfo unanswered(Missing why) {
        return new FabricInfo(Reading.missing(why), Reading.missing(why), Reading.missing(why), Reading.missing(why),
                Reading.missing(why), Reading.missing(why), Reading.missing(why));
    }

    /**
     * The call answered with state NOT_SUPPORTED: this GPU is in no NVLink fabric, so the members after the status
     * mean nothing.
     *
     * @param api    the call that answered
     * @param status its nvmlReturn_t status as a name
     */
    public static FabricInfo outsideFabric(String api, String status) {
        Missing na = new Missing(Missing.Kind.NOT_APPLICABLE, api, null, null, "GPU fabric state " + NOT_SUPPORTED);
        return new FabricInfo(Reading.of(api), Reading.of(NOT_SUPPORTED), Reading.of(status), Reading.missing(na),
                Reading.missing(na), Reading.missing(na), Reading.missing(na));
    }

    /** FlashInfer's test: state COMPLETED and a non-zero cluster UUID (fabric handles are checked separately). */
    public boolean inMnnvlDomain() {
        return COMPLETED.equals(state.value()) && clusterUuid.isPresent() && !ZERO_UUID.equals(clusterUuid.value());
    }
}
