package dev.fabricscope.advisor;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** The rule-set version applied per framework ({@code --framework-version NAME=VERSION}); newest by default. */
record Versions(SglangRules.Version sglang, VllmRules.Version vllm, FlashInferRules.Version flashinfer,
                NcclRules.Version nccl) {

    static Versions newest() {
        return new Versions(SglangRules.VERSIONS.get(0), VllmRules.VERSIONS.get(0), FlashInferRules.VERSIONS.get(0),
                NcclRules.VERSIONS.get(0));
    }

    static Versions resolve(Map<String, String> requested) throws AdvisorInputException {
        Versions v = newest();
        if (requested == null) {
            return v;
        }
        for (Map.Entry<String, String> e : requested.entrySet()) {
            String fw = e.getKey();
            String id = e.getValue();
            switch (fw) {
                case "sglang" -> v = new Versions(pick(fw, id, SglangRules.VERSIONS, SglangRules.Version::id), v.vllm, v.flashinfer, v.nccl);
                case "vllm" -> v = new Versions(v.sglang, pick(fw, id, VllmRules.VERSIONS, VllmRules.Version::id), v.flashinfer, v.nccl);
                case "flashinfer" -> v = new Versions(v.sglang, v.vllm, pick(fw, id, FlashInferRules.VERSIONS, FlashInferRules.Version::id), v.nccl);
                case "nccl" -> v = new Versions(v.sglang, v.vllm, v.flashinfer, pick(fw, id, NcclRules.VERSIONS, NcclRules.Version::id));
                default -> throw new AdvisorInputException("unknown framework '" + fw + "' in --framework-version; valid: "
                        + String.join(", ", Options.FRAMEWORKS));
            }
        }
        return v;
    }

    /** {@code newest} names the first (default) version of every framework. */
    private static <V> V pick(String fw, String id, List<V> versions, Function<V, String> idOf) throws AdvisorInputException {
        if ("newest".equals(id) || "latest".equals(id)) {
            return versions.get(0);
        }
        for (V v : versions) {
            if (idOf.apply(v).equals(id)) {
                return v;
            }
        }
        throw new AdvisorInputException("unknown " + fw + " version '" + id + "'; valid: "
                + String.join(", ", versions.stream().map(idOf).toList()) + " (newest is the default)");
    }

    /**
     * The rule sets for the installed releases where the release is known to carry a behaviour, else as given: NCCL
     * 2.17–2.20 (the loaded library's version) take the 2.17-2.20 rules (NCCL's environment docs of those releases);
     * for SGLang, vLLM and FlashInfer no release→commit mapping is recorded, so their newest rules stay and
     * {@code notes} says so. Frameworks in {@code requested} ({@code --framework-version}) are left as requested.
     */
    Versions forInstalled(Map<String, String> requested, MachineFacts facts, Map<String, String> installed, List<String> notes) {
        Versions v = this;
        Map<String, String> req = requested == null ? Map.of() : requested;
        Fact<String> nccl = facts.ncclVersion();
        if (!req.containsKey("nccl") && nccl.probed() && nccl.value() != null) {
            boolean old = Values.compareVersions(nccl.value(), "2.17") >= 0 && Values.compareVersions(nccl.value(), "2.21") < 0;
            if (old) {
                v = new Versions(v.sglang, v.vllm, v.flashinfer, NcclRules.VERSIONS.get(1));
            }
            notes.add("nccl " + nccl.value() + " read (" + nccl.detail() + "): rules " + v.nccl.id()
                    + (old ? " (NCCL environment docs 2.17–2.20)" : ""));
        }
        for (String fw : List.of("sglang", "vllm", "flashinfer")) {
            String version = installed.get(fw);
            if (version == null || req.containsKey(fw)) {
                continue;
            }
            notes.add(fw + " " + version + " installed (read): which rule set that release matches is not recorded "
                    + "(the rules cite commits, not releases), so the newest rules are used; --framework-version " + fw
                    + "=… chooses others");
        }
        return v;
    }

    Map<String, String> ids() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("sglang", sglang.id());
        m.put("vllm", vllm.id());
        m.put("flashinfer", flashinfer.id());
        m.put("nccl", nccl.id());
        return m;
    }

    String id(String framework) {
        return ids().get(framework);
    }

    /** Every valid {@code NAME=VERSION}, with what each version models, for help text. */
    static List<String> describeAll() {
        List<String> out = new java.util.ArrayList<>();
        SglangRules.VERSIONS.forEach(x -> out.add("sglang=" + x.id() + ": " + x.description()));
        VllmRules.VERSIONS.forEach(x -> out.add("vllm=" + x.id() + ": " + x.description()));
        FlashInferRules.VERSIONS.forEach(x -> out.add("flashinfer=" + x.id() + ": " + x.description()));
        NcclRules.VERSIONS.forEach(x -> out.add("nccl=" + x.id() + ": " + x.description()));
        return out;
    }
}
