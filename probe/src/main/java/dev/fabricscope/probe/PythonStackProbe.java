package dev.fabricscope.probe;

import dev.fabricscope.model.Missing;
import dev.fabricscope.model.PythonEnvironment;
import dev.fabricscope.model.PythonEnvironment.PythonPackage;
import dev.fabricscope.model.PythonEnvironment.TorchBuild;
import dev.fabricscope.model.PythonEnvironment.WheelNccl;
import dev.fabricscope.model.PythonStack;
import dev.fabricscope.model.Reading;
import dev.fabricscope.nativeapi.NativeAnswer;
import dev.fabricscope.nativeapi.NativeReads;
import dev.fabricscope.nativeapi.SeamInterceptor;
import dev.fabricscope.nativeapi.host.FileHost;
import dev.fabricscope.nativeapi.host.HostCalls;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the Python environments the frameworks run in and reads their framework packages from the files pip wrote
 * ({@code *.dist-info/METADATA}, {@code torch/version.py}), as {@code collect_env} reports them but without starting
 * Python or importing anything. Every file goes through the host seam; nothing here throws.
 */
public final class PythonStackProbe {

    /** The distributions worth reporting, as {@code METADATA} names them. */
    public static final List<String> PACKAGES = List.of("torch", "sglang", "sgl-kernel", "vllm", "flashinfer-python",
            "flashinfer-cubin", "flashinfer-jit-cache", "nvidia-nccl-cu12", "nvidia-nccl-cu13", "nvidia-cudnn-cu12",
            "nvidia-cudnn-cu13", "nvidia-nvshmem-cu12", "nvidia-nvshmem-cu13", "cuda-bindings", "cuda-python", "triton",
            "transformers");
    /** Conda installations looked for under the home folder and /opt (each is an environment, and so is envs/*). */
    static final List<String> CONDA_BASES = List.of("miniconda3", "miniforge3", "anaconda3", "mambaforge");
    private static final int MAX_METADATA_BYTES = 64 * 1024;
    private static final int MAX_LINK_HOPS = 16;
    private static final int MAX_ENVIRONMENTS = 32;
    private static final Pattern PY_ASSIGN = Pattern.compile("^([A-Za-z_][A-Za-z0-9_]*)\\s*(?::[^=]*)?=\\s*(.*?)\\s*$");
    private static final Pattern QUOTED = Pattern.compile("^(['\"])(.*)\\1$");
    private static final Pattern PYTHON_DIR = Pattern.compile("python(3\\.\\d{1,3})");

    private final HostCalls host;
    private final List<String> explicit;
    /** Whether the seam answered any call (a trace from before this reading answers none). */
    private volatile boolean answered;
    /** The first call that did not answer normally (hung, threw), and how many did not. */
    private volatile String firstFault;
    private volatile int faults;

    /** @param explicit {@code --python} arguments: interpreters or environment folders, in order */
    public PythonStackProbe(HostCalls host, List<String> explicit) {
        this.host = SeamInterceptor.wrap(HostCalls.class, host, this::seen);
        this.explicit = explicit == null ? List.of() : List.copyOf(explicit);
    }

    /** The {@code --python} values of a command line (so a replay asks the trace what the recording asked). */
    public static List<String> pythonArgs(List<String> commandLine) {
        List<String> out = new ArrayList<>();
        for (int i = 0; commandLine != null && i < commandLine.size(); i++) {
            String a = commandLine.get(i);
            if ("--python".equals(a) && i + 1 < commandLine.size()) {
                out.add(commandLine.get(++i));
            } else if (a != null && a.startsWith("--python=")) {
                out.add(a.substring("--python=".length()));
            }
        }
        return out;
    }

    /** Notes whether the host seam answered anything (a trace from before this reading answers nothing) and its faults. */
    private NativeAnswer<?> seen(String call, Object[] args, NativeAnswer<?> a, long nanos) {
        if (a == null) {
            answered = true;
            return NativeAnswer.failed(NativeAnswer.Fault.THREW, "no answer object");
        }
        if (a.fault() != NativeAnswer.Fault.NOT_RECORDED) {
            answered = true;
        }
        if (a.fault() != null && a.fault() != NativeAnswer.Fault.NOT_RECORDED) {
            faults++;
            if (firstFault == null) {
                firstFault = NativeReads.faultText(a);
            }
        }
        return a;
    }

    private record Candidate(String path, String how) {
    }

    private record Prefix(String prefix, PythonEnvironment.Kind kind, Reading<String> interpreter, List<String> cfg) {
    }

    /** The environments found, or null when the seam answered none of the calls (a trace recorded before this reading). */
    public PythonStack read() {
        List<String> searched = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        List<Candidate> candidates = candidates(searched);
        Map<String, List<String>> foundBy = new LinkedHashMap<>();
        Map<String, Prefix> prefixes = new LinkedHashMap<>();
        for (Candidate c : candidates) {
            Prefix p = resolve(c.path);
            if (p == null) {
                if (c.how.startsWith("--python") || c.how.equals("VIRTUAL_ENV") || c.how.equals("CONDA_PREFIX")) {
                    notes.add(c.how + " " + c.path + ": no Python environment there (no pyvenv.cfg, no lib/python3.*, no interpreter)");
                }
                continue;
            }
            if (!prefixes.containsKey(p.prefix) && prefixes.size() >= MAX_ENVIRONMENTS) {
                notes.add("more than " + MAX_ENVIRONMENTS + " environments: " + p.prefix + " and later ones not read");
                break;
            }
            prefixes.putIfAbsent(p.prefix, p);
            if (!prefixes.get(p.prefix).interpreter.isPresent() && p.interpreter.isPresent()) {
                prefixes.put(p.prefix, p);
            }
            List<String> how = foundBy.computeIfAbsent(p.prefix, k -> new ArrayList<>());
            if (!how.contains(c.how)) {
                how.add(c.how);
            }
        }
        List<PythonEnvironment> envs = new ArrayList<>();
        for (Prefix p : prefixes.values()) {
            envs.add(environment(p, foundBy.get(p.prefix)));
        }
        if (firstFault != null) {
            notes.add(faults + " file read(s) did not answer, so the stack may be incomplete; first: " + firstFault);
        }
        return answered ? new PythonStack(envs, searched, notes) : null;
    }

    // ---- where to look

    private List<Candidate> candidates(List<String> searched) {
        List<Candidate> out = new ArrayList<>();
        for (String p : explicit) {
            if (p != null && !p.isBlank()) {
                out.add(new Candidate(clean(p), "--python"));
            }
        }
        if (!explicit.isEmpty()) {
            searched.add("--python");
        }
        for (String var : List.of("VIRTUAL_ENV", "CONDA_PREFIX")) {
            searched.add(var);
            String v = env(var);
            if (v != null && v.startsWith("/")) {
                out.add(new Candidate(clean(v), var));
            }
        }
        searched.add("python3 on PATH");
        String path = env("PATH");
        if (path != null) {
            for (String dir : path.split(":")) {
                if (!dir.startsWith("/")) {
                    continue;
                }
                // readlink answers in one system call whether the file is there (a link, EINVAL: a plain file, ENOENT)
                NativeAnswer<String> py = host.readlink(clean(dir) + "/python3");
                if (py.fault() == null && (py.rc() == 0 || py.rc() == HostCalls.EINVAL)) {
                    out.add(new Candidate(clean(dir) + "/python3", "python3 on PATH")); // every one, as which -a lists them
                }
            }
        }
        searched.add("/opt/*/.venv and /opt/*");
        List<String> opt = list("/opt", "*");
        for (String name : opt) {
            // one listing per folder says which of its entries can make it (or its .venv) an environment
            List<String> marks = list("/opt/" + name, "{.venv,pyvenv.cfg,lib,conda-meta}");
            if (marks.contains(".venv")) {
                out.add(new Candidate("/opt/" + name + "/.venv", "/opt/*/.venv"));
            }
            if (marks.contains("pyvenv.cfg") || marks.contains("lib") && !marks.contains("conda-meta")) {
                out.add(new Candidate("/opt/" + name, "/opt/*"));
            }
        }
        String home = env("HOME");
        boolean hasHome = home != null && home.startsWith("/");
        if (hasHome) {
            searched.add("~/.venv");
            out.add(new Candidate(clean(home) + "/.venv", "~/.venv"));
        }
        searched.add("conda environments");
        List<String> bases = new ArrayList<>();
        String condaGlob = "{conda," + String.join(",", CONDA_BASES) + "}";
        for (String name : opt) {
            if (name.equals("conda") || CONDA_BASES.contains(name)) {
                bases.add("/opt/" + name);
            }
        }
        if (hasHome) {
            for (String name : list(clean(home), condaGlob)) {
                if (!name.equals("conda")) {
                    bases.add(clean(home) + "/" + name);
                }
            }
        }
        for (String base : bases) {
            out.add(new Candidate(base, "conda environments"));
            for (String e : list(base + "/envs", "*")) {
                out.add(new Candidate(base + "/envs/" + e, "conda environments"));
            }
        }
        return out;
    }

    /**
     * The environment a path belongs to: a folder holding {@code pyvenv.cfg} or {@code lib/python3.X}, or an
     * interpreter whose {@code ../pyvenv.cfg} makes it a virtual environment's (as Python itself decides, before
     * following links), else the prefix of the file its symbolic links lead to.
     */
    private Prefix resolve(String path) {
        Prefix asDir = prefixAt(path, Reading.unavailable("found as a folder"));
        if (asDir != null) {
            String bin = asDir.prefix.equals("/") ? "/bin" : asDir.prefix + "/bin";
            List<String> py = list(bin, "python3");
            return py.isEmpty() ? asDir : new Prefix(asDir.prefix, asDir.kind, Reading.of(bin + "/python3"), asDir.cfg);
        }
        String bin = parent(path);
        if (bin == null || !path.substring(bin.length() + 1).startsWith("python")) {
            return null;
        }
        String top = parent(bin);
        List<String> cfg = lines(top + "/pyvenv.cfg");
        if (cfg != null) {
            return new Prefix(top, PythonEnvironment.Kind.VENV, Reading.of(path), cfg);
        }
        String real = path;
        for (int hop = 0; hop < MAX_LINK_HOPS; hop++) {
            NativeAnswer<String> link = host.readlink(real);
            if (link.fault() == null && link.rc() == HostCalls.ENOENT) {
                return null;
            }
            if (!link.succeeded() || link.value() == null || link.value().isBlank()) {
                break;
            }
            String target = link.value();
            real = clean(target.startsWith("/") ? target : parent(real) + "/" + target);
        }
        String realBin = realDirectory(parent(real));
        String realTop = realBin == null ? null : parent(realBin);
        if (realTop == null) {
            return null;
        }
        Prefix p = prefixAt(realTop.isEmpty() ? "/" : realTop, Reading.of(path));
        if (p == null) {
            return null;
        }
        return p;
    }

    /** {@code dir} with symbolic links among its folders followed ({@code /bin} → {@code /usr/bin} on merged-/usr systems). */
    private String realDirectory(String dir) {
        if (dir == null || dir.isEmpty()) {
            return dir;
        }
        String done = "";
        List<String> rest = parts(dir);
        for (int hops = 0; !rest.isEmpty() && hops < MAX_LINK_HOPS * 4; hops++) {
            String next = done + "/" + rest.remove(0);
            NativeAnswer<String> link = host.readlink(next);
            if (link.succeeded() && link.value() != null && !link.value().isBlank()) {
                String target = clean(link.value().startsWith("/") ? link.value() : (done.isEmpty() ? "" : done) + "/" + link.value());
                List<String> again = parts(target);
                again.addAll(rest);
                rest = again;
                done = "";
            } else {
                done = next;
            }
        }
        return done.isEmpty() ? dir : done;
    }

    private static List<String> parts(String path) {
        List<String> out = new ArrayList<>();
        for (String p : path.split("/")) {
            if (!p.isEmpty()) {
                out.add(p);
            }
        }
        return out;
    }

    private Prefix prefixAt(String dir, Reading<String> interpreter) {
        List<String> cfg = lines(dir + "/pyvenv.cfg");
        if (cfg != null) {
            return new Prefix(dir, PythonEnvironment.Kind.VENV, interpreter, cfg);
        }
        if (list(dir + "/lib", "python3*").isEmpty()) {
            return null;
        }
        boolean conda = !list(dir + "/conda-meta", "history").isEmpty();
        return new Prefix(dir, conda ? PythonEnvironment.Kind.CONDA : PythonEnvironment.Kind.SYSTEM, interpreter, List.of());
    }

    // ---- one environment

    private PythonEnvironment environment(Prefix p, List<String> how) {
        String prefix = p.prefix.equals("/") ? "" : p.prefix;
        List<String> libDirs = list(prefix + "/lib", "python3*");
        Reading<String> version = pythonVersion(p, libDirs);
        List<String> sites = new ArrayList<>();
        for (String d : libDirs) {
            if (PYTHON_DIR.matcher(d).matches()) {
                sites.add(prefix + "/lib/" + d + "/site-packages");
                if (p.kind == PythonEnvironment.Kind.SYSTEM) {
                    sites.add(prefix + "/lib/" + d + "/dist-packages");
                    if (prefix.equals("/usr")) {
                        sites.add("/usr/local/lib/" + d + "/dist-packages");
                    }
                }
            }
        }
        if (p.kind == PythonEnvironment.Kind.SYSTEM && libDirs.contains("python3")) {
            sites.add(prefix + "/lib/python3/dist-packages");
        }
        List<String> read = new ArrayList<>();
        List<PythonPackage> packages = new ArrayList<>();
        String torchSite = null;
        String ncclSite = null;
        WheelNcclName ncclName = null;
        for (String site : sites) {
            NativeAnswer<List<String>> ls = host.listDirectory(site, "*.{dist-info,egg-info}");
            if (!ls.succeeded() || ls.value() == null) {
                continue;
            }
            read.add(site);
            for (String entry : ls.value()) {
                if (entry == null || entry.isEmpty()) {
                    continue;
                }
                String wanted = wanted(entry);
                if (wanted == null || packages.stream().anyMatch(x -> PythonEnvironment.normalise(x.name()).equals(wanted))) {
                    continue;
                }
                PythonPackage pkg = readPackage(site, entry);
                if (pkg == null) {
                    continue;
                }
                packages.add(pkg);
                if (wanted.equals("torch")) {
                    torchSite = site;
                }
                if (wanted.startsWith("nvidia_nccl_")) {
                    ncclSite = site;
                    ncclName = new WheelNcclName(pkg.name(), pkg.version());
                }
            }
        }
        packages.sort((a, b) -> Integer.compare(order(a.name()), order(b.name())));
        Reading<TorchBuild> torch = torchSite == null
                ? Reading.missing(Missing.notApplicable("torch not installed"))
                : torchBuild(torchSite, packages);
        Reading<WheelNccl> nccl = ncclSite == null
                ? Reading.missing(Missing.notApplicable("no nvidia-nccl wheel installed"))
                : Reading.of(new WheelNccl(ncclName.name, ncclName.version, ncclLibrary(ncclSite)));
        return new PythonEnvironment(p.prefix, p.kind, p.interpreter, how, version, read, packages, torch, nccl);
    }

    private record WheelNcclName(String name, String version) {
    }

    private static int order(String name) {
        int i = 0;
        for (String p : PACKAGES) {
            if (PythonEnvironment.normalise(p).equals(PythonEnvironment.normalise(name))) {
                return i;
            }
            i++;
        }
        return i;
    }

    /** The wanted project a {@code name-version.dist-info} folder is for, in normal form, or null. */
    static String wanted(String entry) {
        int dash = entry == null ? -1 : entry.indexOf('-');
        if (dash <= 0) {
            return null;
        }
        String n = PythonEnvironment.normalise(entry.substring(0, dash));
        for (String p : PACKAGES) {
            if (PythonEnvironment.normalise(p).equals(n)) {
                return n;
            }
        }
        return null;
    }

    private PythonPackage readPackage(String site, String entry) {
        String file = site + "/" + entry + (entry.endsWith(".egg-info") ? "/PKG-INFO" : "/METADATA");
        NativeAnswer<List<String>> a = host.readHeaderLines(file, MAX_METADATA_BYTES);
        String name = null;
        String version = null;
        if (a.succeeded() && a.value() != null) {
            for (String line : a.value()) {
                if (line == null) {
                    continue;
                }
                if (name == null && line.startsWith("Name:")) {
                    name = line.substring(5).trim();
                } else if (version == null && line.startsWith("Version:")) {
                    version = line.substring(8).trim();
                }
            }
        }
        if (name != null && version != null && !name.isEmpty() && !version.isEmpty() && sane(name) && sane(version)) {
            return new PythonPackage(name, version, file, entry.endsWith(".dist-info") ? directUrlCommit(site + "/" + entry) : null);
        }
        // METADATA unreadable: the folder name carries the version too (name-version.dist-info)
        String stem = entry.substring(0, entry.lastIndexOf('.'));
        int dash = stem.indexOf('-');
        String v = dash > 0 ? stem.substring(dash + 1) : "";
        if (v.isEmpty() || !sane(v)) {
            return null;
        }
        String why = a.fault() != null ? NativeReads.faultText(a) : a.rc() != 0 ? FileHost.errnoName(a.rc()) : "no Name/Version header";
        return new PythonPackage(stem.substring(0, dash), v, site + "/" + entry + " (folder name; METADATA: " + why + ")");
    }

    /** A git commit id as {@code vcs_info.commit_id} holds it (full or abbreviated hex). */
    private static final java.util.regex.Pattern COMMIT = java.util.regex.Pattern.compile("[0-9a-f]{7,64}");

    /**
     * {@code vcs_info.commit_id} of a distribution's {@code direct_url.json} (PEP 610), where pip recorded a git source
     * install; null for a wheel from an index (no file), a local directory ({@code dir_info}), or anything unreadable.
     */
    private String directUrlCommit(String distInfo) {
        NativeAnswer<List<String>> a = host.readLines(distInfo + "/direct_url.json");
        if (!a.succeeded() || a.value() == null) {
            return null;
        }
        try {
            com.fasterxml.jackson.databind.JsonNode vcs = dev.fabricscope.json.Json.mapper().readTree(String.join("\n", a.value())).path("vcs_info");
            String commit = vcs.path("commit_id").asText("").toLowerCase(java.util.Locale.ROOT);
            return "git".equals(vcs.path("vcs").asText()) && COMMIT.matcher(commit).matches() ? commit : null;
        } catch (java.io.IOException | RuntimeException e) {
            return null;
        }
    }

    private static boolean sane(String s) {
        return s.length() <= 100 && s.chars().allMatch(c -> c > 0x20 && c < 0x7f);
    }

    private Reading<TorchBuild> torchBuild(String site, List<PythonPackage> packages) {
        String file = site + "/torch/version.py";
        NativeAnswer<List<String>> a = host.readLines(file);
        if (!a.succeeded() || a.value() == null) {
            String why = a.fault() != null ? NativeReads.faultText(a) : FileHost.errnoName(a.rc());
            return Reading.missing(new Missing(Missing.Kind.ERROR, "read " + file, why, a.fault() == null ? a.rc() : null, null));
        }
        Map<String, String> vars = new LinkedHashMap<>();
        Map<String, Boolean> none = new LinkedHashMap<>();
        for (String line : a.value()) {
            Matcher m = line == null ? null : PY_ASSIGN.matcher(line);
            if (m == null || !m.matches()) {
                continue;
            }
            String value = m.group(2);
            Matcher q = QUOTED.matcher(value);
            if (q.matches() && sane(q.group(2))) {
                vars.putIfAbsent(m.group(1), q.group(2));
            } else if (value.equals("None")) {
                none.putIfAbsent(m.group(1), true);
            }
        }
        String version = vars.get("__version__");
        if (version == null) {
            return Reading.missing(Missing.invalid("read " + file, String.join("\\n", a.value().stream().limit(3).toList()),
                    "no __version__ in torch/version.py"));
        }
        Reading<String> cuda = field(vars, none, "cuda", file, "a CPU or ROCm build (cuda = None)");
        Reading<String> hip = field(vars, none, "hip", file, "not a ROCm build (hip = None)");
        Reading<String> cudnn = packages.stream()
                .filter(p -> PythonEnvironment.normalise(p.name()).startsWith("nvidia_cudnn_"))
                .findFirst().map(p -> Reading.of(p.version()))
                .orElse(Reading.missing(Missing.notApplicable("no nvidia-cudnn wheel beside torch")));
        return Reading.of(new TorchBuild(version, cuda, hip, cudnn, file));
    }

    private static Reading<String> field(Map<String, String> vars, Map<String, Boolean> none, String name, String file, String noneWhy) {
        if (vars.containsKey(name)) {
            String v = vars.get(name);
            return v.matches("\\d{1,3}(\\.\\d{1,4}){0,3}") ? Reading.of(v)
                    : Reading.missing(Missing.invalid("read " + file, v, name + " is not a version"));
        }
        if (none.containsKey(name)) {
            return Reading.missing(Missing.notApplicable(noneWhy));
        }
        return Reading.missing(Missing.notApplicable("no " + name + " in torch/version.py"));
    }

    private Reading<String> ncclLibrary(String site) {
        String dir = site + "/nvidia/nccl/lib";
        NativeAnswer<List<String>> a = host.listDirectory(dir, "libnccl.so*");
        if (!a.succeeded() || a.value() == null) {
            String why = a.fault() != null ? NativeReads.faultText(a) : FileHost.errnoName(a.rc());
            return Reading.missing(new Missing(Missing.Kind.ERROR, "list " + dir, why, a.fault() == null ? a.rc() : null, null));
        }
        if (a.value().contains("libnccl.so.2")) {
            return Reading.of(dir + "/libnccl.so.2");
        }
        return a.value().isEmpty() ? Reading.missing(Missing.notApplicable("no libnccl.so* in " + dir))
                : Reading.of(dir + "/" + a.value().get(0));
    }

    private Reading<String> pythonVersion(Prefix p, List<String> libDirs) {
        for (String line : p.cfg) {
            String l = line == null ? "" : line.trim();
            for (String key : List.of("version_info", "version")) {
                if (l.startsWith(key)) {
                    String rest = l.substring(key.length()).trim();
                    if (rest.startsWith("=")) {
                        String v = rest.substring(1).trim();
                        if (v.matches("3\\.\\d{1,3}(\\.\\d{1,3})?.{0,12}") && sane(v)) {
                            return Reading.of(v);
                        }
                    }
                }
            }
        }
        for (String d : libDirs) {
            Matcher m = PYTHON_DIR.matcher(d);
            if (m.matches()) {
                return Reading.of(m.group(1));
            }
        }
        return Reading.missing(Missing.notApplicable("no pyvenv.cfg version and no lib/python3.X"));
    }

    // ---- seam helpers

    private String env(String name) {
        NativeAnswer<String> a = host.getenv(name);
        return a.succeeded() && a.value() != null && !a.value().isBlank() ? a.value() : null;
    }

    private List<String> lines(String path) {
        NativeAnswer<List<String>> a = host.readLines(path);
        return a.succeeded() && a.value() != null ? a.value() : null;
    }

    private List<String> list(String dir, String glob) {
        NativeAnswer<List<String>> a = host.listDirectory(dir, glob);
        return a.succeeded() && a.value() != null ? a.value().stream().filter(x -> x != null && !x.isEmpty()).toList() : List.of();
    }

    private static String parent(String path) {
        int i = path.lastIndexOf('/');
        return i < 0 ? null : path.substring(0, i);
    }

    /** Removes trailing and doubled slashes, and {@code .}/{@code ..} segments, without touching the file system. */
    static String clean(String path) {
        List<String> parts = new ArrayList<>();
        for (String s : path.split("/")) {
            if (s.isEmpty() || s.equals(".")) {
                continue;
            }
            if (s.equals("..")) {
                if (!parts.isEmpty()) {
                    parts.remove(parts.size() - 1);
                }
                continue;
            }
            parts.add(s);
        }
        return "/" + String.join("/", parts);
    }
}
