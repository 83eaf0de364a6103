package dev.fabricscope.cluster;

import dev.fabricscope.io.SnapshotIO;
import dev.fabricscope.model.MachineSnapshot;
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

    /** Told after each file is read, on the reading threads: files read so far, files in all. */
    public interface Progress {
        void update(int read, int total);
    }

    public static List<ClusterNode> read(Path dir) throws IOException {
        return read(dir, (read, total) -> { });
    }

    /** As {@link #read(Path)}, telling {@code progress} after each file; an interrupt stops the reading. */
    public static List<ClusterNode> read(Path dir, Progress progress) throws IOException {
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
            for (Path f : files) {
                futures.add(pool.submit(() -> {
                    ClusterNode n = readOne(f);
                    progress.update(done.incrementAndGet(), files.size());
                    return n;
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

    static ClusterNode readOne(Path f) {
        String base = f.getFileName().toString().replaceFirst("\\.json$", "");
        try {
            MachineSnapshot s = SnapshotIO.read(f);
            String name = s.host() != null && s.host().hostname().isPresent() ? s.host().hostname().value() : base;
            return new ClusterNode(name, f.toString(), s, null);
        } catch (SnapshotIO.ReadException e) {
            return new ClusterNode(base, f.toString(), null, e.getMessage());
        } catch (RuntimeException e) {
            return new ClusterNode(base, f.toString(), null, f + ": " + e);
        }
    }
}
