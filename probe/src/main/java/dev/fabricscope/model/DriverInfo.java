package dev.fabricscope.model;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.util.List;

/**
 * The NVIDIA driver stack as seen by NVML and the CUDA driver API.
 *
 * @param status            whether NVML and libcuda could be loaded and initialised
 * @param message           one line for the user when {@code status} is not OK (the loader's words)
 * @param driverVersion     {@code nvmlSystemGetDriverVersion}, e.g. {@code 580.159.04}
 * @param cudaDriverVersion {@code cuDriverGetVersion}, e.g. {@code 13.0}
 * @param nvmlVersion       {@code nvmlSystemGetNVMLVersion}
 * @param nccl              NCCL found on this host
 * @param imexChannels      IMEX channel device nodes under {@code /dev/nvidia-caps-imex-channels}
 * @param cudaDeviceCount   {@code cuDeviceGetCount}
 */
public record DriverInfo(Status status, String message, Reading<String> driverVersion,
                         Reading<String> cudaDriverVersion, Reading<String> nvmlVersion, NcclInfo nccl,
                         Reading<List<String>> imexChannels, Reading<Integer> cudaDeviceCount) {

    public enum Status {
        /** NVML and CUDA loaded and initialised. */
        OK,
        /** Only one of NVML / CUDA worked; the other's readings say why. */
        PARTIAL,
        /** No NVIDIA driver library could be loaded. */
        NOT_FOUND,
        /** The libraries loaded but initialisation failed (e.g. driver/library mismatch, no device). */
        INIT_FAILED
    }

    @JsonIgnore
    public boolean driverPresent() {
        return status == Status.OK || status == Status.PARTIAL;
    }
}
