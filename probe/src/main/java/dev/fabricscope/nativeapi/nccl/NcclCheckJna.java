package dev.fabricscope.nativeapi.nccl;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import dev.fabricscope.nativeapi.JnaCalls;
import dev.fabricscope.nativeapi.NativeAnswer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * {@link NcclCheckCalls} through JNA: {@link NcclCollectivesLibrary} for most calls, direct mapping for the calls
 * inside a timed loop ({@code ncclGroupStart}, {@code ncclAllReduce}, {@code ncclGroupEnd}), bound to the one
 * libnccl this process loads, answering a shared answer object for {@code ncclSuccess}.
 */
public final class NcclCheckJna implements NcclCheckCalls {

    /** Direct-mapped hot calls, bound to the one libnccl this process loaded. */
    static final class Hot {
        private Hot() {
        }

        static native int ncclAllReduce(long send, long recv, long count, int type, int op, long comm, long stream);

        static native int ncclGroupStart();

        static native int ncclGroupEnd();
    }

    private static final NativeAnswer<Void> SUCCESS = NativeAnswer.returned(Nccl.SUCCESS, null);
    private static Path boundTo;

    private final Map<String, String> env;
    private NcclCollectivesLibrary lib;

    /** @param env the environment that says where to look (VIRTUAL_ENV, CONDA_PREFIX, LD_LIBRARY_PATH, HOME) */
    public NcclCheckJna(Map<String, String> env) {
        this.env = env;
    }

    @Override
    public NativeAnswer<String> load(String explicitPath) {
        List<Path> found = NcclLocator.candidates(explicitPath, env);
        if (found.isEmpty() || !Files.isRegularFile(found.get(0))) {
            return NativeAnswer.failed(NativeAnswer.Fault.LOAD_FAILED, found.isEmpty() ? "libnccl.so.2 not found (searched "
                    + "Python wheels, LD_LIBRARY_PATH and system library paths; give --nccl-lib PATH)"
                    : "no such file: " + found.get(0));
        }
        Path path = found.get(0);
        try {
            lib = Native.load(path.toString(), NcclCollectivesLibrary.class);
        } catch (LinkageError e) {
            String m = e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst().orElse("");
            return NativeAnswer.failed(NativeAnswer.Fault.LOAD_FAILED, "cannot load " + path + ": " + m);
        }
        synchronized (NcclCheckJna.class) {
            try {
                if (boundTo == null) {
                    Native.register(Hot.class, NativeLibrary.getInstance(path.toString()));
                    boundTo = path;
                } else if (!boundTo.equals(path)) {
                    return NativeAnswer.failed(NativeAnswer.Fault.LOAD_FAILED, "this process already uses " + boundTo
                            + ", not " + path);
                }
            } catch (LinkageError e) {
                return NativeAnswer.failed(NativeAnswer.Fault.LOAD_FAILED, "cannot bind NCCL's collectives in " + path
                        + ": " + e.getMessage());
            }
        }
        return NativeAnswer.ok(path.toString());
    }

    private <T> NativeAnswer<T> call(IntSupplier nativeCall, Supplier<T> outputs) {
        return JnaCalls.call(lib, "libnccl", Nccl.SUCCESS, nativeCall, outputs);
    }

    private static NativeAnswer<Void> hot(int rc) {
        return rc == Nccl.SUCCESS ? SUCCESS : NativeAnswer.returned(rc, null);
    }

    /** A call that returns text rather than a code: code 0 and the text. */
    private NativeAnswer<String> text(Supplier<String> nativeCall) {
        String[] out = new String[1];
        return call(() -> {
            out[0] = nativeCall.get();
            return Nccl.SUCCESS;
        }, () -> out[0]);
    }

    @Override
    public NativeAnswer<Integer> ncclGetVersion() {
        IntByReference v = new IntByReference();
        return call(() -> lib.ncclGetVersion(v), v::getValue);
    }

    @Override
    public NativeAnswer<String> ncclGetErrorString(int result) {
        return text(() -> lib.ncclGetErrorString(result));
    }

    @Override
    public NativeAnswer<String> ncclGetLastError() {
        return text(() -> lib.ncclGetLastError(null));
    }

    @Override
    public NativeAnswer<String> setenv(String name, String value) {
        String[] old = new String[1];
        return JnaCalls.call(NcclEnvironment.class, "libc", 0, () -> {
            old[0] = NcclEnvironment.get(name);
            NcclEnvironment.set(name, value);
            return 0;
        }, () -> old[0]);
    }

    @Override
    public NativeAnswer<long[]> ncclCommInitAll(int[] devices) {
        try (Memory mem = new Memory(8L * Math.max(1, devices.length))) {
            mem.clear();
            return call(() -> lib.ncclCommInitAll(mem, devices.length, devices), () -> {
                long[] comms = new long[devices.length];
                for (int i = 0; i < devices.length; i++) {
                    comms[i] = Pointer.nativeValue(mem.getPointer(8L * i));
                }
                return comms;
            });
        }
    }

    @Override
    public NativeAnswer<Void> ncclGroupStart() {
        return hot(Hot.ncclGroupStart());
    }

    @Override
    public NativeAnswer<Void> ncclGroupEnd() {
        return hot(Hot.ncclGroupEnd());
    }

    @Override
    public NativeAnswer<Void> ncclAllReduce(long send, long recv, long count, int datatype, int op, long comm, long stream) {
        return hot(Hot.ncclAllReduce(send, recv, count, datatype, op, comm, stream));
    }

    @Override
    public NativeAnswer<Integer> ncclCommGetAsyncError(long comm) {
        IntByReference e = new IntByReference();
        return call(() -> lib.ncclCommGetAsyncError(new Pointer(comm), e), e::getValue);
    }

    @Override
    public NativeAnswer<Void> ncclCommAbort(long comm) {
        return call(() -> lib.ncclCommAbort(new Pointer(comm)), () -> null);
    }

    @Override
    public NativeAnswer<Void> ncclCommDestroy(long comm) {
        return call(() -> lib.ncclCommDestroy(new Pointer(comm)), () -> null);
    }
}
