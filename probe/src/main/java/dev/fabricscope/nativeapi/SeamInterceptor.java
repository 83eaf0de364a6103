package dev.fabricscope.nativeapi;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;

/**
 * Sees every answer that passes through a seam interface ({@link dev.fabricscope.nativeapi.nvml.NvmlCalls},
 * {@code CudaProbeCalls}, {@code NcclCalls}, {@code HostCalls}), so that recording or watching a seam needs no forwarding
 * method per call, and a call added to the seam is seen without further edits.
 */
@FunctionalInterface
public interface SeamInterceptor {

    /**
     * @param call   the seam method's name (the C function or host operation)
     * @param args   its arguments (never null)
     * @param answer what the delegate answered
     * @param nanos  how long the delegate took
     * @return the answer to hand to the caller
     */
    NativeAnswer<?> answered(String call, Object[] args, NativeAnswer<?> answer, long nanos);

    /** {@code delegate} behind a proxy that passes each of its answers through {@code interceptor}. */
    static <I> I wrap(Class<I> api, I delegate, SeamInterceptor interceptor) {
        Object proxy = Proxy.newProxyInstance(api.getClassLoader(), new Class<?>[] {api}, (p, m, args) -> {
            if (m.getDeclaringClass() == Object.class) {
                return m.invoke(delegate, args);
            }
            long t0 = System.nanoTime();
            Object result;
            try {
                result = m.invoke(delegate, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
            return interceptor.answered(m.getName(), args == null ? new Object[0] : args, (NativeAnswer<?>) result,
                    System.nanoTime() - t0);
        });
        return api.cast(proxy);
    }
}
