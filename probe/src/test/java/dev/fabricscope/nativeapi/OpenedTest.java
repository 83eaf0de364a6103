package dev.fabricscope.nativeapi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fabricscope.nativeapi.cuda.CudaLoader;
import org.junit.jupiter.api.Test;

class OpenedTest {

    @Test
    void aValueOrAFailureNeverBothNorNeither() {
        Opened<String> ok = Opened.of("facade", 0);
        assertTrue(ok.isOpen());
        assertNull(ok.failure());
        assertTrue(ok.libraryLoaded());
        assertThrows(IllegalArgumentException.class, () -> new Opened<>("facade", true, "and why not", 0));
        assertThrows(IllegalArgumentException.class, () -> new Opened<>(null, true, null, 0));
        assertThrows(IllegalStateException.class, ok::failed);
    }

    @Test
    void aFailureKeepsWhereItStopped() {
        Opened<String> notLoaded = Opened.notLoaded("libcuda.so.1 not loadable: no such file");
        assertFalse(notLoaded.isOpen());
        assertFalse(notLoaded.libraryLoaded());
        assertNull(notLoaded.initCode());
        Opened<Integer> same = notLoaded.failed();
        assertEquals(notLoaded.failure(), same.failure());
        assertFalse(same.libraryLoaded());
        Opened<String> init = Opened.notInitialised("cuInit → CUDA_ERROR_SYSTEM_DRIVER_MISMATCH (803)", 803);
        assertTrue(init.libraryLoaded());
        assertEquals(803, init.initCode());
    }

    @Test
    void noDriverIsNoLibraryAStubNoDeviceOrNoCode() {
        assertTrue(CudaLoader.noDriver(Opened.notLoaded("x")));
        assertTrue(CudaLoader.noDriver(Opened.notInitialised("cuInit → CUDA_ERROR_STUB_LIBRARY (34)", 34)));
        assertTrue(CudaLoader.noDriver(Opened.notInitialised("cuInit → CUDA_ERROR_NO_DEVICE (100)", 100)));
        assertTrue(CudaLoader.noDriver(Opened.notInitialised("cuInit: symbol missing", null)));
        assertFalse(CudaLoader.noDriver(Opened.notInitialised("cuInit → CUDA_ERROR_SYSTEM_DRIVER_MISMATCH (803)", 803)));
        assertFalse(CudaLoader.noDriver(Opened.of("facade", 0)));
    }
}
