package dev.fabricscope.check;

import dev.fabricscope.check.api.CheckOptions;
import dev.fabricscope.check.api.CheckStatus;
import dev.fabricscope.check.api.MemoryAudit;
import dev.fabricscope.check.api.P2pRequest;
import dev.fabricscope.check.api.P2pResult;
import dev.fabricscope.model.Gpu;
import dev.fabricscope.model.GpuPair;
import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.NvLink;
import dev.fabricscope.model.PciAddress;
import dev.fabricscope.model.Reading;
import dev.fabricscope.nativeapi.backends.CheckBackends;
import dev.fabricscope.nativeapi.cuda.CudaOps;
import dev.fabricscope.nativeapi.cuda.KernelArgs;
import dev.fabricscope.nativeapi.nvml.NvmlGpus;
import dev.fabricscope.topology.NvLinkSpecs;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * P2P matrix in the manner of nvbandwidth's device-to-device copy-engine tests: {@code cuMemcpyAsync} of a large
 * buffer between peers (peer access enabled), timed with CUDA events over several copies after warm-up; the
 * bidirectional figure runs both directions at once on two streams. Latency: one thread chasing a random pointer
 * ring that spans more than the L2 cache (nvbandwidth's pointer-chase idea), in the peer's memory or its own.
 */
public final class P2pCheck {

    public static final String NAME = P2pResult.CHECK;
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(180);
    static final int WARMUP = 2;
    static final long SEED = 0x5eed_fab1_c5c0_9eL;

    private P2pCheck() {
    }

    /** @param snapshot the machine's snapshot, for theoretical link figures (may be null) */
    public static P2pResult run(P2pRequest req, MachineSnapshot snapshot, CheckOptions options) {
        return run(req, snapshot, options, CheckBackends.live(System.getenv()));
    }

    /** Through {@code backends}: the driver, or a trace being recorded or replayed. */
    public static P2pResult run(P2pRequest req, MachineSnapshot snapshot, CheckOptions options, CheckBackends backends) {
        return CheckRunner.run(NAME, options, ctx -> body(req, snapshot, ctx, backends), (status, message) -> new P2pResult(NAME,
                status, message, null, List.of(), List.of(), List.of(), MemoryAudit.none("not measured: " + message)));
    }

    private static P2pResult body(P2pRequest req, MachineSnapshot snapshot, CheckContext ctx, CheckBackends backends) {
        GpuSession s;
        try {
            s = GpuSession.open(backends);
        } catch (NoDriverException e) {
            return new P2pResult(NAME, CheckStatus.SKIPPED, e.getMessage(), null, List.of(), List.of(), List.of(),
                    MemoryAudit.none("no GPU used"));
        }
        int nodes = (int) (req.bufferBytes() / P2pRequest.LATENCY_STRIDE);
        P2pResult.Params params = new P2pResult.Params(req.bufferBytes(), req.repetitions(), req.latencyHops(),
                P2pRequest.LATENCY_STRIDE, req.bufferBytes());
        List<P2pResult.Local> local = new ArrayList<>();
        List<P2pResult.Pair> pairs = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        CheckStatus status = CheckStatus.PASSED;
        String abort = null;
        int n = s.size();
        int totalSteps = n + n * (n - 1);
        int done = 0;
        try {
            PtxKernels[] kernels = new PtxKernels[n];
            long[] a = new long[n];
            long[] b = new long[n];
            long[] streams = new long[n];
            String ptxProblem = null;
            for (int i = 0; i < n; i++) {
                a[i] = s.alloc(i, req.bufferBytes());
                b[i] = s.alloc(i, req.bufferBytes());
                s.cuda().memset8(a[i], (byte) 1, req.bufferBytes());
                streams[i] = s.stream(i);
                if (ptxProblem == null) {
                    try {
                        kernels[i] = PtxKernels.load(s, i);
                    } catch (RuntimeException e) {
                        ptxProblem = e.getMessage();
                        kernels[i] = null;
                    }
                }
            }
            if (ptxProblem != null) {
                java.util.Arrays.fill(kernels, null);
                notes.add("Latency not measured: " + ptxProblem);
            }
            for (int i = 0; i < n; i++) {
                ctx.progress("device-local copy on GPU" + i, (double) done++ / totalSteps);
                double copy = copyGBps(s, i, streams[i], a[i], b[i], req, ctx);
                Double lat = kernels[i] == null ? null : latencyNs(s, kernels[i], i, i, streams[i], b[i], nodes, req.latencyHops(), ctx);
                Theoretical t = theoreticalLocal(s, i);
                local.add(new P2pResult.Local(i, s.devices().get(i).name(), round(copy), round(2 * copy), t.gbps(),
                        t.source(), lat));
            }
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    if (i == j) {
                        continue;
                    }
                    ctx.progress("GPU" + i + " → GPU" + j, (double) done++ / totalSteps);
                    boolean access = s.canAccessPeer(i, j);
                    Theoretical t = theoreticalPair(snapshot, s.devices().get(i).pci(), s.devices().get(j).pci());
                    if (!access) {
                        pairs.add(new P2pResult.Pair(i, j, false, null, null, null, t.gbps(), t.source(),
                                "cuDeviceCanAccessPeer = 0: no peer-to-peer path; copies would be staged through the host"));
                        continue;
                    }
                    s.enablePeerAccess(i, j);
                    s.enablePeerAccess(j, i);
                    double uni = copyGBps(s, i, streams[i], a[i], b[j], req, ctx);
                    double bidi = bidiGBps(s, i, j, streams, a, b, req, ctx);
                    Double lat = kernels[i] == null ? null : latencyNs(s, kernels[i], i, j, streams[i], b[j], nodes, req.latencyHops(), ctx);
                    pairs.add(new P2pResult.Pair(i, j, true, round(uni), round(bidi), lat, t.gbps(), t.source(), null));
                }
            }
        } catch (CheckAbortedException e) {
            status = e.status();
            abort = e.getMessage();
        } catch (RuntimeException e) {
            status = CheckStatus.ERROR;
            abort = e.getMessage();
        } finally {
            s.close();
        }
        notes.add("Copies: cuMemcpyAsync of " + mib(req.bufferBytes()) + ", " + WARMUP + " warm-up + " + req.repetitions()
                + " timed with CUDA events; GB/s = 1e9 bytes/s. Pair copies are issued on the source GPU's stream "
                + "(a write to the peer); bidirectional = both directions at once, summed.");
        notes.add("Latency: one thread follows a random ring of " + nodes + " nodes " + P2pRequest.LATENCY_STRIDE + " B apart ("
                + mib(req.bufferBytes()) + " span, loads bypass L1) for " + req.latencyHops() + " hops; ns per dependent load.");
        if (n == 1) {
            notes.add("1 GPU: no peer pairs; device-local copy bandwidth and latency only.");
        }
        if (!s.cleanupErrors().isEmpty()) {
            notes.add("Clean-up problems: " + String.join("; ", s.cleanupErrors()));
        }
        String summary = abort != null ? abort : summary(local, pairs);
        return new P2pResult(NAME, status, summary, params, local, pairs, notes, s.audit());
    }

    static String summary(List<P2pResult.Local> local, List<P2pResult.Pair> pairs) {
        StringBuilder sb = new StringBuilder();
        sb.append(local.size()).append(" GPU(s)");
        if (!pairs.isEmpty()) {
            long ok = pairs.stream().filter(P2pResult.Pair::access).count();
            sb.append(", ").append(ok).append('/').append(pairs.size()).append(" ordered pairs with peer access");
            pairs.stream().filter(p -> p.uniGBps() != null).mapToDouble(P2pResult.Pair::uniGBps).min()
                    .ifPresent(v -> sb.append(String.format(Locale.ROOT, ", slowest pair %.1f GB/s", v)));
        } else if (!local.isEmpty() && local.get(0).copyGBps() != null) {
            sb.append(String.format(Locale.ROOT, ", device-local copy %.0f GB/s (%.0f GB/s read+write)",
                    local.get(0).copyGBps(), local.get(0).readWriteGBps()));
        }
        return sb.toString();
    }

    private static double copyGBps(GpuSession s, int streamGpu, long stream, long src, long dst, P2pRequest req,
                                   CheckContext ctx) {
        CudaOps cuda = s.cuda();
        s.makeCurrent(streamGpu);
        long start = s.event(streamGpu);
        long end = s.event(streamGpu);
        for (int w = 0; w < WARMUP; w++) {
            cuda.copyAsync(dst, src, req.bufferBytes(), stream);
        }
        cuda.recordEvent(start, stream);
        for (int r = 0; r < req.repetitions(); r++) {
            cuda.copyAsync(dst, src, req.bufferBytes(), stream);
        }
        cuda.recordEvent(end, stream);
        ctx.await("copy on GPU" + streamGpu, () -> s.streamDone(stream), () -> null);
        return gbps((double) req.bufferBytes() * req.repetitions(), s.elapsedMs(start, end) / 1e3);
    }

    private static double bidiGBps(GpuSession s, int i, int j, long[] streams, long[] a, long[] b, P2pRequest req,
                                   CheckContext ctx) {
        CudaOps cuda = s.cuda();
        long si = s.event(i);
        long ei = s.event(i);
        long sj = s.event(j);
        long ej = s.event(j);
        for (int w = 0; w < WARMUP; w++) {
            s.makeCurrent(i);
            cuda.copyAsync(b[j], a[i], req.bufferBytes(), streams[i]);
            s.makeCurrent(j);
            cuda.copyAsync(b[i], a[j], req.bufferBytes(), streams[j]);
        }
        s.makeCurrent(i);
        cuda.recordEvent(si, streams[i]);
        s.makeCurrent(j);
        cuda.recordEvent(sj, streams[j]);
        for (int r = 0; r < req.repetitions(); r++) {
            s.makeCurrent(i);
            cuda.copyAsync(b[j], a[i], req.bufferBytes(), streams[i]);
            s.makeCurrent(j);
            cuda.copyAsync(b[i], a[j], req.bufferBytes(), streams[j]);
        }
        s.makeCurrent(i);
        cuda.recordEvent(ei, streams[i]);
        s.makeCurrent(j);
        cuda.recordEvent(ej, streams[j]);
        ctx.await("bidirectional copy GPU" + i + " ⇄ GPU" + j, () -> s.streamDone(streams[i]) && s.streamDone(streams[j]),
                () -> null);
        double bytes = (double) req.bufferBytes() * req.repetitions();
        return gbps(bytes, s.elapsedMs(si, ei) / 1e3) + gbps(bytes, s.elapsedMs(sj, ej) / 1e3);
    }

    /** GPU {@code reader} (whose kernels {@code k} are) chases a ring placed in {@code buffer} on GPU {@code owner}. */
    private static Double latencyNs(GpuSession s, PtxKernels k, int reader, int owner, long stream, long buffer, int nodes, long hops,
                                    CheckContext ctx) {
        ByteBuffer ring = PointerChaseRing.image(buffer, nodes, P2pRequest.LATENCY_STRIDE, SEED);
        CudaOps cuda = s.cuda();
        s.makeCurrent(owner);
        cuda.copyToDevice(buffer, ring, ring.capacity());
        long sink = s.alloc(reader, 8);
        s.makeCurrent(reader);
        try (KernelArgs warm = new KernelArgs().u64(buffer).u64(Math.max(1, hops / 10)).u64(sink);
             KernelArgs timed = new KernelArgs().u64(buffer).u64(hops).u64(sink)) {
            cuda.launch(k.pointerChase, 1, 1, stream, warm, "pointer_chase");
            ctx.await("pointer chase (warm-up)", () -> s.streamDone(stream), () -> null);
            long t0 = s.nanoTime(-1);
            cuda.launch(k.pointerChase, 1, 1, stream, timed, "pointer_chase");
            ctx.await("pointer chase", () -> s.streamDone(stream), () -> null);
            long t1 = s.nanoTime(-1);
            return round((t1 - t0) / (double) hops);
        }
    }

    static double gbps(double bytes, double seconds) {
        return seconds <= 0 ? 0 : bytes / seconds / 1e9;
    }

    static Double round(double v) {
        return Math.round(v * 100) / 100.0;
    }

    static String mib(long bytes) {
        return (bytes >> 20) + " MiB";
    }

    /** @param gbps per direction, or null; @param source how it was derived or why unknown */
    record Theoretical(Double gbps, String source) {
    }

    private static Theoretical theoreticalLocal(GpuSession s, int i) {
        Reading<NvmlGpus.Peak> p = s.nvml().memoryPeak(s.devices().get(i).pci());
        if (!p.isPresent()) {
            return new Theoretical(null, "unknown: " + p.missing().describe());
        }
        NvmlGpus.Peak v = p.value();
        return new Theoretical(round(v.bytesPerSecond() / 1e9), String.format(Locale.ROOT,
                "DRAM peak = 2 × %d MHz × %d bit / 8 (NVML max memory clock, bus width)", v.memoryClockMhz(), v.busWidthBits()));
    }

    /** Nominal per-direction bandwidth of the pair's NVLinks from the snapshot. */
    static Theoretical theoreticalPair(MachineSnapshot snap, PciAddress a, PciAddress b) {
        if (snap == null) {
            return new Theoretical(null, "unknown: no machine snapshot");
        }
        Optional<GpuPair> pair = snap.pair(a, b);
        if (pair.isEmpty()) {
            return new Theoretical(null, "unknown: pair not in the snapshot");
        }
        GpuPair p = pair.get();
        String topo = p.topology().shortDisplay();
        if (!p.nvLinks().isPresent()) {
            return new Theoretical(null, "unknown: NVLink count not readable (" + p.nvLinks().missing().describe() + ")");
        }
        int links = p.nvLinks().value();
        if (links == 0) {
            return new Theoretical(null, "PCIe path (" + topo + "): the snapshot holds no PCIe link speed");
        }
        Gpu g = snap.gpu(a).orElse(null);
        double perLink = g == null ? 0 : g.activeLinks().stream().map(NvLink::gbpsPerDirection).filter(Reading::isPresent)
                .mapToDouble(Reading::value).findFirst().orElse(NvLinkSpecs.gbpsPerLinkPerDirection(g.computeCapabilityNumber()));
        if (perLink <= 0) {
            return new Theoretical(null, "unknown: NVLink generation unknown");
        }
        return new Theoretical(round(links * perLink), String.format(Locale.ROOT, "NV%d × %.4g GB/s per link per direction",
                links, perLink));
    }
}
