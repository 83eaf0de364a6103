package dev.fabricscope.nativeapi.cuda;

import dev.fabricscope.nativeapi.NativeAnswer;

/**
 * The seam to {@code libcuda.so.1} for the probe: every CUDA driver call it makes, named as in {@code cuda.h}, with
 * plain arguments ({@code CUdevice} is an int) and raw outputs. Backends: {@link CudaProbeJna} (the driver), a recorded
 * trace. {@link CudaReader} turns the answers into readings.
 */
public interface CudaProbeCalls {

    /** Loads the library; answers its file name, or {@link NativeAnswer.Fault#LOAD_FAILED} with the loader's words. */
    NativeAnswer<String> load();

    NativeAnswer<Void> cuInit(int flags);

    /** The driver's name for a CUresult. */
    NativeAnswer<String> cuGetErrorName(int error);

    NativeAnswer<Integer> cuDriverGetVersion();

    NativeAnswer<Integer> cuDeviceGetCount();

    /** The {@code CUdevice} of an ordinal. */
    NativeAnswer<Integer> cuDeviceGet(int ordinal);

    NativeAnswer<String> cuDeviceGetPCIBusId(int device);

    NativeAnswer<Integer> cuDeviceGetAttribute(int attribute, int device);

    NativeAnswer<Integer> cuDeviceCanAccessPeer(int device, int peerDevice);

    NativeAnswer<Integer> cuDeviceGetP2PAttribute(int attribute, int srcDevice, int dstDevice);
}
