package dev.fabricscope.nativeapi.host;

import dev.fabricscope.nativeapi.NativeAnswer;

/**
 * What a live check asks of the host, as a seam: the clock it times with, and the few settings that choose what it
 * calls (an environment variable, the CPU architecture). A recorded check replays the recorded times and settings
 * instead of taking this machine's: a GB200's trace replays as on the GB200.
 */
public interface CheckHostCalls {

    /**
     * {@link System#nanoTime()}; {@code lane} keys concurrent timers apart (a host thread per GPU times its own
     * rank; -1: one thread).
     */
    NativeAnswer<Long> nanoTime(int lane);

    /** A variable of this process's environment, or null when unset. */
    NativeAnswer<String> getenv(String name);

    /** The JVM's {@code os.arch}. */
    NativeAnswer<String> osArch();

    /** This machine. */
    CheckHostCalls SYSTEM = new CheckHostCalls() {
        @Override
        public NativeAnswer<Long> nanoTime(int lane) {
            return NativeAnswer.ok(System.nanoTime());
        }

        @Override
        public NativeAnswer<String> getenv(String name) {
            return NativeAnswer.ok(System.getenv(name));
        }

        @Override
        public NativeAnswer<String> osArch() {
            return NativeAnswer.ok(System.getProperty("os.arch", ""));
        }
    };
}
