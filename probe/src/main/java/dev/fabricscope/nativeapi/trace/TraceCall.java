package dev.fabricscope.nativeapi.trace;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import dev.fabricscope.nativeapi.NativeAnswer;

/**
 * One native call in a trace: which library and function, its arguments, and what it answered.
 *
 * @param seq    order in which calls completed (calls to different libraries overlap in time)
 * @param lib    {@code nvml}, {@code cuda}, {@code nccl} or {@code host}
 * @param call   the C function (or host operation) name
 * @param args   the arguments, as JSON (device handles are NVML indices or CUDA ordinals)
 * @param rc     the return code, when the call returned one
 * @param value  the raw outputs, when it succeeded
 * @param fault  why it returned no code ({@link NativeAnswer.Fault}), or null
 * @param detail the loader's or exception's words for a fault
 * @param us     how long the call took, microseconds
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TraceCall(int seq, String lib, String call, JsonNode args, Integer rc, JsonNode value,
                        NativeAnswer.Fault fault, String detail, Long us) {

    /** Replay key: library, call and arguments. */
    public String key() {
        return key(lib, call, args == null ? "[]" : ArgsKey.of(args));
    }

    static String key(String lib, String call, String argsJson) {
        return lib + " " + call + " " + argsJson;
    }
}
