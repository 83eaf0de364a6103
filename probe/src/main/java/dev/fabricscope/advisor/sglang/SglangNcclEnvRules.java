package dev.fabricscope.advisor.sglang;

import dev.fabricscope.advisor.api.KnobSpec;
import dev.fabricscope.advisor.api.Outcome;
import dev.fabricscope.advisor.api.Verdict;
import dev.fabricscope.advisor.nccl.NcclCumemExport;
import dev.fabricscope.advisor.nccl.NcclNvls;
import dev.fabricscope.advisor.rule.Eval;
import dev.fabricscope.advisor.rule.Partial;
import dev.fabricscope.advisor.rule.Slots;
import dev.fabricscope.advisor.rule.VerdictBuilder;
import static dev.fabricscope.advisor.sglang.SglangKnobs.CUMEM_ENV;
import static dev.fabricscope.advisor.sglang.SglangKnobs.NCCL_NVLS;
import static dev.fabricscope.advisor.sglang.SglangKnobs.NVLS_ENV;
import static dev.fabricscope.advisor.sglang.SglangKnobs.POSIX_FD_ENV;
import static dev.fabricscope.advisor.sglang.SglangKnobs.SYMM_MEM;
import static dev.fabricscope.advisor.sglang.SglangSources.WHEN_ENV;
import static dev.fabricscope.advisor.sglang.SglangSources.WHEN_WARMUP;

/**
 * The NCCL environment SGLang writes at start ({@code _set_envs_and_config}: NCCL_NVLS_ENABLE, NCCL_CUMEM_ENABLE)
 * and the GB200 transport workaround of the older version. Reference: backend-rules.md §1.7.
 */
final class SglangNcclEnvRules {

    private SglangNcclEnvRules() {
    }

    private static SglangVersion version(Eval e) {
        return e.version(SglangVersion.class);
    }

    /** NCCL_NVLS_ENABLE and NCCL_CUMEM_ENABLE as SGLang leaves them (null: unset), and whether SGLang wrote them. */
    record NcclEnv(String nvls, boolean nvlsWritten, String cumem, boolean cumemWritten) {
    }

    /** NCCL_ALGO=allreduce:tree, as --enable-deterministic-inference at TP > 1 sets it (server_args.py@001067ff). */
    private static final String TREE_ONLY = " --enable-deterministic-inference with TP > 1 sets NCCL_ALGO=allreduce:tree, so NCCL runs "
            + "all-reduce on its tree algorithm only and NVLS is not chosen for it.";

    static NcclEnv ncclEnv(Eval e) {
        boolean nvlsFlag = e.bool(NCCL_NVLS);
        boolean symm = e.bool(SYMM_MEM) && !version(e).args().kimiK3Dcp(e);
        String userNvls = e.value(NVLS_ENV);
        String userCumem = e.value(CUMEM_ENV);
        if (version(e).engineEnv() == SglangVersion.EngineEnv.OLDEST) {
            return new NcclEnv(nvlsFlag ? "1" : "0", true, "0", true);
        }
        if (version(e).engineEnv() == SglangVersion.EngineEnv.MIDDLE) {
            // engine.py@ea961060 L680-682: NCCL_NVLS_ENABLE is written only without --enable-symm-mem
            return symm ? new NcclEnv(userNvls, false, "1", true) : new NcclEnv(nvlsFlag ? "1" : "0", true, "0", true);
        }
        if (Boolean.TRUE.equals(mnnvlFabricDevice(e)) && e.nodes() > 1 && userCumem == null) {
            userCumem = "1"; // os.environ.setdefault("NCCL_CUMEM_ENABLE", "1") before the write below (engine.py@9be3044b:1625-1627)
        }
        boolean writeNvls = userNvls == null || nvlsFlag || symm;
        boolean writeCumem = userCumem == null || symm;
        return new NcclEnv(writeNvls ? (nvlsFlag || symm ? "1" : "0") : userNvls, writeNvls,
                writeCumem ? (symm ? "1" : "0") : userCumem, writeCumem);
    }

    static Verdict ncclNvlsFlagVerdict(Eval e, KnobSpec k) {
        VerdictBuilder v = e.on(k, SglangVersion.class).source(version(e).engineSource()).when(WHEN_ENV);
        NcclEnv env = ncclEnv(e);
        boolean on = e.bool(k);
        if (k == SYMM_MEM && on && version(e).args().kimiK3Dcp(e)) {
            return v.fallback().message(SglangMessage.KIMI_K3_SYMM_MEM.text()).source(SglangSources.KIMI_K3_DCP).when(SglangSources.WHEN_RESOLVE)
                    .why(Slots.fill("{model} with DCP {dcp}: its model override sets enable_symm_mem to False before the environment is "
                            + "written, so SGLang runs as without --enable-symm-mem.", "model", e.model(), "dcp", e.dcp()))
                    .fix("drop --enable-symm-mem (the override turns it off anyway)").build();
        }
        if (k == SYMM_MEM && !on) {
            return v.ok().why("Off (default): SGLang does not use NCCL symmetric memory; NCCL_NVLS_ENABLE follows --enable-nccl-nvls (see there).").build();
        }
        String how = env.nvlsWritten() ? "SGLang exports NCCL_NVLS_ENABLE=" + env.nvls()
                : env.nvls() == null ? "SGLang leaves NCCL_NVLS_ENABLE unset (with --enable-symm-mem this version does not write it)"
                : "SGLang keeps the exported NCCL_NVLS_ENABLE=" + env.nvls();
        Partial p = NcclNvls.nvls(e, env.nvls(), how);
        if (!on && !env.nvlsWritten() && e.value(NVLS_ENV) != null && p.outcome() != Outcome.OK) {
            return v.ok().why("Not set: SGLang keeps the exported NCCL_NVLS_ENABLE=" + e.value(NVLS_ENV) + "; that variable's verdict says "
                    + "what NCCL does with it.").build();
        }
        if (on || !env.nvlsWritten()) {
            v.apply(p);
            if (k == SYMM_MEM && on) {
                v.why(p.why() + " It also exports NCCL_CUMEM_ENABLE=" + env.cumem() + "; NCCL symmetric-memory kernels themselves are not modelled.");
            }
            if (p.outcome() == Outcome.ERROR) {
                v.fix("drop " + k.display() + (p.message() != null ? " and repair the Fabric Manager" : ""));
            } else if (p.outcome() == Outcome.OK && "1".equals(env.nvls()) && SglangCustomAllReduceRules.deterministicNccl(e)) {
                v.fallback().why(p.why() + TREE_ONLY).fix("drop " + k.display() + " (deterministic runs all-reduce on NCCL's tree)");
            }
            return v.build();
        }
        return writtenWhileOff(e, v, k, env, how);
    }

    /** The flag is off and SGLang wrote NCCL_NVLS_ENABLE: 0, or 1 because the other flag is on. */
    private static Verdict writtenWhileOff(Eval e, VerdictBuilder v, KnobSpec k, NcclEnv env, String how) {
        if ("1".equals(env.nvls())) {
            return v.ok().why("Not set, but " + (k == NCCL_NVLS ? SYMM_MEM : NCCL_NVLS).display() + " makes " + how + ".").build();
        }
        String reason = NcclNvls.unsupported(e);
        if (reason == null && e.ncclUnreadable()) {
            return v.outcome(Outcome.UNKNOWN).resolved("NVLS disabled").why(how + "; whether NCCL could use NVLS here is unknown: the snapshot's NCCL version is unreadable.").build();
        }
        if (reason == null && SglangCustomAllReduceRules.deterministicNccl(e)) {
            return v.ok().resolved("NVLS disabled").why(how + "; NVLS would not run all-reduce here anyway:" + TREE_ONLY).build();
        }
        if (reason == null) {
            boolean probablyFabricIssue = e.major() >= 9 && e.nvswitch() && !e.fabricReady();
            if (probablyFabricIssue) {
                return v.ok().resolved("NVLS disabled").why(how + ", which avoids NCCL's NVLS failure on this machine (GPU fabric not ready).").build();
            }
            v.fallback().resolved("NVLS disabled").why(how + " unless --enable-nccl-nvls or --enable-symm-mem is given, so NCCL NVLS stays off although "
                    + "this machine supports it (" + e.gpus() + ", with NVSwitches and NVLink multicast).");
            return (k == NCCL_NVLS ? v.fix("--enable-nccl-nvls") : v).build();
        }
        return v.ok().resolved("NVLS disabled").why(how + "; NVLS is not available here anyway (" + reason + ").").build();
    }

    static Verdict nvlsEnvVerdict(Eval e) {
        VerdictBuilder v = e.on(NVLS_ENV, SglangVersion.class).source(version(e).engineSource()).when(WHEN_ENV);
        NcclEnv env = ncclEnv(e);
        String user = e.value(NVLS_ENV);
        v.resolved(env.nvls() == null ? "NCCL_NVLS_ENABLE unset" : "NCCL_NVLS_ENABLE=" + env.nvls());
        if (user != null && env.nvlsWritten() && !user.equals(env.nvls())) {
            String how = switch (version(e).engineEnv()) {
                case OLDEST -> " (this version writes int(--enable-nccl-nvls) unconditionally)";
                case MIDDLE -> " (this version writes int(--enable-nccl-nvls) unless --enable-symm-mem is set)";
                case LATEST -> " because --enable-nccl-nvls / --enable-symm-mem decide it";
            };
            return v.fallback().why("Exported as " + user + ", but SGLang overwrites it with " + env.nvls() + how + ".")
                    .fix("1".equals(user) ? "--enable-nccl-nvls" : "drop --enable-nccl-nvls / --enable-symm-mem").build();
        }
        if (user != null && !env.nvlsWritten()) {
            // eighth audit F15: the user's own value reaches NCCL (engine.py@9be3044b:1630-1637 writes only when unset or a flag asks)
            Partial p = NcclNvls.nvls(e, user, "SGLang keeps the exported NCCL_NVLS_ENABLE=" + user);
            if (p.outcome() != Outcome.OK) {
                v.apply(p).resolved(p.outcome() == Outcome.ERROR ? null : "NCCL_NVLS_ENABLE=" + user);
                return v.why("Exported as " + user + "; this version keeps it (no --enable-nccl-nvls / --enable-symm-mem), so NCCL reads "
                        + "it. " + p.why()).fix(p.outcome() == Outcome.ERROR ? "unset NCCL_NVLS_ENABLE (or 2): NCCL then reads the multicast "
                        + "attribute and skips NVLS where it is missing" : null).build();
            }
        }
        if (user != null) {
            return v.ok().why("Exported as " + user + (env.nvlsWritten() ? " and SGLang writes the same value." : "; this version keeps it.")).build();
        }
        if (env.nvls() == null) {
            return v.ok().why("Not exported, and with --enable-symm-mem this version does not write it: NCCL applies its own default.").build();
        }
        return v.ok().why("Not exported: SGLang sets NCCL_NVLS_ENABLE=" + env.nvls() + " from --enable-nccl-nvls / --enable-symm-mem.").build();
    }

    static Verdict cumemEnvVerdict(Eval e) {
        VerdictBuilder v = e.on(CUMEM_ENV, SglangVersion.class).source(version(e).engineSource()).when(WHEN_ENV);
        NcclEnv env = ncclEnv(e);
        String user = e.value(CUMEM_ENV);
        Boolean gb = mnnvlFabricDevice(e);
        if (mnnvlDefault(e) && user == null && !e.bool(SYMM_MEM) && gb == null) {
            return v.outcome(Outcome.UNKNOWN).source(SglangSources.IS_MNNVL_FABRIC_DEVICE).why(Slots.fill("{span}: this version first sets "
                    + "NCCL_CUMEM_ENABLE=1 and NCCL_MNNVL_ENABLE=1 (setdefault) when is_mnnvl_fabric_device() holds, which asks whether "
                    + "the device name holds GB200 or GB300; the GPU name was not read (no snapshot). Then the variable stays 1, else "
                    + "SGLang writes 0 from --enable-symm-mem.", "span", e.span())).build();
        }
        if (Boolean.TRUE.equals(gb) && e.nodes() > 1 && user == null && !e.bool(SYMM_MEM)) {
            return v.ok().resolved("NCCL_CUMEM_ENABLE=1").source(SglangSources.ENGINE_MNNVL_DEFAULT).why(Slots.fill("{span} and the GPUs are {name}: "
                    + "is_mnnvl_fabric_device() holds (the device name holds GB200 or GB300), so SGLang sets NCCL_CUMEM_ENABLE=1 and "
                    + "NCCL_MNNVL_ENABLE=1 (setdefault) and, without --enable-symm-mem, keeps them: NCCL gets cuMem and MNNVL on.",
                    "span", e.span(), "name", e.facts.gpuName())).build();
        }
        v.resolved("NCCL_CUMEM_ENABLE=" + env.cumem());
        Partial nccl = "0".equals(env.cumem()) && env.cumemWritten() && !"0".equals(user) ? NcclCumemExport.effectOfCumemOff(e) : null;
        if (nccl != null) {
            return cumemOffBreaksMnnvl(e, v, user, nccl);
        }
        Partial userOff = "0".equals(user) && "0".equals(env.cumem()) ? NcclCumemExport.effectOfCumemOff(e) : null;
        if (userOff != null) { // the user's own 0, which this version keeps, reaches NCCL (seventh audit F8)
            v.apply(userOff).when(WHEN_ENV).resolved(userOff.outcome() == Outcome.ERROR ? null : "NCCL_CUMEM_ENABLE=0");
            return v.why(Slots.fill("Exported as 0, and this SGLang keeps it ({src}), so NCCL starts with cuMem off. {nccl}", "src",
                    version(e).engineSource().path() + ":" + version(e).engineSource().line(), "nccl", userOff.why()))
                    .fix("unset NCCL_CUMEM_ENABLE (or export 1)").build();
        }
        if (user != null && env.cumemWritten() && !user.equals(env.cumem())) {
            return v.fallback().why("Exported as " + user + ", but SGLang overwrites it with " + env.cumem()
                    + (version(e).engineEnv() != SglangVersion.EngineEnv.OLDEST ? " (from --enable-symm-mem)" : " (this version writes 0 unconditionally)") + ".").build();
        }
        String from = version(e).engineEnv() != SglangVersion.EngineEnv.OLDEST ? " from --enable-symm-mem." : " (this version writes 0 unconditionally).";
        return v.ok().why(user == null ? "Not exported: SGLang sets NCCL_CUMEM_ENABLE=" + env.cumem() + from : "Exported as " + user + " and kept.").build();
    }

    /**
     * SGLang's NCCL_CUMEM_ENABLE=0 reaches NCCL, whose MNNVL needs cuMem (audit 2026-12-03e F4): the chosen NCCL rule
     * set's answer with that value, as SGLang's verdict.
     */
    private static Verdict cumemOffBreaksMnnvl(Eval e, VerdictBuilder v, String user, Partial nccl) {
        SglangVersion ver = version(e);
        String written = ver.engineEnv() == SglangVersion.EngineEnv.OLDEST ? "writes 0 unconditionally"
                : ver.engineEnv() == SglangVersion.EngineEnv.MIDDLE ? "writes 0 without --enable-symm-mem" : "writes 0 without --enable-symm-mem when it is not exported";
        String src = ver.engineSource().path() + ":" + ver.engineSource().line();
        v.apply(nccl).when(WHEN_ENV).resolved(nccl.outcome() == Outcome.ERROR ? null : "NCCL_CUMEM_ENABLE=0")
                .why(Slots.fill("{exported}SGLang exports NCCL_CUMEM_ENABLE=0 (this version {written}, {src}) before NCCL starts. {nccl}",
                        "exported", user == null ? "" : "Exported as " + user + ", but ", "written", written, "src", src, "nccl", nccl.why()));
        return v.fix(ver.engineEnv() == SglangVersion.EngineEnv.MIDDLE
                ? "--enable-symm-mem (this version then exports NCCL_CUMEM_ENABLE=1), or an SGLang whose engine keeps an exported NCCL_CUMEM_ENABLE"
                : ver.engineEnv() == SglangVersion.EngineEnv.OLDEST ? "an SGLang whose engine keeps an exported NCCL_CUMEM_ENABLE (this one overwrites it)"
                : "export NCCL_CUMEM_ENABLE=1 (this version keeps an exported value)").build();
    }

    /** The newest variant's multi-node MNNVL default (engine.py@001067ff _set_envs_and_config, is_mnnvl_fabric_device). */
    private static boolean mnnvlDefault(Eval e) {
        return version(e).engineEnv() == SglangVersion.EngineEnv.LATEST && e.nodes() > 1 && e.mnnvlFabric();
    }

    /**
     * {@code is_mnnvl_fabric_device()} in the newest engine: the device name holds GB200 or GB300 (CUDA only); null where
     * the GPU name was not read (an --assume machine without a snapshot). Older engines have no such default.
     */
    static Boolean mnnvlFabricDevice(Eval e) {
        if (version(e).engineEnv() != SglangVersion.EngineEnv.LATEST || !e.cuda()) {
            return Boolean.FALSE;
        }
        String name = e.facts.gpuName();
        if (name == null) {
            return null;
        }
        String upper = name.toUpperCase(java.util.Locale.ROOT);
        return upper.contains("GB200") || upper.contains("GB300");
    }

    static Verdict transportVerdict(Eval e) {
        VerdictBuilder v = e.on(POSIX_FD_ENV, SglangVersion.class).source(SglangSources.TRANSPORT).when(WHEN_WARMUP);
        if (SglangFusionPipeline.transportWorkaround(e)) {
            String why = e.env().get(POSIX_FD_ENV.name()) != null ? "SGLANG_FLASHINFER_FORCE_POSIX_FD_TRANSPORT is true"
                    : "the host is aarch64 with SM10x GPUs (" + e.gpus() + ")";
            return v.fallback().resolved("POSIX FD").message(SglangMessage.TRANSPORT).why(why + ": SGLang patches FlashInfer's fabric probe to False, so FlashInfer workspaces "
                    + "exchange POSIX file descriptors (one host only) to avoid data corruption seen with fabric handles on GB systems.")
                    .fix(e.tpSpansNodes() ? "SGLANG_FLASHINFER_FORCE_POSIX_FD_TRANSPORT=0 for multi-node mnnvl (at the risk the workaround avoids)" : null).build();
        }
        return v.ok().why("Inactive: the workaround applies on aarch64 hosts with SM10x GPUs, or when the variable is true.").build();
    }

}
