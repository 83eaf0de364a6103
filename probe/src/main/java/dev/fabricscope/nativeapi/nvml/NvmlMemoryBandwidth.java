package dev.fabricscope.nativeapi.nvml;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import dev.fabricscope.model.Reading;

/**
 * Peak DRAM bandwidth of a GPU derived from NVML: 2 (double data rate) × maximum memory clock × bus width / 8.
 * For H100 SXM (2619 MHz, 5120 bit) this gives 3.35 TB/s, the datasheet figure. Needs NVML already initialised
 * ({@link Nvml#open()}).
 */
public final class NvmlMemoryBandwidth {

    interface Lib extends Library {
        int nvmlDeviceGetMaxClockInfo(Pointer device, int clockType, IntByReference mhz);

        int nvmlDeviceGetMemoryBusWidth(Pointer device, IntByReference bits);
    }

    /** {@code NVML_CLOCK_MEM}. */
    static final int CLOCK_MEM = 2;

    private NvmlMemoryBandwidth() {
    }

    /**
     * @param memoryClockMhz maximum memory clock
     * @param busWidthBits   memory bus width
     * @param bytesPerSecond derived peak
     */
    public record Peak(int memoryClockMhz, int busWidthBits, double bytesPerSecond) {
    }

    public static double peakBytesPerSecond(int memoryClockMhz, int busWidthBits) {
        return 2.0 * memoryClockMhz * 1e6 * busWidthBits / 8.0;
    }

    public static Reading<Peak> read(Pointer device) {
        Lib lib;
        try {
            lib = Native.load("libnvidia-ml.so.1", Lib.class);
        } catch (LinkageError e) {
            return Reading.unavailable("libnvidia-ml.so.1 not loadable");
        }
        IntByReference mhz = new IntByReference();
        IntByReference bits = new IntByReference();
        int rc;
        try {
            rc = lib.nvmlDeviceGetMaxClockInfo(device, CLOCK_MEM, mhz);
            if (rc != NvmlCodes.SUCCESS) {
                return Reading.missing(Nvml.missing("nvmlDeviceGetMaxClockInfo(NVML_CLOCK_MEM)", rc));
            }
            rc = lib.nvmlDeviceGetMemoryBusWidth(device, bits);
            if (rc != NvmlCodes.SUCCESS) {
                return Reading.missing(Nvml.missing("nvmlDeviceGetMemoryBusWidth", rc));
            }
        } catch (UnsatisfiedLinkError e) {
            return Reading.unavailable("NVML lacks nvmlDeviceGetMaxClockInfo / nvmlDeviceGetMemoryBusWidth");
        }
        return Reading.of(new Peak(mhz.getValue(), bits.getValue(), peakBytesPerSecond(mhz.getValue(), bits.getValue())));
    }
}
