package dev.fabricscope.nativeapi.host;

import dev.fabricscope.nativeapi.NativeAnswer;

/**
 * The host clock a check times with, as a seam: a recorded check replays the times it measured instead of taking
 * new ones. {@code lane} keys concurrent timers apart (a host thread per GPU times its own rank; -1: one thread).
 */
@FunctionalInterface
public interface ClockCalls {

    /** {@link System#nanoTime()}. */
    NativeAnswer<Long> nanoTime(int lane);

    /** This machine's clock. */
    ClockCalls SYSTEM = lane -> NativeAnswer.ok(System.nanoTime());
}
