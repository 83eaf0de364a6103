package dev.fabricscope.nativeapi;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * What one native call answered at the seam, before any interpretation: its return code and raw outputs, or why
 * it gave none. Backends (JNA, a recorded trace) produce these; the facades turn them into readings.
 *
 * @param rc     the call's return code ({@code nvmlReturn_t}, {@code CUresult}, errno…); meaningful when fault is null
 * @param value  the raw outputs when the call succeeded (may be null for calls without outputs)
 * @param fault  why the call did not return normally, or null when it did
 * @param detail the loader's or exception's words for a fault
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record NativeAnswer<T>(int rc, T value, Fault fault, String detail) {

    /** Ways a call can fail to return a code. */
    public enum Fault {
        /** The library could not be loaded (no driver, wrong architecture). */
        LOAD_FAILED,
        /** The library lacks the symbol (an older driver). */
        SYMBOL_MISSING,
        /** The binding threw (marshalling, a crash caught by JNA). */
        THREW,
        /** No answer within the time-out: the call hung. */
        TIMED_OUT,
        /** Replay only: the trace holds no answer for this call. */
        NOT_RECORDED,
        /** Replay only: the trace's answer does not have the shape this call returns. */
        UNREADABLE_TRACE
    }

    public static <T> NativeAnswer<T> returned(int rc, T value) {
        return new NativeAnswer<>(rc, value, null, null);
    }

    public static <T> NativeAnswer<T> ok(T value) {
        return new NativeAnswer<>(0, value, null, null);
    }

    public static <T> NativeAnswer<T> failed(Fault fault, String detail) {
        return new NativeAnswer<>(-1, null, fault, detail);
    }

    public boolean succeeded() {
        return fault == null && rc == 0;
    }
}
