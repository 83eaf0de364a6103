package dev.fabricscope.nativeapi.nccl;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * NCCL as the all-reduce check uses it, in plain Java types: communicators and CUDA streams are {@code long}
 * handles, device buffers {@code long} pointers. The calls inside a timed loop ({@code ncclGroupStart},
 * {@code ncclAllReduce}, {@code ncclGroupEnd}) go through JNA direct mapping; a failed call throws
 * {@link NcclCallException} naming the call and its ncclResult_t.
 */
public final class NcclComms {

    /** Direct-mapped hot calls, bound to the one libnccl this process loaded. */
    static final class Hot {
        private Hot() {
        }

        static native int ncclAllReduce(long send, long recv, long count, int type, int op, long comm, long stream);

        static native int ncclGroupStart();

        static native int ncclGroupEnd();
    }

    private static Path boundTo;

    /** An NCCL call failed: the call, its ncclResult_t and NCCL's last error text. */
    public static final class NcclCallException extends RuntimeException {
        private final int code;

        public NcclCallException(String message, int code) {
            super(message);
            this.code = code;
        }

        public int code() {
            return code;
        }
    }

    private final Nccl nccl;

    private NcclComms(Nccl nccl) {
        this.nccl = nccl;
    }

    /**
     * @param comms   the facade, or null
     * @param failure why not: library not found or not loadable
     */
    public record Opened(NcclComms comms, String failure) {
    }

    /** Finds ({@link NcclLocator}) and loads libnccl.so.2; {@code explicitPath} wins when given. */
    public static synchronized Opened open(String explicitPath, Map<String, String> env) {
        List<Path> found = NcclLocator.candidates(explicitPath, env);
        if (found.isEmpty() || !Files.isRegularFile(found.get(0))) {
            return new Opened(null, found.isEmpty() ? "libnccl.so.2 not found (searched Python wheels, LD_LIBRARY_PATH "
                    + "and system library paths; give --nccl-lib PATH)" : "no such file: " + found.get(0));
        }
        Nccl nccl;
        try {
            nccl = Nccl.load(found.get(0));
        } catch (IllegalStateException e) {
            return new Opened(null, e.getMessage());
        }
        try {
            if (boundTo == null) {
                Native.register(Hot.class, NativeLibrary.getInstance(found.get(0).toString()));
                boundTo = found.get(0);
            } else if (!boundTo.equals(found.get(0))) {
                return new Opened(null, "this process already uses " + boundTo + ", not " + found.get(0));
            }
        } catch (LinkageError e) {
            return new Opened(null, "cannot bind NCCL's collectives in " + found.get(0) + ": " + e.getMessage());
        }
        return new Opened(new NcclComms(nccl), null);
    }

    public String version() {
        return nccl.version();
    }

    public Path path() {
        return nccl.path();
    }

    /** {@code ncclInvalidUsage (5): <text>}. */
    public String describe(int rc) {
        return nccl.describe(rc);
    }

    /** Sets a variable in the live environment, where NCCL reads it at communicator creation; returns the old value. */
    public static String setEnvironment(String name, String value) {
        String old = NcclEnvironment.get(name);
        NcclEnvironment.set(name, value);
        return old;
    }

    /** {@code ncclCommInitAll} over the given CUDA devices: one communicator per device, in order. */
    public long[] initAll(int[] devices) {
        try (Memory mem = new Memory(8L * devices.length)) {
            mem.clear();
            check("ncclCommInitAll", nccl.lib().ncclCommInitAll(mem, devices.length, devices));
            long[] comms = new long[devices.length];
            for (int i = 0; i < devices.length; i++) {
                comms[i] = Pointer.nativeValue(mem.getPointer(8L * i));
            }
            return comms;
        }
    }

    public void groupStart() {
        check("ncclGroupStart", Hot.ncclGroupStart());
    }

    public void groupEnd() {
        check("ncclGroupEnd", Hot.ncclGroupEnd());
    }

    /** Sum all-reduce; {@code what} names the rank in the error. */
    public void allReduce(long send, long recv, long count, int type, long comm, long stream, String what) {
        int rc = Hot.ncclAllReduce(send, recv, count, type, Nccl.SUM, comm, stream);
        if (rc != Nccl.SUCCESS) {
            check("ncclAllReduce(" + what + ")", rc);
        }
    }

    /** The communicator's asynchronous error as text, or null when there is none (or it is still in progress). */
    public String asyncError(long comm) {
        IntByReference e = new IntByReference();
        int rc = nccl.lib().ncclCommGetAsyncError(new Pointer(comm), e);
        if (rc != Nccl.SUCCESS) {
            return "ncclCommGetAsyncError → " + describe(rc);
        }
        return e.getValue() == Nccl.SUCCESS || e.getValue() == Nccl.IN_PROGRESS ? null : describe(e.getValue());
    }

    public int abort(long comm) {
        return nccl.lib().ncclCommAbort(new Pointer(comm));
    }

    public int destroy(long comm) {
        return nccl.lib().ncclCommDestroy(new Pointer(comm));
    }

    private void check(String call, int rc) {
        if (rc != Nccl.SUCCESS) {
            String last = null;
            try {
                last = nccl.lib().ncclGetLastError(null);
            } catch (LinkageError | RuntimeException ignored) {
                // older NCCL
            }
            throw new NcclCallException(call + " → " + describe(rc) + (last == null || last.isBlank() ? "" : " (" + last + ")"), rc);
        }
    }
}
