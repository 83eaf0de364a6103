package dev.fabricscope.topology;

import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.Missing;
import dev.fabricscope.model.NvLink;
import dev.fabricscope.model.NvLinkErrors;
import dev.fabricscope.model.Reading;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * What each NVLink error counter means, classed as NVIDIA's DCGM health check classes it, and one verdict per GPU.
 * The counters NVML gives ({@code nvmlDeviceGetNvLinkErrorCounter}) count since the driver loaded; DCGM judges the
 * rise over a one-minute window. One reading has no rate, so a verdict says only what its totals can prove.
 *
 * <p>Sources, NVIDIA/DCGM at 72fa3feaa67d716a75323a8f47c34ff3ee73f824 (DCGM 4.6.0):
 * <ul>
 *   <li>{@code modules/health/DcgmHealthWatch.cpp} {@code MonitorNVLink4Fields} (lines 2688–2805): watches CRC flit,
 *       CRC data, replay and recovery totals over the last minute (line 2704); any rise of replay or recovery fails the
 *       GPU ({@code DCGM_FR_NVLINK_ERROR_CRITICAL}, "should be 0", line 2764); a rise of CRC counts warns
 *       ({@code DCGM_FR_NVLINK_ERROR_THRESHOLD}) and fails only at 100 or more per second
 *       ({@code DCGM_FR_NVLINK_CRC_ERROR_THRESHOLD}, line 2784).</li>
 *   <li>{@code common/DcgmGPUHardwareLimits.h} lines 28–30: {@code DCGM_LIMIT_MAX_NVLINK_ERROR 1};
 *       {@code DCGM_LIMIT_MAX_NVLINK_CRC_ERROR 100.0}, "RM has informed us that CRC errors only matter at rates of 100+
 *       per second".</li>
 *   <li>{@code MonitorNVLink5Fields} (lines 2807–2946): the NVLink 5 counters, {@code DCGM_FI_DEV_NVLINK_ECC_ERROR_TOTAL}
 *       among them (line 2826), fail on any rise (line 2937); {@code dcgmlib/dcgm_structs.h} line 175 leaves
 *       {@code NVML_NVLINK_ERROR_DL_ECC_DATA} out of the NVLink error set DCGM reads per link.</li>
 *   <li>{@code nvidia-smi nvlink -e} (driver 580.159.04) prints replay, recovery and "CRC Errors", which are the CRC
 *       flit counts: on {@code captured/h200-nvswitch-2gpu-2026-12-01/nvlink-e.txt} every link shows 0 CRC errors
 *       while the CRC data and ECC data counters of the same call time read non-zero.</li>
 * </ul>
 */
public final class NvLinkCounters {

    /** DCGM's per-second CRC rate that fails a GPU ({@code DCGM_LIMIT_MAX_NVLINK_CRC_ERROR}). */
    public static final double DCGM_CRC_FAIL_PER_SECOND = 100.0;

    /** DCGM's window: the health check compares the counter one minute apart. */
    public static final int DCGM_WINDOW_SECONDS = 60;

    /**
     * The smallest total since the driver loaded that could hold one DCGM window at the fail rate (100/s × 60 s):
     * below it, no minute can have failed DCGM's CRC check; at or above it, one reading cannot rule that out.
     */
    public static final long CRC_TOTAL_THAT_COULD_FAIL = (long) (DCGM_CRC_FAIL_PER_SECOND * DCGM_WINDOW_SECONDS);

    private NvLinkCounters() {
    }

    /** How DCGM judges a counter's rise. */
    public enum CounterClass {
        /** Any rise fails the GPU in DCGM ("should be 0"): replay, recovery, and ECC data on NVLink 5 and later. */
        MUST_NOT_RISE,
        /** Detected and corrected by the link (retried or ECC-corrected); DCGM fails only a rate of 100/s or more. */
        CORRECTED_CRC,
        /** Counted by the link but judged by neither DCGM's NVLink 4 watch nor {@code nvidia-smi nvlink -e}. */
        CORRECTED_UNJUDGED
    }

    /**
     * One counter's row of the data: its name, the NVML counter, the DCGM field, how DCGM classes it, and why.
     *
     * @param name      as the text views name it
     * @param nvml      the {@code nvmlNvLinkErrorCounter_t} value
     * @param dcgmField the DCGM per-GPU total
     * @param source    where the class comes from (file and line in NVIDIA/DCGM 72fa3fe, or the capture)
     */
    public record Rule(String name, String nvml, String dcgmField, CounterClass counterClass, String meaning, String source) {
    }

    /** The five counters of {@code nvmlNvLinkErrorCounter_t}, in its order, as {@link NvLinkErrors#counters()} lists them. */
    public static final List<Rule> RULES = List.of(
            new Rule("replay", "NVML_NVLINK_ERROR_DL_REPLAY", "DCGM_FI_DEV_NVLINK_REPLAY_ERROR_TOTAL", CounterClass.MUST_NOT_RISE,
                    "packets the link sent again", "DcgmHealthWatch.cpp:2764 (DCGM_FR_NVLINK_ERROR_CRITICAL)"),
            new Rule("recovery", "NVML_NVLINK_ERROR_DL_RECOVERY", "DCGM_FI_DEV_NVLINK_RECOVERY_ERROR_TOTAL", CounterClass.MUST_NOT_RISE,
                    "times the link retrained", "DcgmHealthWatch.cpp:2764 (DCGM_FR_NVLINK_ERROR_CRITICAL)"),
            new Rule("CRC flit", "NVML_NVLINK_ERROR_DL_CRC_FLIT", "DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_TOTAL", CounterClass.CORRECTED_CRC,
                    "flow-control units that failed their CRC (nvidia-smi nvlink -e: CRC Errors)",
                    "DcgmHealthWatch.cpp:2784, DcgmGPUHardwareLimits.h:30 (100 per second)"),
            new Rule("CRC data", "NVML_NVLINK_ERROR_DL_CRC_DATA", "DCGM_FI_DEV_NVLINK_CRC_DATA_ERROR_TOTAL", CounterClass.CORRECTED_CRC,
                    "data payloads that failed their CRC", "DcgmHealthWatch.cpp:2784, DcgmGPUHardwareLimits.h:30 (100 per second)"),
            new Rule("ECC data", "NVML_NVLINK_ERROR_DL_ECC_DATA", "DCGM_FI_DEV_NVLINK_ECC_ERROR_TOTAL", CounterClass.CORRECTED_UNJUDGED,
                    "data payloads corrected by the link's ECC",
                    "dcgm_structs.h:175 (not in the NVLink 4 error set); on NVLink 5 DcgmHealthWatch.cpp:2826/2937 (must not rise)"));

    /** The class of counter {@code index} ({@link NvLinkErrors#counters()} order) on a link of NVLink {@code generation}. */
    public static CounterClass classOf(int index, Integer generation) {
        Rule r = RULES.get(index);
        if (r.counterClass() == CounterClass.CORRECTED_UNJUDGED && generation != null && generation >= 5) {
            return CounterClass.MUST_NOT_RISE; // DCGM 4.6 MonitorNVLink5Fields, line 2826
        }
        return r.counterClass();
    }

    /** A GPU's verdict on its counters. */
    public enum Verdict {
        /** Every counter read 0. */
        CLEAN,
        /** Only corrected counts, below what could have failed DCGM's CRC check in any minute. */
        CORRECTED_ONLY,
        /** A must-not-rise counter is above 0, or the CRC total could hold a minute at DCGM's fail rate. */
        PAST_THRESHOLD,
        /** No counter could be read. */
        NOT_READ
    }

    /**
     * One counter summed over a GPU's active links.
     *
     * @param links the links where it is non-zero
     */
    public record Total(Rule rule, CounterClass counterClass, long sum, TreeSet<Integer> links, int unread, Missing why) {
    }

    /**
     * A GPU's counters judged.
     *
     * @param activeLinks the indices of its active links
     * @param totals      one per counter, in {@link #RULES} order
     * @param reasons     why the verdict is {@link Verdict#PAST_THRESHOLD}, in words (empty otherwise)
     */
    public record GpuCounters(Verdict verdict, TreeSet<Integer> activeLinks, List<Total> totals, List<String> reasons) {

        public Total total(String name) {
            return totals.stream().filter(t -> t.rule().name().equals(name)).findFirst().orElseThrow();
        }
    }

    /** Judges {@code g}'s active links' counters. */
    public static GpuCounters of(Gpu g) {
        TreeSet<Integer> active = new TreeSet<>();
        List<Total> totals = new ArrayList<>();
        for (int c = 0; c < RULES.size(); c++) {
            long sum = 0;
            int unread = 0;
            Missing why = null;
            TreeSet<Integer> where = new TreeSet<>();
            CounterClass cls = RULES.get(c).counterClass();
            for (NvLink l : g.activeLinks()) {
                active.add(l.index());
                cls = classOf(c, l.generation().value());
                Reading<Long> v = l.errors().counters().get(c).value();
                if (v.isPresent()) {
                    sum += v.value();
                    if (v.value() != 0) {
                        where.add(l.index());
                    }
                } else {
                    unread++;
                    why = v.missing();
                }
            }
            totals.add(new Total(RULES.get(c), cls, sum, where, unread, why));
        }
        boolean anyRead = !active.isEmpty() && totals.stream().anyMatch(t -> t.unread() < active.size());
        if (!anyRead) {
            return new GpuCounters(Verdict.NOT_READ, active, totals, List.of());
        }
        List<String> reasons = new ArrayList<>();
        long crc = 0;
        for (Total t : totals) {
            if (t.counterClass() == CounterClass.MUST_NOT_RISE && t.sum() > 0) {
                reasons.add(String.format(Locale.ROOT, "%s %d on %s (DCGM fails a GPU whose %s count rises at all)", t.rule().name(),
                        t.sum(), linkRanges(t.links()), t.rule().name()));
            }
            if (t.counterClass() == CounterClass.CORRECTED_CRC) {
                crc += t.sum();
            }
        }
        if (crc >= CRC_TOTAL_THAT_COULD_FAIL) {
            reasons.add(String.format(Locale.ROOT, "CRC %d since the driver loaded: enough for a minute at DCGM's fail rate of %.0f "
                    + "per second", crc, DCGM_CRC_FAIL_PER_SECOND));
        }
        boolean anyCount = totals.stream().anyMatch(t -> t.sum() > 0);
        Verdict v = !reasons.isEmpty() ? Verdict.PAST_THRESHOLD : anyCount ? Verdict.CORRECTED_ONLY : Verdict.CLEAN;
        return new GpuCounters(v, active, totals, reasons);
    }

    /**
     * The finding's words for a GPU past a threshold, or empty: corrected counts below DCGM's CRC fail rate are no
     * finding (they stay in the counters' lines, {@code --wide}, the JSON and the details pane).
     */
    public static java.util.Optional<String> finding(Gpu g) {
        GpuCounters c = of(g);
        if (c.verdict() != Verdict.PAST_THRESHOLD) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of("NVLink error counters past DCGM's health-check thresholds: " + String.join("; ", c.reasons())
                + ". These are totals since the driver loaded; DCGM judges their rise over a minute, so read them twice "
                + "(or run dcgmi health) to see whether they still rise.");
    }

    /** {@code links 0–3, 5–17} ({@code link 4} for one). */
    public static String linkRanges(java.util.Collection<Integer> links) {
        List<String> parts = new ArrayList<>();
        Integer start = null;
        Integer prev = null;
        for (int n : new TreeSet<>(links)) {
            if (prev != null && n == prev + 1) {
                prev = n;
                continue;
            }
            if (start != null) {
                parts.add(start.equals(prev) ? String.valueOf(start) : start + "–" + prev);
            }
            start = n;
            prev = n;
        }
        if (start != null) {
            parts.add(start.equals(prev) ? String.valueOf(start) : start + "–" + prev);
        }
        return (links.size() == 1 ? "link " : "links ") + String.join(", ", parts);
    }
}
