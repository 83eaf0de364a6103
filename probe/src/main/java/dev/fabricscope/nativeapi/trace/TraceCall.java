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
 * @param us     how long the call took, microseconds (with {@code times}: all of them together)
 * @param times  how many calls in a row with these arguments got this same answer (a check's stream polls); null: one
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TraceCall(int seq, String lib, String call, JsonNode args, Integer rc, JsonNode value,
                        NativeAnswer.Fault fault, String detail, Long us, Integer times) {

    /** One call. */
    public TraceCall(int seq, String lib, String call, JsonNode args, Integer rc, JsonNode value,
                     NativeAnswer.Fault fault, String detail, Long us) {
        this(seq, lib, call, args, rc, value, fault, detail, us, null);
    }

    /** How many calls this entry stands for (at least one). */
    public int count() {
        return times == null ? 1 : Math.max(1, times);
    }

    /** The same answer, once more. */
    TraceCall again(long moreUs) {
        Long total = us == null ? null : us + moreUs;
        return new TraceCall(seq, lib, call, args, rc, value, fault, detail, total, count() + 1);
    }

    /** Whether {@code o} is the same call with the same answer. */
    boolean sameAnswer(TraceCall o) {
        return java.util.Objects.equals(rc, o.rc) && java.util.Objects.equals(value, o.value)
                && fault == o.fault && java.util.Objects.equals(detail, o.detail);
    }

    /** Replay key: library, call and arguments. */
    public String key() {
        return key(lib, call, args == null ? "[]" : ArgsKey.of(args));
    }

    static String key(String lib, String call, String argsJson) {
        return lib + " " + call + " " + argsJson;
    }
}
