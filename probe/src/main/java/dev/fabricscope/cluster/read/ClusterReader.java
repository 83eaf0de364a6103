package dev.fabricscope.cluster.read;

import dev.fabricscope.cluster.ClusterNode;
import dev.fabricscope.cluster.NodeSummary;
import dev.fabricscope.io.SnapshotIO;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** Reads every {@code *.json} report or snapshot of a folder (in parallel); unreadable files are kept with their error. */
public final class ClusterReader {

    /** The manifest {@code cluster collect} writes beside the node reports. */
    public static final String MANIFEST = "collect.json";
    /** A folder of more files than this is refused (a mistyped path, not a cluster). */
    public static final int MAX_FILES = 20_000;

    private ClusterReader() {
    }

    /** Told after each file is read, on the reading threads, one call at a time, in order: files read, files in all. */
    public interface Progress {
        void update(int read, int total);
    }

    public static List<ClusterNode> read(Path dir) throws IOException {
        return read(dir, (read, total) -> { });
    }

    /** As {@link #read(Path)}, telling {@code progress} after each file; an interrupt stops the reading. */
    public static List<ClusterNode> read(Path dir, Progress progress) throws IOException {
        return read(dir, progress, SnapshotIO.OtherFormats.NONE);
    }

    /** As {@link #read(Path, Progress)}; a file of one of {@code others} (a native-call trace) is read in full, then summarised. */
    public static List<ClusterNode> read(Path dir, Progress progress, SnapshotIO.OtherFormats others) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new IOException(dir + ": not a folder");
        }
        List<Path> files = new ArrayList<>();
        List<ClusterNode> skipped = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) {
                String name = p.getFileName().toString();
                String skip = null;
                if (Files.isDirectory(p)) {
                    skip = "skipped: a folder (only the *.json files of " + dir + " are read)";
                } else if (name.endsWith(".json") && !name.equals(MANIFEST)) {
                    if (Files.isRegularFile(p)) {
                        files.add(p);
                    } else {
                        skip = "skipped: not a regular file (a device, FIFO, socket or broken link)";
                    }
                }
                if (skip != null) {
                    skipped.add(new ClusterNode(name.replaceFirst("\\.json$", ""), p.toString(), null, p + ": " + skip));
                }
                if (files.size() + skipped.size() > MAX_FILES) {
                    throw new IOException(dir + ": more than " + MAX_FILES + " report files");
                }
            }
        } catch (java.nio.file.AccessDeniedException e) {
            throw new IOException(dir + ": cannot list: permission denied");
        }
        files.sort(Comparator.comparing(Path::toString));
        skipped.sort(Comparator.comparing(ClusterNode::file));
        int threads = Math.max(1, Math.min(files.size(), Runtime.getRuntime().availableProcessors()));
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "fabricscope-cluster-read");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<ClusterNode>> futures = new ArrayList<>();
            java.util.concurrent.atomic.AtomicInteger done = new java.util.concurrent.atomic.AtomicInteger();
            java.util.concurrent.Semaphore budget = new java.util.concurrent.Semaphore(BUDGET_KIB);
            SummaryReader.Parts parts = new SummaryReader.Parts(true); // the parts the nodes have in common, bound once
            for (Path f : files) {
                futures.add(pool.submit(() -> {
                    int cost = costKib(f);
                    budget.acquire(cost);
                    try {
                        ClusterNode n = readOne(f, others, parts);
                        // counted and reported under one lock, so the caller sees 1, 2, … n in order: a thread that
                        // counted 35 must not report after the one that counted 36 (whose caller then moves on)
                        synchronized (done) {
                            progress.update(done.incrementAndGet(), files.size());
                        }
                        return n;
                    } finally {
                        budget.release(cost);
                    }
                }));
            }
            List<ClusterNode> out = new ArrayList<>();
            for (Future<ClusterNode> f : futures) {
                out.add(f.get());
            }
            out.addAll(skipped);
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading " + dir);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IOException(dir + ": " + e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Memory the files being read at once may take, in KiB: a quarter of the heap. Each file costs about three times
     * its size while read (its bytes, the parser's buffers, what is bound), so a few large files wait for each other
     * instead of all the cores reading 64 MB at once.
     */
    static final int BUDGET_KIB = (int) Math.max(SnapshotIO.MAX_BYTES * 3 >> 10, Runtime.getRuntime().maxMemory() / 4 >> 10);

    private static int costKib(Path f) {
        try {
            return (int) Math.min(BUDGET_KIB, Math.max(1, Files.size(f) * 3 >> 10));
        } catch (IOException e) {
            return 1; // the read itself will say what is wrong
        }
    }

    static ClusterNode readOne(Path f, SnapshotIO.OtherFormats others, SummaryReader.Parts parts) {
        String base = f.getFileName().toString().replaceFirst("\\.json$", "");
        try {
            NodeSummary s = SummaryReader.read(f, others, parts);
            return ClusterNode.summarised(s.hostname() != null ? s.hostname() : base, f.toString(), s);
        } catch (SnapshotIO.ReadException e) {
            return new ClusterNode(base, f.toString(), null, e.getMessage());
        } catch (RuntimeException e) {
            return new ClusterNode(base, f.toString(), null, f + ": " + e);
        }
    }
}
