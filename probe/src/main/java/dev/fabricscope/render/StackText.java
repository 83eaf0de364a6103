package dev.fabricscope.render;

import dev.fabricscope.model.MachineSnapshot;
import dev.fabricscope.model.NcclInfo;
import dev.fabricscope.model.PythonEnvironment;
import dev.fabricscope.model.PythonEnvironment.PythonPackage;
import dev.fabricscope.model.PythonStack;
import dev.fabricscope.text.Escape;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** The software stack as text: one block per Python environment, or one line for a machine without Python. */
public final class StackText {

    /** Packages named in the summary line when present, in this order (the rest are listed after). */
    private static final List<String> FRAMEWORKS = List.of("sglang", "vllm", "flashinfer-python");

    private StackText() {
    }

    /** The section, or "" for a snapshot made before the stack was read. */
    public static String section(MachineSnapshot s) {
        s = dev.fabricscope.text.LongValues.cut(s);
        PythonStack stack = s.pythonStack();
        if (stack == null) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        if (stack.environments().isEmpty()) {
            sb.append("Python:  no Python environment found (looked at ").append(String.join(", ", stack.searched())).append(")\n");
            stack.notes().forEach(n -> sb.append("  ").append(safe(n)).append('\n'));
            return sb.toString();
        }
        PythonEnvironment fw = stack.frameworkEnvironment().orElse(null);
        sb.append("Python environments (read from their files; nothing was run):\n");
        for (PythonEnvironment e : stack.environments()) {
            sb.append("  ").append(safe(e.prefix())).append("  ").append(e.kind().name().toLowerCase(Locale.ROOT));
            if (e.pythonVersion().isPresent()) {
                sb.append(" · Python ").append(safe(e.pythonVersion().value()));
            }
            sb.append(" · found as ").append(safe(String.join(", ", e.foundBy())));
            if (e == fw) {
                sb.append(" · the frameworks' environment");
            }
            sb.append('\n');
            if (e.packages().isEmpty()) {
                sb.append("    no framework packages\n");
                continue;
            }
            sb.append("    ").append(safe(packagesLine(e))).append('\n');
            Optional<PythonStack.LoadedNccl> nccl = PythonStack.loadedNccl(e, s.environment(), s.driver() == null ? null : s.driver().nccl());
            if (e.pkg("torch").isPresent() && nccl.isPresent()) {
                PythonStack.LoadedNccl n = nccl.get();
                sb.append("    NCCL loaded: ").append(n.version() == null ? "version unknown" : n.version())
                        .append(n.library() == null ? "" : " (" + safe(n.library()) + ")").append(" — ").append(safe(n.how())).append('\n');
            }
            List<String> absent = FRAMEWORKS.stream().filter(f -> e.pkg(f).isEmpty()).toList();
            if (!absent.isEmpty() && e.pkg("torch").isPresent()) {
                sb.append("    not installed: ").append(String.join(", ", absent)).append('\n');
            }
        }
        stack.notes().forEach(n -> sb.append("  ").append(safe(n)).append('\n'));
        return sb.toString();
    }

    /** {@code torch 2.11.0 (2.11.0+cu130, CUDA 13.0, cuDNN 9.19.0.56) · triton 3.6.0 · …}. */
    static String packagesLine(PythonEnvironment e) {
        List<String> parts = new ArrayList<>();
        for (PythonPackage p : e.packages()) {
            if (PythonEnvironment.normalise(p.name()).equals("torch")) {
                parts.add("torch " + p.version() + torchDetail(e));
            } else if (!PythonEnvironment.normalise(p.name()).startsWith("nvidia_cudnn_")) {
                parts.add(p.name() + " " + p.version());
            }
        }
        return String.join(" · ", parts);
    }

    private static String torchDetail(PythonEnvironment e) {
        if (!e.torch().isPresent()) {
            return " (torch/version.py: " + e.torch().missing().describe() + ")";
        }
        PythonEnvironment.TorchBuild t = e.torch().value();
        List<String> d = new ArrayList<>();
        if (!t.version().equals(e.version("torch").orElse(""))) {
            d.add(t.version());
        }
        d.add(t.cuda().isPresent() ? "CUDA " + t.cuda().value() : t.hip().isPresent() ? "ROCm " + t.hip().value() : "no CUDA");
        if (t.cudnn().isPresent()) {
            d.add("cuDNN " + t.cudnn().value());
        }
        return " (" + String.join(", ", d) + ")";
    }

    /** One line per machine for comparisons ({@link PythonStack#summary}); null when the stack was not read. */
    public static String summary(PythonStack stack, java.util.Map<String, String> environment, NcclInfo probed) {
        return stack == null ? null : stack.summary(environment, probed);
    }

    /**
     * One row per environment for report tables: environment, kind and Python, packages, the NCCL its frameworks
     * load; one row saying so when no Python was found; none when the stack was not read.
     */
    public static List<String[]> rows(MachineSnapshot s) {
        List<String[]> out = new ArrayList<>();
        PythonStack stack = s.pythonStack();
        if (stack == null) {
            return out;
        }
        if (stack.environments().isEmpty()) {
            out.add(new String[] {"none found", "", "", "looked at " + String.join(", ", stack.searched())});
        }
        PythonEnvironment fw = stack.frameworkEnvironment().orElse(null);
        for (PythonEnvironment e : stack.environments()) {
            String nccl = e.pkg("torch").isEmpty() ? "" : PythonStack.loadedNccl(e, s.environment(), s.driver() == null ? null : s.driver().nccl())
                    .map(n -> (n.version() == null ? "version unknown" : n.version()) + " — " + n.how()).orElse("");
            out.add(new String[] {e.prefix() + (e == fw ? " (the frameworks')" : ""),
                e.kind().name().toLowerCase(Locale.ROOT) + (e.pythonVersion().isPresent() ? " · Python " + e.pythonVersion().value() : ""),
                e.packages().isEmpty() ? "no framework packages" : packagesLine(e), nccl});
        }
        return out;
    }

    private static String safe(String s) {
        return Escape.visible(Escape.cut(s, 300), false);
    }
}
