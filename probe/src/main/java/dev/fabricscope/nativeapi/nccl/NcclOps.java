package dev.fabricscope.nativeapi.nccl;

import dev.fabricscope.nativeapi.NativeAnswer;
import dev.fabricscope.nativeapi.NativeReads;
import dev.fabricscope.nativeapi.Opened;
import java.nio.file.Path;
import java.util.Map;

/**
 * NCCL as the all-reduce check uses it, over the seam {@link NcclCheckCalls} (the library, or a trace being recorded
 * or replayed), in plain Java types: communicators and CUDA streams are {@code long} handles, device buffers
 * {@code long} pointers. A failed call throws {@link NcclCallException} naming the call and its ncclResult_t.
 */
public final class NcclOps {

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

    private final NcclCheckCalls calls;
    private final Path path;
    private final int versionCode;

    private NcclOps(NcclCheckCalls calls, Path path, int versionCode) {
        this.calls = calls;
        this.path = path;
        this.versionCode = versionCode;
    }

    /** Finds ({@link NcclLocator}) and loads libnccl.so.2 through JNA; {@code explicitPath} wins when given. */
    public static Opened<NcclOps> open(String explicitPath, Map<String, String> env) {
        return open(new NcclCheckJna(env), explicitPath);
    }

    /** Loads the library through the seam and reads its version. */
    public static Opened<NcclOps> open(NcclCheckCalls calls, String explicitPath) {
        NativeAnswer<String> loaded = calls.load(explicitPath);
        if (loaded.fault() != null) {
            return Opened.notLoaded(loaded.detail() == null ? NativeReads.faultText(loaded) : loaded.detail());
        }
        NativeAnswer<Integer> v = calls.ncclGetVersion();
        if (!v.succeeded() || v.value() == null) {
            return Opened.notInitialised("ncclGetVersion → " + (v.fault() != null ? NativeReads.faultText(v)
                    : Nccl.resultName(v.rc()) + " (" + v.rc() + ")"), v.fault() != null ? null : v.rc());
        }
        return Opened.of(new NcclOps(calls, Path.of(loaded.value()), v.value()), Nccl.SUCCESS);
    }

    public String version() {
        return NcclLocator.versionString(versionCode);
    }

    public Path path() {
        return path;
    }

    /** {@code ncclInvalidUsage (5): <ncclGetErrorString>}. */
    public String describe(int rc) {
        NativeAnswer<String> t = calls.ncclGetErrorString(rc);
        String text = t.succeeded() ? t.value() : null;
        return Nccl.resultName(rc) + " (" + rc + ")" + (text == null || text.isBlank() ? "" : ": " + text);
    }

    /** Sets a variable in the live environment, where NCCL reads it at communicator creation; returns the old value. */
    public String setEnvironment(String name, String value) {
        NativeAnswer<String> a = calls.setenv(name, value);
        if (a.fault() != null || a.rc() != 0) {
            throw new IllegalStateException("setenv(" + name + ") failed"
                    + (a.fault() != null ? ": " + NativeReads.faultText(a) : ""));
        }
        return a.value();
    }

    /** {@code ncclCommInitAll} over the given CUDA devices: one communicator per device, in order. */
    public long[] initAll(int[] devices) {
        NativeAnswer<long[]> a = calls.ncclCommInitAll(devices);
        check("ncclCommInitAll", a);
        if (a.value() == null || a.value().length != devices.length) {
            throw new NcclCallException("ncclCommInitAll answered no communicator per device", -1);
        }
        return a.value();
    }

    public void groupStart() {
        check("ncclGroupStart", calls.ncclGroupStart());
    }

    public void groupEnd() {
        check("ncclGroupEnd", calls.ncclGroupEnd());
    }

    /** Sum all-reduce; {@code what} names the rank in the error. */
    public void allReduce(long send, long recv, long count, int type, long comm, long stream, String what) {
        NativeAnswer<Void> a = calls.ncclAllReduce(send, recv, count, type, Nccl.SUM, comm, stream);
        if (!a.succeeded()) {
            check("ncclAllReduce(" + what + ")", a);
        }
    }

    /** The communicator's asynchronous error as text, or null when there is none (or it is still in progress). */
    public String asyncError(long comm) {
        NativeAnswer<Integer> a = calls.ncclCommGetAsyncError(comm);
        if (a.fault() != null) {
            return "ncclCommGetAsyncError → " + NativeReads.faultText(a);
        }
        if (a.rc() != Nccl.SUCCESS) {
            return "ncclCommGetAsyncError → " + describe(a.rc());
        }
        int e = a.value() == null ? Nccl.SUCCESS : a.value();
        return e == Nccl.SUCCESS || e == Nccl.IN_PROGRESS ? null : describe(e);
    }

    public int abort(long comm) {
        NativeAnswer<Void> a = calls.ncclCommAbort(comm);
        return a.fault() != null ? -1 : a.rc();
    }

    public int destroy(long comm) {
        NativeAnswer<Void> a = calls.ncclCommDestroy(comm);
        return a.fault() != null ? -1 : a.rc();
    }

    private void check(String call, NativeAnswer<?> a) {
        if (a.fault() != null) {
            throw new NcclCallException(call + " → " + NativeReads.faultText(a), -1);
        }
        if (a.rc() != Nccl.SUCCESS) {
            NativeAnswer<String> last = calls.ncclGetLastError();
            String text = last.succeeded() ? last.value() : null;
            throw new NcclCallException(call + " → " + describe(a.rc()) + (text == null || text.isBlank() ? ""
                    : " (" + text + ")"), a.rc());
        }
    }
}
