package dev.fabricscope.nativeapi.nccl;

import dev.fabricscope.model.Missing;
import dev.fabricscope.model.NcclInfo;
import dev.fabricscope.model.Reading;
import dev.fabricscope.nativeapi.NativeAnswer;
import dev.fabricscope.nativeapi.NativeReads;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds {@code libnccl.so.2} where the frameworks would load it from (an explicit path, the Python wheels
 * PyTorch loads first, LD_LIBRARY_PATH, then the system paths) and asks it for its version.
 */
public final class NcclLocator {

    static final String SONAME = "libnccl.so.2";
    private static final List<String> SYSTEM_DIRS = List.of("/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
            "/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib", "/usr/local/lib",
            "/usr/local/cuda/lib64", "/usr/local/nccl/lib", "/opt/nccl/lib");
    private static final List<String> PYTHON_ROOTS = List.of("/opt", "/usr/lib", "/usr/local/lib", "/opt/conda/lib");

    private NcclLocator() {
    }

    /** Candidate files in search order; existing ones only. */
    public static List<Path> candidates(String explicitPath, Map<String, String> env) {
        Set<Path> out = new LinkedHashSet<>();
        if (explicitPath != null) {
            out.add(Paths.get(explicitPath));
        }
        for (Path dir : pythonWheelDirs(env)) {
            out.add(dir.resolve(SONAME));
        }
        String ld = env.getOrDefault("LD_LIBRARY_PATH", "");
        for (String d : ld.split(":")) {
            if (!d.isBlank()) {
                out.add(Paths.get(d, SONAME));
            }
        }
        for (String d : SYSTEM_DIRS) {
            out.add(Paths.get(d, SONAME));
        }
        List<Path> existing = new ArrayList<>();
        for (Path p : out) {
            if (Files.isRegularFile(p)) {
                existing.add(p);
            }
        }
        if (explicitPath != null && !Files.isRegularFile(Paths.get(explicitPath))) {
            existing.add(0, Paths.get(explicitPath));
        }
        return existing;
    }

    /** {@code …/site-packages/nvidia/nccl/lib} under virtual environments, conda and the user's site. */
    static List<Path> pythonWheelDirs(Map<String, String> env) {
        List<Path> dirs = new ArrayList<>();
        List<Path> sitePackages = new ArrayList<>();
        String venv = env.get("VIRTUAL_ENV");
        if (venv != null) {
            sitePackages.addAll(glob(Paths.get(venv, "lib"), "python3*", "site-packages"));
        }
        String conda = env.get("CONDA_PREFIX");
        if (conda != null) {
            sitePackages.addAll(glob(Paths.get(conda, "lib"), "python3*", "site-packages"));
        }
        String home = env.get("HOME");
        if (home != null) {
            sitePackages.addAll(glob(Paths.get(home, ".local", "lib"), "python3*", "site-packages"));
        }
        for (String root : PYTHON_ROOTS) {
            sitePackages.addAll(glob(Paths.get(root), "python3*", "dist-packages"));
            sitePackages.addAll(glob(Paths.get(root), "python3*", "site-packages"));
        }
        // /opt/<env>/.venv/lib/python3.x/site-packages and /opt/<env>/lib/python3.x/site-packages
        for (Path opt : list(Paths.get("/opt"))) {
            sitePackages.addAll(glob(opt.resolve(".venv").resolve("lib"), "python3*", "site-packages"));
            sitePackages.addAll(glob(opt.resolve("lib"), "python3*", "site-packages"));
        }
        for (Path sp : sitePackages) {
            Path lib = sp.resolve("nvidia").resolve("nccl").resolve("lib");
            if (Files.isDirectory(lib) && !dirs.contains(lib)) {
                dirs.add(lib);
            }
        }
        return dirs;
    }

    private static List<Path> glob(Path dir, String pattern, String child) {
        List<Path> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, pattern)) {
            for (Path p : ds) {
                Path c = p.resolve(child);
                if (Files.isDirectory(c)) {
                    out.add(c);
                }
            }
        } catch (IOException | SecurityException ignored) {
            // unreadable directory: nothing found there
        }
        return out;
    }

    private static List<Path> list(Path dir) {
        List<Path> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            ds.forEach(out::add);
        } catch (IOException | SecurityException ignored) {
            // unreadable
        }
        return out;
    }

    /** {@code 22803} → {@code 2.28.3}; codes before 2.9 used {@code X*1000+Y*100+Z}. */
    public static String versionString(int code) {
        if (code >= 20900) {
            return code / 10000 + "." + (code % 10000) / 100 + "." + code % 100;
        }
        return code / 1000 + "." + (code % 1000) / 100 + "." + code % 100;
    }

    /** Finds NCCL and reads its version through the seam; never throws. */
    public static NcclInfo locate(NcclCalls calls, String explicitPath) {
        NativeAnswer<List<NcclCalls.Candidate>> answer = calls.libraryCandidates(explicitPath);
        if (!answer.succeeded() || answer.value() == null) {
            String why = answer.fault() != null ? NativeReads.faultText(answer) : "libraryCandidates → " + answer.rc();
            return new NcclInfo(Reading.missing(Missing.unavailable("NCCL search failed: " + why)),
                    Reading.missing(Missing.unavailable("no NCCL library")), List.of());
        }
        List<NcclCalls.Candidate> found = answer.value().stream().filter(c -> c != null && c.path() != null).toList();
        List<String> searched = found.stream().map(NcclCalls.Candidate::path).toList();
        if (found.isEmpty()) {
            return new NcclInfo(Reading.missing(Missing.unavailable(SONAME + " not found (searched Python wheels, LD_LIBRARY_PATH and system library paths)")),
                    Reading.missing(Missing.unavailable("no NCCL library")), searched);
        }
        NcclCalls.Candidate first = found.get(0);
        if (!first.regularFile()) {
            return new NcclInfo(Reading.missing(Missing.unavailable("no such file: " + first.path())),
                    Reading.missing(Missing.unavailable("no NCCL library")), searched);
        }
        NativeAnswer<Integer> v = calls.ncclGetVersion(first.path());
        Reading<String> version;
        if (v.fault() == NativeAnswer.Fault.LOAD_FAILED) {
            version = Reading.missing(new Missing(Missing.Kind.ERROR, "dlopen", null, null, v.detail()));
        } else if (v.fault() != null) {
            version = Reading.missing(new Missing(Missing.Kind.ERROR, "ncclGetVersion", null, null, NativeReads.faultText(v)));
        } else if (v.rc() != 0) {
            version = Reading.missing(Missing.error("ncclGetVersion", "ncclResult " + v.rc(), v.rc()));
        } else if (v.value() == null || v.value() < 1000 || v.value() > 999_999) {
            version = Reading.missing(Missing.invalid("ncclGetVersion", String.valueOf(v.value()), "not an NCCL version code"));
        } else {
            version = Reading.of(versionString(v.value()));
        }
        return new NcclInfo(Reading.of(first.path()), version, searched);
    }
}
