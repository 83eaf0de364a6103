package dev.fabricscope.model;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Python software stack of the machine: the environments the frameworks would run in. An empty list is a
 * machine without Python (a normal case), said in one line.
 *
 * @param environments one per interpreter prefix, in the order they were found
 * @param searched     where the probe looked, in order
 * @param notes        what could not be used ({@code --python /x: no such file})
 */
public record PythonStack(List<PythonEnvironment> environments, List<String> searched, List<String> notes) {

    /** Frameworks whose presence makes an environment the one they run in, most specific first. */
    public static final List<String> FRAMEWORKS = List.of("sglang", "vllm", "flashinfer-python", "torch");

    public PythonStack {
        environments = environments == null ? List.of() : List.copyOf(environments);
        searched = searched == null ? List.of() : List.copyOf(searched);
        notes = notes == null ? List.of() : List.copyOf(notes);
    }

    /**
     * The environment the frameworks would run in: the first one holding SGLang or vLLM, else FlashInfer, else torch
     * (an explicit {@code --python} or the active environment comes first in the list).
     */
    public Optional<PythonEnvironment> frameworkEnvironment() {
        for (String f : FRAMEWORKS) {
            Optional<PythonEnvironment> e = environments.stream().filter(x -> x.pkg(f).isPresent()).findFirst();
            if (e.isPresent()) {
                return e;
            }
        }
        return Optional.empty();
    }

    /**
     * One line for comparing machines: {@code torch 2.11.0+cu130 / CUDA 13.0 / NCCL 2.28.9 / sglang 0.5.6}, of the
     * frameworks' environment ({@code no Python}, {@code no torch} otherwise).
     */
    public String summary(Map<String, String> environment, NcclInfo probed) {
        Optional<PythonEnvironment> fw = frameworkEnvironment();
        if (fw.isEmpty()) {
            return environments.isEmpty() ? "no Python" : "no torch";
        }
        PythonEnvironment e = fw.get();
        List<String> parts = new java.util.ArrayList<>();
        parts.add("torch " + (e.torch().isPresent() ? e.torch().value().version() : e.version("torch").orElse("not installed")));
        e.torchCuda().ifPresent(c -> parts.add("CUDA " + c));
        loadedNccl(e, environment, probed).map(LoadedNccl::version).ifPresent(v -> parts.add("NCCL " + v));
        for (String f : List.of("sglang", "vllm", "flashinfer-python")) {
            e.version(f).ifPresent(v -> parts.add(f.replace("-python", "") + " " + v));
        }
        return String.join(" / ", parts);
    }

    /** The NCCL a framework in {@code env} would load, and how that was decided. */
    public record LoadedNccl(String version, String library, String how) {
    }

    /**
     * The NCCL the frameworks of {@code env} would load: the library {@code VLLM_NCCL_SO_PATH} names (vLLM's
     * {@code find_nccl_library}; then only the probe's reading of that file has a version), else the
     * {@code nvidia-nccl} wheel torch depends on (torch loads it, and pynccl's {@code libnccl.so.2} resolves to the
     * copy already loaded), else the library the probe found on the host.
     */
    public static Optional<LoadedNccl> loadedNccl(PythonEnvironment env, Map<String, String> environment, NcclInfo probed) {
        String soPath = environment == null ? null : environment.get("VLLM_NCCL_SO_PATH");
        boolean probedPresent = probed != null && probed.path().isPresent() && probed.version().isPresent();
        if (soPath != null && !soPath.isBlank()) {
            if (probedPresent && probed.path().value().equals(soPath)) {
                return Optional.of(new LoadedNccl(probed.version().value(), soPath, "VLLM_NCCL_SO_PATH names it; ncclGetVersion"));
            }
            return Optional.of(new LoadedNccl(null, soPath, "VLLM_NCCL_SO_PATH names it; its version was not read"));
        }
        if (env != null && env.nccl().isPresent()) {
            PythonEnvironment.WheelNccl w = env.nccl().value();
            String lib = w.library().orElse(null);
            String how = "the " + w.packageName() + " " + w.version() + " wheel, which torch loads and pynccl's libnccl.so.2 then finds";
            if (probedPresent && lib != null && probed.path().value().equals(lib) && !probed.version().value().equals(w.version())) {
                return Optional.of(new LoadedNccl(probed.version().value(), lib, how + "; ncclGetVersion says " + probed.version().value()));
            }
            return Optional.of(new LoadedNccl(w.version(), lib, how));
        }
        if (probedPresent) {
            return Optional.of(new LoadedNccl(probed.version().value(), probed.path().value(),
                    (env != null ? "no NCCL wheel in " + env.prefix() + "; " : "") + "the host's library (ncclGetVersion)"));
        }
        return Optional.empty();
    }
}
