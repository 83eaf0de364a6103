package dev.fabricscope.check;

import com.sun.jna.Memory;
import dev.fabricscope.check.api.AllReduceMath;
import dev.fabricscope.nativeapi.cuda.CuMemAllocationProp;
import dev.fabricscope.nativeapi.cuda.CuMulticastObjectProp;
import dev.fabricscope.nativeapi.cuda.CudaLibrary;
import dev.fabricscope.nativeapi.nccl.NcclCollectivesLibrary;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;


/** Struct layouts (cuda.h offsets, api-facts §B3), the bindings' safety, and the bundled PTX. */
class NativeLayoutTest {

    @Test
    void allocationPropIsThirtyTwoExplicitBytes() {
        Memory m = CuMemAllocationProp.pinnedOnDevice(3, CuMemAllocationProp.HANDLE_FABRIC, true).toNative();
        assertEquals(32, m.size());
        byte[] b = m.getByteArray(0, 32);
        byte[] want = new byte[32];
        want[0] = 1;   // type PINNED
        want[4] = 8;   // requestedHandleTypes FABRIC
        want[8] = 1;   // location.type DEVICE
        want[12] = 3;  // location.id
        want[25] = 1;  // allocFlags.gpuDirectRDMACapable; win32 handle, compression, usage, reserved stay zero
        assertEquals(Arrays.toString(want), Arrays.toString(b));
    }

    @Test
    void multicastPropLayout() {
        Memory m = new CuMulticastObjectProp(8, 0x1234_5678_9aL, 1).toNative();
        assertEquals(32, m.size());
        assertEquals(8, m.getInt(0));
        assertEquals(0, m.getInt(4)); // padding
        assertEquals(0x1234_5678_9aL, m.getLong(8));
        assertEquals(1, m.getLong(16));
        assertEquals(0, m.getLong(24)); // flags must be 0
    }

    @Test
    void noBindingCanCreateMulticastObjects() {
        Set<String> names = new HashSet<>();
        for (Class<?> c : new Class<?>[] {CudaLibrary.class, NcclCollectivesLibrary.class}) {
            for (Method method : c.getMethods()) {
                names.add(method.getName());
            }
        }
        assertTrue(names.contains("cuMulticastGetGranularity"));
        for (String n : names) {
            assertFalse(n.startsWith("cuMulticast") && !n.equals("cuMulticastGetGranularity"), n);
            assertFalse(n.toLowerCase().contains("nvls"), n);
        }
    }

    @Test
    void bundledPtxIsIsa80ForSm70WithAllKernels() throws Exception {
        byte[] image = PtxKernels.image();
        assertEquals(0, image[image.length - 1], "NUL-terminated for cuModuleLoadData");
        String ptx = new String(image, 0, image.length - 1, StandardCharsets.US_ASCII);
        assertTrue(ptx.lines().anyMatch(l -> l.equals(".version 8.0")), "PTX ISA 8.0");
        assertTrue(ptx.lines().anyMatch(l -> l.equals(".target sm_70")), "target sm_70");
        for (String k : new String[] {"fs_oneshot_f32", "fs_oneshot_bf16", "fs_twoshot_f32", "fs_twoshot_bf16", "pointer_chase"}) {
            assertTrue(ptx.contains(".visible .entry " + k + "("), k);
        }
        assertFalse(ptx.contains("multimem"), "no multicast instructions");
    }

    @Test
    void kernelGridStaysWithinTheBarrierSlots() {
        assertEquals(1, PtxKernels.blocks(0), "a message under one vector still gets a block (for its tail)");
        assertEquals(1, PtxKernels.blocks(512));
        assertEquals(2, PtxKernels.blocks(513));
        assertEquals(PtxKernels.MAX_BLOCKS, PtxKernels.blocks(1L << 30));
        // 64 KiB bf16 = 4096 vectors: 8 blocks one-shot; two-shot covers one rank's half: 4 blocks
        assertEquals(8, CustomAllReduce.grid(false, AllReduceMath.DType.BF16, 32768, 2));
        assertEquals(4, CustomAllReduce.grid(true, AllReduceMath.DType.BF16, 32768, 2));
    }

    @Test
    void pointerChaseRingIsOneCycleThroughEveryNode() {
        int n = 10_000;
        int[] next = PointerChaseRing.cycle(n, 42);
        boolean[] seen = new boolean[n];
        int at = 0;
        for (int i = 0; i < n; i++) {
            assertFalse(seen[at], "node " + at + " visited twice");
            seen[at] = true;
            at = next[at];
        }
        assertEquals(0, at, "back at the start after n hops");
        java.nio.ByteBuffer m = PointerChaseRing.image(0x7000_0000_0000L, 16, 256, 1);
        int[] nx = PointerChaseRing.cycle(16, 1);
        assertEquals(0x7000_0000_0000L + 256L * nx[0], m.getLong(0));
        assertEquals(0, m.getLong(8), "only node words are written");
    }
}
