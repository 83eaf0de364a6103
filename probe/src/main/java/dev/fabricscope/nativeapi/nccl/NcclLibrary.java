package dev.fabricscope.nativeapi.nccl;

import com.sun.jna.Library;
import com.sun.jna.ptr.IntByReference;

/** Raw JNA mapping of {@code libnccl.so.2}: the version query (the checks extend this with collectives). */
public interface NcclLibrary extends Library {
    int ncclGetVersion(IntByReference version);

    String ncclGetErrorString(int result);
}
