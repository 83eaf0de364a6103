package dev.fabricscope.nativeapi;

/**
 * A native library's facade once opened, or why it could not be opened: the one shape every loader answers (NVML,
 * the CUDA driver for the probe and for the checks, NCCL for the all-reduce check).
 *
 * @param value         the opened facade, or null
 * @param libraryLoaded whether the library file was found and loaded (false: no driver, no such library)
 * @param failure       why it could not be opened, in one line; null when it was
 * @param initCode      the initialisation call's return code ({@code cuInit}, {@code nvmlInit_v2}), or null when it
 *                      was never called or returned none
 */
public record Opened<T>(T value, boolean libraryLoaded, String failure, Integer initCode) {

    public Opened {
        if ((value == null) == (failure == null)) {
            throw new IllegalArgumentException("an opened library has a value or a failure, not both nor neither");
        }
    }

    public static <T> Opened<T> of(T value, Integer initCode) {
        return new Opened<>(value, true, null, initCode);
    }

    /** The library could not be loaded at all. */
    public static <T> Opened<T> notLoaded(String failure) {
        return new Opened<>(null, false, failure, null);
    }

    /** The library loaded, but could not be initialised ({@code initCode} null: the call gave no code). */
    public static <T> Opened<T> notInitialised(String failure, Integer initCode) {
        return new Opened<>(null, true, failure, initCode);
    }

    public boolean isOpen() {
        return value != null;
    }

    /** The same failure for another facade type. */
    public <U> Opened<U> failed() {
        if (value != null) {
            throw new IllegalStateException("opened, not failed");
        }
        return new Opened<>(null, libraryLoaded, failure, initCode);
    }
}
