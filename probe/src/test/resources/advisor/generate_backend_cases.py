#!/usr/bin/env python3
"""Writes backend-cases.json: cases derived from upstream source (backend-rules.md and its errata), each with the
upstream line it follows. Expectations are written from the upstream tables here, independently of the Java rules.
Run: python3 generate_backend_cases.py > backend-cases.json"""
import json

SG = "sgl-project/sglang"
VL = "vllm-project/vllm"
# _resolve_backend in the traceback-matched layout, at a fork commit (backend-rules.md §8)
FUSION_TB = "mmangkad-dev/sglang@65b14881c5a6d308f00958a3095dea172e7cf47b:python/sglang/srt/layers/flashinfer_comm_fusion.py"
CAR_SG = SG + "@004e6561cb8ae26d62166c15782955f99f058274:python/sglang/srt/distributed/device_communicators/custom_all_reduce.py"
CAR_VL = VL + "@00d618aab60448acdf3fac3e9c4e2e22d0c6c753:vllm/distributed/device_communicators/custom_all_reduce.py"
TABLE = VL + "@0052812d1f0655bd4b646b5dbda8b3427697fae3:vllm/compilation/passes/fusion/allreduce_rms_fusion.py:FI_ALLREDUCE_FUSION_MAX_SIZE_MB"
PAR_VL = VL + "@00193b82b0e2d4faea5d3b4ea4f6c4c2bd9d057a:vllm/config/parallel.py:452-546"
PAR_SG = SG + "@0005973a:python/sglang/srt/distributed/parallel_state.py:initialize_model_parallel"
EXEC = SG + "@01d795f8aa711691052ae277055a67f23a123b0b:python/sglang/srt/arg_groups/fields/exec_.py:ExecComm"
MODEL_DCP = VL + "@0052a5b818980ce8a0477706aaf9f75bd5af72cd:vllm/config/model.py:verify_with_parallel_config (non-MLA DCP asserts)"
SYMM_VL = VL + "@00859a52088e757514a25dddd0214ccc89898a1c:vllm/distributed/device_communicators/symm_mem.py:SymmMemCommunicator.__init__"

CAR_WORLD = "Custom allreduce is disabled due to an unsupported world size: %d. Supported world sizes: [2, 4, 6, 8]. To silence this warning, specify disable_custom_all_reduce=True explicitly."
CAR_SPANS = "Custom allreduce is disabled because this process group spans across nodes."
CAR_PCIE = "Custom allreduce is disabled because it's not supported on more than two PCIe-only GPUs. To silence this warning, specify disable_custom_all_reduce=True explicitly."
PASS_WORLD = "Flashinfer allreduce fusion is not supported for world size %d or max size is not provided"
R1 = "FlashInfer allreduce fusion requires SM90 or SM10X NVIDIA GPUs."
R2 = "FlashInfer allreduce fusion does not support multi-node on non-Blackwell systems."
R3 = "FlashInfer allreduce fusion trtllm backend supports single-node only."
R4 = "FlashInfer allreduce fusion mnnvl backend requires a Blackwell system, or SM90 single-node."
SYMM_WORLD = "SymmMemCommunicator: World size %d not supported, communicator is not available."

cases = []


def machine(sm="9.0", nodes=1, gpn=8, mc=True, fabric=False, nvswitch=True, all_nvlink=True, **more):
    m = {"sm": sm, "platform": "cuda", "nodes": nodes, "gpus_per_node": gpn, "multicast_supported": mc,
         "fabric_handle_supported": fabric, "nvswitch": nvswitch, "all_nvlink": all_nvlink, "p2p": True}
    m.update(more)
    if m.get("mnnvl_fabric"):
        m.setdefault("imex_channel", True)  # a working MNNVL tray has an IMEX channel (FABRIC handles need one)
    return m


def case(cid, fw, knob, value, m, dep, outcome, resolved=None, error_class=None, message=None, source="", **extra):
    c = {"id": cid, "framework": fw, "knob": knob, "value": value, "machine": m, "deployment": dep,
         "expected": {"outcome": outcome, "resolved": resolved, "error_class": error_class, "message": message},
         "source": source, "confidence": "high"}
    c.update(extra)
    cases.append(c)


# vLLM fusion-pass size table: capability x world size (TP 2..16 on one node of 16 GPUs)
VL_TABLE = {"9.0": {2, 4, 8}, "10.0": {2, 4, 8, 16}, "10.3": {2, 4, 8, 16}}
for sm, sizes in VL_TABLE.items():
    for tp in (2, 3, 4, 5, 6, 7, 8, 16):
        m = machine(sm, gpn=16, torch_cuda="12.8")
        if tp in sizes:
            case(f"VL-TAB-{sm}-{tp}", "vllm", "fuse_allreduce_rms", "true", m, {"tp": tp, "nnodes": 1}, "ok", "mnnvl",
                 source=TABLE + f" ({int(float(sm) * 10)}: has {tp}); auto = mnnvl in newer flashinfer_all_reduce.py copies")
        else:
            case(f"VL-TAB-{sm}-{tp}", "vllm", "fuse_allreduce_rms", "true", m, {"tp": tp, "nnodes": 1}, "fallback",
                 message=PASS_WORLD % tp, source=TABLE + f" (no entry for world size {tp})")

# custom all-reduce world sizes, both frameworks, TP 1..8 on an NVSwitch node. SGLang's classic kernel is the
# "middle" rule set: the newest dispatches CustomAllReduceV2 by default (environ.py@0003215c), cases below.
CLASSIC = {"framework_version": {"sglang": "middle"}}
for fw, src in (("sglang", CAR_SG), ("vllm", CAR_VL)):
    for tp in range(1, 9):
        m = machine("9.0")
        if tp == 1:
            case(f"{fw[:2].upper()}-CAR-{tp}", fw, "--disable-custom-all-reduce", None, m, {"tp": tp, "nnodes": 1}, "ok",
                 source=src + ":CustomAllreduce.__init__ (world size 1)", **(CLASSIC if fw == "sglang" else {}))
        elif tp in (2, 4, 6, 8):
            case(f"{fw[:2].upper()}-CAR-{tp}", fw, "--disable-custom-all-reduce", None, m, {"tp": tp, "nnodes": 1}, "ok", "custom",
                 source=src + ":CustomAllreduce.__init__", **(CLASSIC if fw == "sglang" else {}))
        else:
            case(f"{fw[:2].upper()}-CAR-{tp}", fw, "--disable-custom-all-reduce", None, m, {"tp": tp, "nnodes": 1}, "fallback",
                 resolved=("nccl" if fw == "sglang" else None), message=CAR_WORLD % tp, source=src + ":106-113 (world size)",
                 **(CLASSIC if fw == "sglang" else {"skip_resolved": True}))
    for nodes in (2, 3, 4):
        case(f"{fw[:2].upper()}-CAR-SPAN-{nodes}", fw, "--disable-custom-all-reduce", None, machine("9.0", nodes=nodes),
             {"tp": 8 * nodes, "nnodes": nodes}, "fallback", resolved=("nccl" if fw == "sglang" else None), message=CAR_SPANS,
             source=src + ":92-98 (group spans nodes)", **(CLASSIC if fw == "sglang" else {"skip_resolved": True}))
    for tp in (3, 4):
        m = machine("8.9", nvswitch=False, all_nvlink=False, mc=False)
        msg = CAR_PCIE if tp == 4 else CAR_WORLD % tp
        case(f"{fw[:2].upper()}-CAR-PCIE-{tp}", fw, "--disable-custom-all-reduce", None, m, {"tp": tp, "nnodes": 1}, "fallback",
             resolved=("nccl" if fw == "sglang" else None), message=msg, source=src + (":143-149 (PCIe only)" if tp == 4 else ":106-113"),
             **(CLASSIC if fw == "sglang" else {"skip_resolved": True}))

# SGLang newest: CustomAllReduceV2 is the default dispatch (THRESHOLD_2_SHOT_MAP keys 2..8, full NVLink only)
CAR_V2 = SG + "@50e143a67729a27e5939dfb586ca449648ddb0fa:python/sglang/srt/distributed/device_communicators/custom_all_reduce_v2.py"
V2_WORLD = "CustomAllReduceV2 is disabled due to an unsupported world size: %d. Supported world sizes: [2, 3, 4, 5, 6, 7, 8]."
V2_PCIE = "CustomAllReduceV2 is disabled because it's not supported on more than two PCIe-only GPUs."
for tp in range(2, 9):
    case(f"SG-CARV2-{tp}", "sglang", "--disable-custom-all-reduce", None, machine("9.0"), {"tp": tp, "nnodes": 1}, "ok",
         "custom all-reduce v2", source=CAR_V2 + ":41-49, 177-185 (world sizes are the map's keys; full NVLink)")
    case(f"SG-CARV2-ENV-{tp}", "sglang", "SGLANG_OPT_USE_CUSTOM_ALL_REDUCE_V2", "1", machine("9.0"), {"tp": tp, "nnodes": 1}, "ok",
         "custom all-reduce v2", source=CAR_V2 + ":41-49 (the env verdict says what the communicator verdict says)")
case("SG-CARV2-16", "sglang", "--disable-custom-all-reduce", None, machine("9.0", gpn=16), {"tp": 16, "nnodes": 1}, "fallback", "nccl",
     message=V2_WORLD % 16, source=CAR_V2 + ":41-49 (16 is not a key of THRESHOLD_2_SHOT_MAP)")
case("SG-CARV2-PCIE-2", "sglang", "--disable-custom-all-reduce", None, machine("8.9", nvswitch=False, all_nvlink=False, mc=False),
     {"tp": 2, "nnodes": 1}, "ok", "custom", source=CAR_V2 + ":47 (full_nvlink != True: V2 refuses, no warning for two GPUs); "
     "mmangkad-dev/sglang@3e255fd49371a810e4fc900b95c7b60f6876ed38:python/sglang/srt/distributed/device_communicators/custom_all_reduce.py:355-366 "
     "(#25650: a group V2 refuses gets the classic CustomAllreduce, which takes two GPUs)")
case("SG-CARV2-PCIE-4", "sglang", "--disable-custom-all-reduce", None, machine("8.9", nvswitch=False, all_nvlink=False, mc=False),
     {"tp": 4, "nnodes": 1}, "fallback", "nccl", message=V2_PCIE, source=CAR_V2 + ":41-49 (cls_name=CustomAllReduceV2)")
case("SG-CARV2-OFF-3", "sglang", "--disable-custom-all-reduce", None, machine("9.0"), {"tp": 3, "nnodes": 1, "env": {"SGLANG_OPT_USE_CUSTOM_ALL_REDUCE_V2": "0"}},
     "fallback", "nccl", message=CAR_WORLD % 3, source=CAR_SG + ":106-113 (V2 exported off: the classic kernel)")

# SGLang newest: prefill context parallel checks (parallel_hook.py@008b79d2 handle_context_parallelism)
HOOK = SG + "@008b79d2358b08adf9b6c879625030f890c8c4e2:python/sglang/srt/arg_groups/parallel_hook.py"
case("SG-CP-NOSTRATEGY", "sglang", "--enable-prefill-cp", "true", machine("9.0"), {"tp": 8, "nnodes": 1, "model_arch": "Qwen3MoeForCausalLM"},
     "error", error_class="ValueError", message="--cp-strategy must be set when --enable-prefill-cp is enabled.", source=HOOK + ":65-68")
case("SG-CP-DSV32-ZIGZAG", "sglang", "--cp-strategy", "zigzag", machine("9.0"),
     {"tp": 8, "nnodes": 1, "model_arch": "DeepseekV32ForCausalLM", "enable_prefill_cp": "true"}, "error", error_class="ValueError",
     message="DeepSeek V3.2 prefill CP does not support --cp-strategy zigzag; use interleave.", source=HOOK + ":38-46")
for acp in (3, 5):
    case(f"SG-CP-ATTN-{acp}", "sglang", "--attn-cp-size", str(acp), machine("9.0"), {"tp": 8, "nnodes": 1}, "error", error_class="AssertionError",
         message="tp_size must be divisible by attn_cp_size", source=HOOK + ":73-75")
case("SG-CP-ATTN-DP", "sglang", "--attn-cp-size", "4", machine("9.0"), {"tp": 8, "nnodes": 1, "dp_size": "4"}, "error", error_class="AssertionError",
     message="tp_size must be divisible by dp_size * attn_cp_size", source=HOOK + ":76-78")

# SGLang fusion backend resolution: SM x value x nodes (backend-rules.md section 6)
for sm in ("9.0", "10.0", "10.3", "12.0", "8.0"):
    for nodes in (1, 2):
        for value in ("auto", "trtllm", "mnnvl"):
            multi = nodes > 1
            m = machine(sm, nodes=nodes, fabric=True, mnnvl_fabric=True, torch_cuda="12.8")
            dep = {"tp": 8 * nodes, "nnodes": nodes}
            cid = f"SG-RES-{sm}-{nodes}-{value}"
            if sm in ("12.0", "8.0"):
                case(cid, "sglang", "--flashinfer-allreduce-fusion-backend", value, m, dep, "error", error_class="ValueError", message=R1,
                     source=FUSION_TB + ":50 (_resolve_backend, first check)")
            elif sm == "9.0":
                if not multi:
                    case(cid, "sglang", "--flashinfer-allreduce-fusion-backend", value, m, dep, "ok", "trtllm" if value != "mnnvl" else "mnnvl",
                         source=FUSION_TB + ":62-64 (single node)")
                else:
                    msg = {"auto": R2, "trtllm": R3, "mnnvl": R4}[value]
                    case(cid, "sglang", "--flashinfer-allreduce-fusion-backend", value, m, dep, "error", error_class="ValueError", message=msg,
                         source=FUSION_TB + ":_resolve_backend (multi-node on SM90)")
            else:
                if value == "trtllm" and multi:
                    case(cid, "sglang", "--flashinfer-allreduce-fusion-backend", value, m, dep, "error", error_class="ValueError", message=R3,
                         source=FUSION_TB + ":67")
                else:
                    case(cid, "sglang", "--flashinfer-allreduce-fusion-backend", value, m, dep, "ok", "trtllm" if value == "trtllm" else "mnnvl",
                         source=FUSION_TB + ":_resolve_backend (SM10x)")

# DCP divisibility, TP 8, DCP 1..8, both frameworks
for dcp in range(1, 9):
    m = machine("9.0")
    dep = {"tp": 8, "nnodes": 1, "dcp_size": dcp}
    if 8 % dcp == 0:
        case(f"SG-DCPDIV-{dcp}", "sglang", "--dcp-size", None, m, dep, "ok", source=PAR_SG)
        # DCP > 1 then meets ModelConfig's non-MLA asserts on the model's KV heads, which the advisor does not know
        case(f"VL-DCPDIV-{dcp}", "vllm", "--decode-context-parallel-size", None, m, dep, "ok" if dcp == 1 else "unknown",
             source=PAR_VL if dcp == 1 else MODEL_DCP)
    else:
        case(f"SG-DCPDIV-{dcp}", "sglang", "--dcp-size", None, m, dep, "error", error_class="RuntimeError",
             message=f"tensor_model_parallel_size (8) must be divisible by decode_context_parallel_size ({dcp})", source=PAR_SG)
        case(f"VL-DCPDIV-{dcp}", "vllm", "--decode-context-parallel-size", None, m, dep, "error", error_class="ValueError",
             message=f"tp_size=8 must be divisible by dcp_size={dcp}.", source=PAR_VL)

# flags SGLang never had, on every sample machine
SAMPLES = ["h200-vm", "dgx-h100", "hgx-b200", "gb200-nvl72-tray", "dgx-a100", "h100-nvl-pairs", "rtx-pro-6000-2x", "l40s-4x"]
for sample in SAMPLES:
    for flag in ("enable-flashinfer-allreduce-only", "enable-flashinfer-pure-allreduce"):
        case(f"SG-ABSENT-{sample}-{flag}", "sglang", "--" + flag, "true", {}, {"tp": 1}, "error", error_class="SystemExit (argparse)",
             message="sglang serve: error: unrecognized arguments: --" + flag, source=EXEC + " (no such field)", sample=sample)

# vLLM torch symmetric memory world sizes on SM 9.0 and 10.0 with multicast
for sm in ("9.0", "10.0"):
    for tp in range(2, 9):
        m = machine(sm)
        if tp in (2, 4, 6, 8):
            multimem = (sm == "9.0" and tp in (4, 6, 8)) or (sm == "10.0" and tp in (6, 8))
            case(f"VL-SYMM-{sm}-{tp}", "vllm", "VLLM_ALLREDUCE_USE_SYMM_MEM", None, m, {"tp": tp, "nnodes": 1}, "ok",
                 "symm_mem (multimem)" if multimem else "symm_mem (two-shot)", source=SYMM_VL)
        else:
            case(f"VL-SYMM-{sm}-{tp}", "vllm", "VLLM_ALLREDUCE_USE_SYMM_MEM", None, m, {"tp": tp, "nnodes": 1}, "fallback", "pynccl",
                 message=SYMM_WORLD % tp, source=SYMM_VL)

# older rule sets: the deprecated SGLang flag (seed server_args.py) and vLLM's older auto (trtllm on one node)
case("SG-DEPR-older", "sglang", "--enable-flashinfer-allreduce-fusion", "true", machine("9.0", torch_cuda="12.8"), {"tp": 8, "nnodes": 1}, "ok", "trtllm",
     message="--enable-flashinfer-allreduce-fusion is deprecated. Please use --flashinfer-allreduce-fusion-backend=auto instead.",
     source=SG + "@0132848349585cfe6aae51c4941cbae872505f8a:python/sglang/srt/server_args.py:_handle_deprecated_args", framework_version={"sglang": "older"})
# newest: the field is Arg(no_cli=True), but add_cli_args registers the flag by hand (server_args.py@001067ff:9836-9840)
case("SG-DEPR-newest", "sglang", "--enable-flashinfer-allreduce-fusion", "true", machine("9.0", torch_cuda="12.8"), {"tp": 8, "nnodes": 1}, "ok", "trtllm",
     message="--enable-flashinfer-allreduce-fusion is deprecated. Please use --flashinfer-allreduce-fusion-backend=auto instead.",
     source=SG + "@001067fffe33427bee0ed2f007fb7551a1d76b44:python/sglang/srt/server_args.py:4446-4461")
for tp in (2, 4, 8):
    case(f"VL-OLDER-AUTO-{tp}", "vllm", "VLLM_FLASHINFER_ALLREDUCE_BACKEND", "auto", machine("9.0"), {"tp": tp, "nnodes": 1}, "ok", "trtllm",
         message="Auto-selected flashinfer allreduce backend: trtllm",
         source=VL + "@00545a8acc220f4c5fa47afad739e3d2baac7310:vllm/distributed/device_communicators/flashinfer_all_reduce.py:103-121",
         framework_version={"vllm": "older"})

# env override: vLLM trtllm across nodes is a start-up ValueError
for nodes in (2, 3, 4):
    case(f"VL-TRT-MULTI-{nodes}", "vllm", "VLLM_FLASHINFER_ALLREDUCE_BACKEND", "trtllm", machine("10.0", nodes=nodes, gpn=4, fabric=True, mnnvl_fabric=True),
         {"tp": 4 * nodes if 4 * nodes in (8, 16) else 8, "nnodes": nodes}, "error", error_class="ValueError",
         message="Flashinfer allreduce is not supported for multi-node allreduce with 'trtllm' backend. Please use 'mnnvl' backend instead.",
         source=VL + "@00545a8acc220f4c5fa47afad739e3d2baac7310:vllm/distributed/device_communicators/flashinfer_all_reduce.py:146")

# vLLM prefill context parallel (parallel.py@00193b82, vllm.py@000fc94b)
case("VL-PCP-DP", "vllm", "--prefill-context-parallel-size", "2", machine("9.0"), {"tp": 4, "nnodes": 1, "data_parallel_size": "2"},
     "error", error_class="ValueError", message="PCP does not support data parallelism yet.", source=PAR_VL + " (pcp > 1 and data_parallel_size > 1)")
case("VL-PCP-V1", "vllm", "--prefill-context-parallel-size", "2", machine("9.0"), {"tp": 4, "nnodes": 1, "env": {"VLLM_USE_V2_MODEL_RUNNER": "0"}},
     "error", error_class="ValueError", message="Model Runner V1 does not support: prefill context parallel",
     source=VL + "@000fc94b754f66aeb60ef5acf1ea2e94cdc65164:vllm/config/vllm.py:_validate_v1_model_runner")
case("VL-PCP-WORLD", "vllm", "--prefill-context-parallel-size", "2", machine("9.0"), {"tp": 8}, "error", error_class="ValueError",
     message="World size (16) is larger than the number of available GPUs (8) in this node.",
     source=VL + "@00193b82b0e2d4faea5d3b4ea4f6c4c2bd9d057a:vllm/config/parallel.py:__post_init__ (nnodes 1, mp executor)")

print(json.dumps(cases, indent=1, ensure_ascii=False))
