package dev.fabricscope.nativeapi.nccl;

import com.sun.jna.Native;
import com.sun.jna.ptr.IntByReference;
import dev.fabricscope.nativeapi.NativeAnswer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** {@link NcclCalls} over the file system and JNA. */
public final class JnaNccl implements NcclCalls {

    private final Map<String, String> env;

    public JnaNccl(Map<String, String> env) {
        this.env = env;
    }

    @Override
    public NativeAnswer<List<Candidate>> libraryCandidates(String explicitPath) {
        List<Candidate> out = new ArrayList<>();
        for (Path p : NcclLocator.candidates(explicitPath, env)) {
            out.add(new Candidate(p.toString(), Files.isRegularFile(p)));
        }
        return NativeAnswer.ok(out);
    }

    @Override
    public NativeAnswer<Integer> ncclGetVersion(String path) {
        NcclLibrary lib;
        try {
            lib = Native.load(Paths.get(path).toString(), NcclLibrary.class);
        } catch (LinkageError | RuntimeException e) {
            String m = e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst().orElse("");
            return NativeAnswer.failed(NativeAnswer.Fault.LOAD_FAILED, m);
        }
        IntByReference v = new IntByReference();
        try {
            int rc = lib.ncclGetVersion(v);
            return NativeAnswer.returned(rc, rc == 0 ? v.getValue() : null);
        } catch (UnsatisfiedLinkError e) {
            return NativeAnswer.failed(NativeAnswer.Fault.SYMBOL_MISSING, e.getMessage());
        } catch (RuntimeException | Error e) {
            return NativeAnswer.failed(NativeAnswer.Fault.THREW, e.toString());
        }
    }
}
