package dev.fabricscope.nativeapi;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs a seam's calls on one daemon thread of its own and waits at most a time-out for each: a driver call that
 * hangs becomes {@link NativeAnswer.Fault#TIMED_OUT} for that call and for every later call to the same library
 * (its thread is still stuck), and the probe goes on with the other libraries.
 */
public final class CallGuard {

    /** Default per-call limit; {@code -Dfabricscope.callTimeoutMs=N} changes it. */
    public static Duration defaultTimeout() {
        long ms = Long.getLong("fabricscope.callTimeoutMs", 20_000L);
        return Duration.ofMillis(Math.max(1, ms));
    }

    private CallGuard() {
    }

    public static <I> I guard(Class<I> api, String lib, I delegate, Duration timeout) {
        ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "fabricscope-" + lib + "-calls");
            t.setDaemon(true);
            return t;
        });
        String[] hungCall = new String[1];
        Object proxy = Proxy.newProxyInstance(api.getClassLoader(), new Class<?>[] {api}, (p, m, args) -> {
            if (m.getDeclaringClass() == Object.class) {
                return m.invoke(delegate, args);
            }
            synchronized (hungCall) {
                if (hungCall[0] != null) {
                    return NativeAnswer.failed(NativeAnswer.Fault.TIMED_OUT, "not called: " + hungCall[0]
                            + " did not return within " + timeout.toMillis() + " ms, and " + lib + " answers nothing more");
                }
            }
            Future<Object> f = thread.submit(() -> {
                try {
                    return m.invoke(delegate, args);
                } catch (InvocationTargetException e) {
                    Throwable cause = e.getCause();
                    return NativeAnswer.failed(NativeAnswer.Fault.THREW, String.valueOf(cause));
                }
            });
            try {
                return f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                synchronized (hungCall) {
                    hungCall[0] = m.getName();
                }
                return NativeAnswer.failed(NativeAnswer.Fault.TIMED_OUT, m.getName() + " did not return within "
                        + timeout.toMillis() + " ms");
            } catch (ExecutionException e) {
                return NativeAnswer.failed(NativeAnswer.Fault.THREW, String.valueOf(e.getCause()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return NativeAnswer.failed(NativeAnswer.Fault.THREW, "interrupted while waiting for " + m.getName());
            }
        });
        return api.cast(proxy);
    }
}
