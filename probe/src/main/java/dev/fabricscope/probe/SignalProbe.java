package dev.fabricscope.probe;

import dev.fabricscope.model.FabricInfo;
import dev.fabricscope.model.Missing;
import dev.fabricscope.model.NvLink;
import dev.fabricscope.model.NvLinkSignals;
import dev.fabricscope.model.NvLinkSignals.Ber;
import dev.fabricscope.model.NvLinkSignals.LinkSignal;
import dev.fabricscope.model.Reading;
import dev.fabricscope.nativeapi.nvml.FabricDecoder;
import dev.fabricscope.nativeapi.nvml.Nvml;
import dev.fabricscope.nativeapi.nvml.Nvml.NvmlDevice;
import dev.fabricscope.nativeapi.nvml.NvmlCalls;
import dev.fabricscope.nativeapi.nvml.NvmlCodes;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads one GPU's NVLink signals (issue 24): bandwidth mode, NVLE and firmware, fabric cliques (v4), the health mask's
 * GFM field, and each answered link's state and BER. Every call stands alone: a driver without one (R580 lacks
 * {@code nvmlDeviceGetGpuFabricInfo_v4}) leaves that reading missing and the others read.
 */
final class SignalProbe {

    private SignalProbe() {
    }

    static NvLinkSignals read(Nvml nvml, NvmlDevice h, List<NvLink> links, FabricInfo fabric) {
        Reading<NvmlCalls.NvLinkInfo> info = nvml.nvLinkInfo(h);
        Reading<List<String>> firmware = !info.isPresent() ? Reading.missing(info.missing())
                : info.value().firmware() == null
                ? Reading.missing(Missing.notApplicable("firmware versions need nvmlNvLinkInfo v2 (the driver answered v1)"))
                : Reading.of(Nvml.firmwareNames(info.value().firmware()));
        return new NvLinkSignals(nvml.systemNvLinkBwMode(), nvml.nvLinkBwMode(h), nvml.nvLinkSupportedBwModes(h), info.map(v -> v.nvleEnabled() == 1),
                firmware, gfmState(fabric), nvml.fabricCliques(h), linkSignals(nvml, h, links));
    }

    /** The GFM field of the fabric health mask (bits 15:14), or why there is none. */
    static Reading<String> gfmState(FabricInfo fabric) {
        if (!fabric.healthMask().isPresent()) {
            return Reading.missing(fabric.healthMask().missing());
        }
        int v = FabricDecoder.healthField(fabric.healthMask().value(), NvmlCodes.FABRIC_HEALTH_SHIFT_GFM_STATE,
                NvmlCodes.FABRIC_HEALTH_WIDTH_GFM_STATE);
        String name = NvmlCodes.GFM_STATES.get(v);
        return name != null ? Reading.of(name) : Reading.missing(Missing.invalid("fabric health mask bits 15:14",
                "0x" + Long.toHexString(fabric.healthMask().value()), "GFM state " + v + " is not 0, 1 or 2"));
    }

    /** State and both BERs of every link whose state NVML answered, in one field-values call. */
    private static List<LinkSignal> linkSignals(Nvml nvml, NvmlDevice h, List<NvLink> links) {
        List<NvLink> answered = links.stream().filter(l -> l.active().isPresent()).toList();
        if (answered.isEmpty()) {
            return List.of();
        }
        int[][] fields = new int[answered.size() * 3][];
        for (int k = 0; k < answered.size(); k++) {
            int link = answered.get(k).index();
            fields[3 * k] = new int[] {NvmlCodes.FI_NVLINK_GET_STATE, link};
            fields[3 * k + 1] = new int[] {NvmlCodes.FI_NVLINK_EFFECTIVE_BER, link};
            fields[3 * k + 2] = new int[] {NvmlCodes.FI_NVLINK_SYMBOL_BER, link};
        }
        List<Reading<Long>> v = nvml.fieldValues(h, fields);
        List<LinkSignal> out = new ArrayList<>();
        for (int k = 0; k < answered.size(); k++) {
            int link = answered.get(k).index();
            out.add(new LinkSignal(link, state(v.get(3 * k), link), ber(v.get(3 * k + 1), "NVML_FI_DEV_NVLINK_COUNT_EFFECTIVE_BER"),
                    ber(v.get(3 * k + 2), "NVML_FI_DEV_NVLINK_COUNT_SYMBOL_BER")));
        }
        return out;
    }

    private static Reading<String> state(Reading<Long> raw, int link) {
        if (!raw.isPresent()) {
            return Reading.missing(raw.missing());
        }
        String name = NvmlCodes.nvLinkStateName(raw.value());
        return name != null ? Reading.of(name) : Reading.missing(Missing.invalid(
                "nvmlDeviceGetFieldValues(NVML_FI_DEV_NVLINK_GET_STATE, link " + link + ")", String.valueOf(raw.value()),
                "not a state of nvml.h 13.3.29 (INACTIVE 0, ACTIVE 1, SLEEP 2): perhaps NVML 615's ACTIVE_TRAFFIC_DISABLED,"
                        + " whose value no public header defines"));
    }

    private static Reading<Ber> ber(Reading<Long> raw, String field) {
        if (!raw.isPresent()) {
            return Reading.missing(raw.missing());
        }
        long v = raw.value();
        if (v < 0 || v > 0xfff) {
            return Reading.missing(Missing.invalid("nvmlDeviceGetFieldValues(" + field + ")", "0x" + Long.toHexString(v),
                    "bits above 11 set: not a packed BER (exponent 7:0, mantissa 11:8)"));
        }
        return Reading.of(new Ber((int) (v >>> 8) & 0xf, (int) v & 0xff));
    }
}
