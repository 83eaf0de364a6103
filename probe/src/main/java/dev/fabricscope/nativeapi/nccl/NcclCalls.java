package dev.fabricscope.nativeapi.nccl;

import dev.fabricscope.nativeapi.NativeAnswer;
import java.util.List;

/**
 * The seam to the NCCL loader: where {@code libnccl.so.2} would be found, and what the found library answers to
 * {@code ncclGetVersion}. Backends: {@link JnaNccl} (the file system and the loader), a recorded trace.
 */
public interface NcclCalls {

    /** Candidate files in search order (an explicit path first, even when it does not exist). */
    NativeAnswer<List<Candidate>> libraryCandidates(String explicitPath);

    /** Loads {@code path} and asks it; a load failure is {@link NativeAnswer.Fault#LOAD_FAILED}. */
    NativeAnswer<Integer> ncclGetVersion(String path);

    /** A candidate library file and whether it is a regular file. */
    record Candidate(String path, boolean regularFile) {
    }
}
