package dev.fabricscope.check;

/** No usable NVIDIA driver (libcuda absent, a stub, or no device): the live checks cannot run. */
public final class NoDriverException extends Exception {
    public NoDriverException(String message) {
        super(message);
    }
}
