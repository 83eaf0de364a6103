package dev.fabricscope.model;

import java.util.List;
import java.util.Optional;

/**
 * One Python environment (an interpreter prefix) and the framework packages installed in it, read from its files
 * without running Python.
 *
 * @param prefix        the environment's root ({@code sys.prefix}), e.g. {@code /opt/torch/.venv}
 * @param kind          a virtual environment (has {@code pyvenv.cfg}), a conda environment, or a system Python
 * @param interpreter   the interpreter file it was found through, or why none is known
 * @param foundBy       how it was found: {@code --python}, {@code VIRTUAL_ENV}, {@code python3 on PATH}, …
 * @param pythonVersion from {@code pyvenv.cfg} or the {@code lib/python3.X} folder name
 * @param sitePackages  the package folders read
 * @param packages      the framework packages found, with their versions
 * @param torch         torch's build, from {@code torch/version.py}; not applicable when torch is not installed
 * @param nccl          the NCCL library of the {@code nvidia-nccl-cu12/cu13} wheel; not applicable without one
 */
public record PythonEnvironment(String prefix, Kind kind, Reading<String> interpreter, List<String> foundBy,
                                Reading<String> pythonVersion, List<String> sitePackages, List<PythonPackage> packages,
                                Reading<TorchBuild> torch, Reading<WheelNccl> nccl) {

    public enum Kind { VENV, CONDA, SYSTEM }

    public PythonEnvironment {
        foundBy = foundBy == null ? List.of() : List.copyOf(foundBy);
        sitePackages = sitePackages == null ? List.of() : List.copyOf(sitePackages);
        packages = packages == null ? List.of() : List.copyOf(packages);
    }

    /**
     * One installed distribution.
     *
     * @param name     the project name as {@code METADATA} spells it ({@code flashinfer-python})
     * @param version  its {@code Version:} header
     * @param metadata the file the version was read from
     * @param commit   for a source install from git, the {@code vcs_info.commit_id} of its {@code direct_url.json}
     *                 (PEP 610); null when the file is absent, unreadable or names no git commit
     */
    public record PythonPackage(String name, String version, String metadata,
                                @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                                String commit) {

        public PythonPackage(String name, String version, String metadata) {
            this(name, version, metadata, null);
        }
    }

    /** The git commit a source install of {@code name} was built from ({@code direct_url.json}), if read. */
    public Optional<String> commit(String name) {
        return pkg(name).map(PythonPackage::commit);
    }

    /**
     * What {@code torch/version.py} says about the build.
     *
     * @param version {@code __version__}, e.g. {@code 2.11.0+cu130}
     * @param cuda    {@code cuda}: the CUDA version torch was built for; not applicable for a CPU or ROCm build
     * @param hip     {@code hip}: the ROCm version of a ROCm build
     * @param cudnn   the cuDNN wheel installed beside torch ({@code nvidia-cudnn-cu13}), if any
     * @param source  the file read
     */
    public record TorchBuild(String version, Reading<String> cuda, Reading<String> hip, Reading<String> cudnn, String source) {
    }

    /**
     * The NCCL library a Python NCCL wheel ships.
     *
     * @param packageName {@code nvidia-nccl-cu13}
     * @param version     the wheel's version (= the library's NCCL version)
     * @param library     the library file, or why none was found in the wheel's {@code nvidia/nccl/lib}
     */
    public record WheelNccl(String packageName, String version, Reading<String> library) {
    }

    /** The package named {@code name} (compared as pip normalises names: case, '-', '_' and '.' alike). */
    public Optional<PythonPackage> pkg(String name) {
        String n = normalise(name);
        return packages.stream().filter(p -> normalise(p.name()).equals(n)).findFirst();
    }

    public Optional<String> version(String name) {
        return pkg(name).map(PythonPackage::version);
    }

    /** PEP 503 normal form, with '_' for the separator: {@code Flashinfer.Python} → {@code flashinfer_python}. */
    public static String normalise(String name) {
        return name == null ? "" : name.toLowerCase(java.util.Locale.ROOT).replaceAll("[-_.]+", "_");
    }

    /** Torch's CUDA version when read. */
    public Optional<String> torchCuda() {
        return torch.isPresent() ? torch.value().cuda().asOptional() : Optional.empty();
    }

    /** One line: {@code /opt/torch/.venv (venv, Python 3.12.3)}. */
    public String title() {
        return prefix + " (" + kind.name().toLowerCase(java.util.Locale.ROOT)
                + (pythonVersion.isPresent() ? ", Python " + pythonVersion.value() : "") + ")";
    }
}
