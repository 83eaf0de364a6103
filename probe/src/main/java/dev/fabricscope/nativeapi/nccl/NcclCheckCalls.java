package dev.fabricscope.nativeapi.nccl;

import dev.fabricscope.nativeapi.NativeAnswer;

/**
 * The seam to {@code libnccl.so.2} for the all-reduce check: finding and loading the library, the process
 * environment NCCL reads at communicator creation, and the collective calls, named as in {@code nccl.h}.
 * Communicators, CUDA streams and device buffers are opaque {@code long}s. Backends: {@link NcclCheckJna} (the
 * library; the timed calls direct-mapped), a recorded trace. {@link NcclOps} is the check's facade.
 */
public interface NcclCheckCalls {

    /**
     * Finds ({@link NcclLocator}; {@code explicitPath} wins when given) and loads the library; answers its path, or
     * {@link NativeAnswer.Fault#LOAD_FAILED} with why in one line.
     */
    NativeAnswer<String> load(String explicitPath);

    NativeAnswer<Integer> ncclGetVersion();

    /** {@code ncclGetErrorString}: the library's words for a result, or null. */
    NativeAnswer<String> ncclGetErrorString(int result);

    /** {@code ncclGetLastError(NULL)}: the last error's text, or null. */
    NativeAnswer<String> ncclGetLastError();

    /** Sets {@code name=value} in the live process environment (libc {@code setenv}); answers the old value or null. */
    NativeAnswer<String> setenv(String name, String value);

    /** One communicator per device, in order. */
    NativeAnswer<long[]> ncclCommInitAll(int[] devices);

    NativeAnswer<Void> ncclGroupStart();

    NativeAnswer<Void> ncclGroupEnd();

    NativeAnswer<Void> ncclAllReduce(long send, long recv, long count, int datatype, int op, long comm, long stream);

    /** The communicator's asynchronous error ({@code ncclResult_t}). */
    NativeAnswer<Integer> ncclCommGetAsyncError(long comm);

    NativeAnswer<Void> ncclCommAbort(long comm);

    NativeAnswer<Void> ncclCommDestroy(long comm);
}
