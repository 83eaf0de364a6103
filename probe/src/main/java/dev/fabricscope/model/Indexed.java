package dev.fabricscope.model;

import java.util.AbstractList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;

/**
 * The immutable GPU and pair lists of a {@link MachineSnapshot}, with a hash index built on first lookup: a pair or
 * a GPU by PCI address in O(1), so renderers that walk the n² matrix of a 256-GPU machine (32,640 pairs) stay linear
 * in its size. Equal to, and serialised as, a plain list.
 */
final class Indexed {

    private Indexed() {
    }

    /** The device part of a PCI address (function ignored, as {@link PciAddress#sameDevice} does). */
    static long deviceKey(PciAddress p) {
        return ((long) p.domain() << 16) | ((long) (p.bus() & 0xff) << 8) | (p.device() & 0xff);
    }

    static final class Gpus extends AbstractList<Gpu> implements RandomAccess {
        private final List<Gpu> list;
        private volatile Map<Long, Integer> index;

        Gpus(List<Gpu> list) {
            this.list = list;
        }

        @Override
        public Gpu get(int i) {
            return list.get(i);
        }

        @Override
        public int size() {
            return list.size();
        }

        /** The index of the first GPU on {@code pci}'s device, or -1. */
        int indexOf(PciAddress pci) {
            if (pci == null) {
                return -1;
            }
            Map<Long, Integer> m = index;
            if (m == null) {
                m = new HashMap<>(list.size() * 2);
                for (int i = 0; i < list.size(); i++) {
                    m.putIfAbsent(deviceKey(list.get(i).pci()), i);
                }
                index = m;
            }
            return m.getOrDefault(deviceKey(pci), -1);
        }
    }

    static final class Pairs extends AbstractList<GpuPair> implements RandomAccess {
        private final List<GpuPair> list;
        /** One GPU → the other → their pair: two look-ups, nothing allocated per question (a 256-GPU table asks 65,000). */
        private volatile Map<PciAddress, Map<PciAddress, GpuPair>> index;

        Pairs(List<GpuPair> list) {
            this.list = list;
        }

        @Override
        public GpuPair get(int i) {
            return list.get(i);
        }

        @Override
        public int size() {
            return list.size();
        }

        /** The first pair connecting {@code x} and {@code y} (either order), or null. */
        GpuPair find(PciAddress x, PciAddress y) {
            Map<PciAddress, Map<PciAddress, GpuPair>> m = index;
            if (m == null) {
                m = new HashMap<>();
                for (GpuPair p : list) {
                    if (p.a() != null && p.b() != null) {
                        m.computeIfAbsent(p.a(), k -> new HashMap<>()).putIfAbsent(p.b(), p);
                        m.computeIfAbsent(p.b(), k -> new HashMap<>()).putIfAbsent(p.a(), p);
                    }
                }
                index = m;
            }
            Map<PciAddress, GpuPair> withX = x == null || y == null ? null : m.get(x);
            return withX == null ? null : withX.get(y);
        }
    }
}
