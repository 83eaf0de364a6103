package dev.fabricscope.nativeapi.host;

import dev.fabricscope.nativeapi.NativeAnswer;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.NotLinkException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/** {@link HostCalls} on this machine (or under a test root standing in for /). */
public final class FileHost implements HostCalls, HostQueries.Raw {

    private final Path root;
    private final Map<String, String> env;
    private final Predicate<String> getenvAllowed;
    private final Predicate<String> environmentAllowed;

    /**
     * @param root               where "/" is (tests point it at a fake tree)
     * @param env                the process environment
     * @param getenvAllowed      the variables {@link #getenv} answers (the probe's allow-list); no other is read
     * @param environmentAllowed those of them {@link #environment} answers
     */
    public FileHost(Path root, Map<String, String> env, Predicate<String> getenvAllowed, Predicate<String> environmentAllowed) {
        this.root = root;
        this.env = env;
        this.getenvAllowed = getenvAllowed;
        this.environmentAllowed = environmentAllowed;
    }

    private Path resolve(String absolute) {
        return root.resolve(absolute.startsWith("/") ? absolute.substring(1) : absolute);
    }

    @Override
    public NativeAnswer<List<String>> readLines(String path) {
        try {
            return NativeAnswer.ok(Files.readAllLines(resolve(path), StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException e) {
            return NativeAnswer.returned(errno(e), null);
        }
    }

    @Override
    public NativeAnswer<List<String>> listDirectory(String path, String glob) {
        Path dir = resolve(path);
        List<String> out = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, glob)) {
            for (Path p : ds) {
                out.add(p.getFileName().toString());
            }
        } catch (IOException | RuntimeException e) {
            return NativeAnswer.returned(errno(e), null);
        }
        out.sort(null);
        return NativeAnswer.ok(out);
    }

    @Override
    public NativeAnswer<List<String>> readHeaderLines(String path, int maxBytes) {
        List<String> out = new ArrayList<>();
        int budget = Math.max(0, maxBytes);
        try (BufferedReader r = Files.newBufferedReader(resolve(path), StandardCharsets.UTF_8)) {
            String line;
            while ((line = r.readLine()) != null && !line.isEmpty() && budget > 0) {
                budget -= line.length() + 1;
                out.add(line);
            }
        } catch (IOException | RuntimeException e) {
            return NativeAnswer.returned(errno(e), null);
        }
        return NativeAnswer.ok(out);
    }

    @Override
    public NativeAnswer<String> readlink(String path) {
        try {
            return NativeAnswer.ok(Files.readSymbolicLink(resolve(path)).toString());
        } catch (NotLinkException e) {
            return NativeAnswer.returned(EINVAL, null);
        } catch (IOException | RuntimeException e) {
            return NativeAnswer.returned(e instanceof UnsupportedOperationException ? EINVAL : errno(e), null);
        }
    }

    @Override
    public NativeAnswer<String> getenv(String name) {
        if (name == null || !getenvAllowed.test(name)) {
            return NativeAnswer.returned(EACCES, null);
        }
        String v = env.get(name);
        return v == null ? NativeAnswer.returned(ENOENT, null) : NativeAnswer.ok(v);
    }

    @Override
    public NativeAnswer<String> realPath(String path) {
        try {
            Path real = resolve(path).toRealPath();
            Path rootReal = root.toRealPath();
            return NativeAnswer.ok(real.startsWith(rootReal) ? "/" + rootReal.relativize(real).toString().replace('\\', '/') : real.toString());
        } catch (IOException | RuntimeException e) {
            return NativeAnswer.returned(errno(e), null);
        }
    }

    static int errno(Exception e) {
        if (e instanceof NoSuchFileException) {
            return ENOENT;
        }
        if (e instanceof NotDirectoryException) {
            return ENOTDIR;
        }
        if (e instanceof AccessDeniedException || e instanceof SecurityException) {
            return EACCES;
        }
        return EIO;
    }

    @Override
    public NativeAnswer<String> systemProperty(String name) {
        String v = System.getProperty(name);
        return v == null ? NativeAnswer.returned(ENOENT, null) : NativeAnswer.ok(v);
    }

    @Override
    public NativeAnswer<Integer> availableProcessors() {
        return NativeAnswer.ok(Runtime.getRuntime().availableProcessors());
    }

    @Override
    public NativeAnswer<Map<String, String>> environment() {
        Map<String, String> out = new TreeMap<>();
        env.forEach((k, v) -> {
            if (k != null && v != null && environmentAllowed.test(k)) {
                out.put(k, v);
            }
        });
        return NativeAnswer.ok(out);
    }

    @Override
    public NativeAnswer<Map<String, List<Integer>>> processesNamed(List<String> names) {
        return HostQueries.processesNamed(this, names);
    }

    @Override
    public NativeAnswer<Map<Integer, Boolean>> tcpListening(List<Integer> ports) {
        return HostQueries.tcpListening(this, ports);
    }

    @Override
    public NativeAnswer<Map<String, String>> fileFields(String path, List<String> keys) {
        return HostQueries.fileFields(this, path, keys);
    }

    /** Where the fabric manager's packages install {@code nv-fabricmanager} (the first executable one is asked). */
    static final List<String> FABRIC_MANAGER_BINARIES = List.of("/usr/bin/nv-fabricmanager", "/usr/sbin/nv-fabricmanager",
            "/usr/local/bin/nv-fabricmanager", "/bin/nv-fabricmanager", "/sbin/nv-fabricmanager");

    @Override
    public NativeAnswer<List<String>> fabricManagerVersion() {
        Path binary = null;
        for (String candidate : FABRIC_MANAGER_BINARIES) {
            Path p = resolve(candidate);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                binary = p;
                break;
            }
        }
        if (binary == null) {
            return NativeAnswer.returned(ENOENT, null);
        }
        Process proc = null;
        try {
            proc = new ProcessBuilder(binary.toString(), "--version").redirectErrorStream(true).start();
            proc.getOutputStream().close();
            List<String> out = new ArrayList<>();
            Process running = proc;
            Thread reader = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new java.io.InputStreamReader(running.getInputStream(), StandardCharsets.UTF_8))) {
                    String line;
                    int budget = 8192;
                    while ((line = r.readLine()) != null) {
                        if (out.size() < 20 && budget > 0) {
                            synchronized (out) {
                                out.add(line.length() > 400 ? line.substring(0, 400) : line);
                            }
                            budget -= line.length() + 1;
                        }
                    }
                } catch (IOException e) {
                    // the process ended or was killed: what was read stays
                }
            }, "nv-fabricmanager --version");
            reader.setDaemon(true);
            reader.start();
            if (!proc.waitFor(5, java.util.concurrent.TimeUnit.SECONDS)) {
                proc.destroyForcibly();
                return NativeAnswer.returned(EIO, null);
            }
            reader.join(1000);
            synchronized (out) {
                return NativeAnswer.ok(List.copyOf(out));
            }
        } catch (IOException | RuntimeException e) {
            return NativeAnswer.returned(errno(e), null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            if (proc != null) {
                proc.destroyForcibly();
            }
            return NativeAnswer.returned(EIO, null);
        }
    }

    /** errno's name for the codes this backend answers. */
    public static String errnoName(int rc) {
        return switch (rc) {
            case ENOENT -> "ENOENT";
            case EIO -> "EIO";
            case EACCES -> "EACCES";
            case ENOTDIR -> "ENOTDIR";
            case EINVAL -> "EINVAL";
            default -> "errno " + rc;
        };
    }
}
