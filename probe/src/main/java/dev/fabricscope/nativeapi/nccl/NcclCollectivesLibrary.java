package dev.fabricscope.nativeapi.nccl;

import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;

/**
 * JNA mapping of the NCCL calls the all-reduce check makes ({@code nccl.h}): single-process communicators over all
 * local GPUs, all-reduce inside a group, and the error/abort calls. {@code size_t} is {@code long} (LP64);
 * {@code ncclComm_t} and {@code cudaStream_t} are opaque pointers.
 */
public interface NcclCollectivesLibrary extends NcclLibrary {
    int ncclCommInitAll(Pointer comms, int ndev, int[] devlist);

    int ncclAllReduce(Pointer sendbuff, Pointer recvbuff, long count, int datatype, int op, Pointer comm, Pointer stream);

    int ncclGroupStart();

    int ncclGroupEnd();

    int ncclCommGetAsyncError(Pointer comm, IntByReference asyncError);

    int ncclCommAbort(Pointer comm);

    int ncclCommDestroy(Pointer comm);

    String ncclGetLastError(Pointer comm);
}
