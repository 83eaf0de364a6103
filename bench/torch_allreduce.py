#!/usr/bin/env python3
"""PyTorch (torch.distributed, NCCL backend) all-reduce over the sizes of `fabricscope check allreduce`.

One process per visible GPU (a single process, world size 1, on one GPU). Same input pattern and exact-sum check
as Fabricscope: rank r, element k holds ((13k + 7r) mod 31) - 15. Timing as nccl-tests: warm-up, then the host
clock around `iters` back-to-back all-reduces and a synchronize, per operation; the slowest rank's time is
reported. algbw = bytes / time (GB = 1e9); busbw = algbw * 2(n-1)/n. torch's all_reduce is in place: the timed
loop runs on a scratch copy, the correctness check on a fresh copy of the input.

Usage: python3 bench/torch_allreduce.py [--min-bytes 8] [--max-bytes 268435456] [--dtype bf16,fp32]
                                        [--warmup 5] [--iters 20] [--json FILE]
"""
import argparse
import json
import os
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

DTYPES = {"bf16": (torch.bfloat16, "bfloat16"), "fp16": (torch.float16, "half"), "fp32": (torch.float32, "float")}


def sizes(lo, hi):
    s = lo
    while s <= hi:
        yield s
        s *= 2


def nccl_library():
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                if "libnccl" in line:
                    return line.split()[-1]
    except OSError:
        pass
    return None


def worker(rank, world, args, result_path):
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", str(args.port))
    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", rank=rank, world_size=world, device_id=torch.device("cuda", rank))
    rows = []
    for name in args.dtype.split(","):
        dtype, nccl_tests_name = DTYPES[name]
        elem = torch.tensor([], dtype=dtype).element_size()
        max_count = args.max_bytes // elem
        k = torch.arange(max_count, device="cuda", dtype=torch.int64)
        src = (((k * 13 + rank * 7) % 31) - 15).to(dtype)
        expected = sum(((k * 13 + r * 7) % 31) - 15 for r in range(world)).to(dtype)
        del k
        scratch = torch.empty_like(src)
        check = torch.empty_like(src)
        for size in sizes(args.min_bytes, args.max_bytes):
            count = size // elem
            if count == 0:
                continue
            t = scratch[:count]
            t.copy_(src[:count])
            for _ in range(args.warmup):
                dist.all_reduce(t)
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            for _ in range(args.iters):
                dist.all_reduce(t)
            torch.cuda.synchronize()
            seconds = (time.perf_counter() - t0) / args.iters
            c = check[:count]
            c.copy_(src[:count])
            dist.all_reduce(c)
            torch.cuda.synchronize()
            wrong = torch.tensor([(c != expected[:count]).sum().item()], device="cuda", dtype=torch.int64)
            slowest = torch.tensor([seconds], device="cuda", dtype=torch.float64)
            dist.all_reduce(wrong)
            dist.all_reduce(slowest, op=dist.ReduceOp.MAX)
            sec = slowest.item()
            algbw = size / sec / 1e9
            busbw = algbw * 2 * (world - 1) / world
            rows.append(dict(impl="torch", dtype=name, type=nccl_tests_name, bytes=size, count=count,
                             timeUs=round(sec * 1e6, 2), algbw=round(algbw, 2), busbw=round(busbw, 2),
                             wrong=int(wrong.item())))
        del src, expected, scratch, check
        torch.cuda.empty_cache()
    if rank == 0:
        meta = dict(world_size=world, torch=torch.__version__, torch_cuda=torch.version.cuda,
                    nccl=".".join(map(str, torch.cuda.nccl.version())), nccl_library=nccl_library(),
                    device=torch.cuda.get_device_name(0), warmup=args.warmup, iters=args.iters,
                    env={k: v for k, v in os.environ.items() if k.startswith(("NCCL_", "TORCH_SYMM", "NVSHMEM"))})
        with open(result_path, "w") as f:
            json.dump(dict(meta=meta, rows=rows), f, indent=2)
    dist.destroy_process_group()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--min-bytes", type=int, default=8)
    p.add_argument("--max-bytes", type=int, default=256 << 20)
    p.add_argument("--dtype", default="bf16,fp32")
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--iters", type=int, default=20)
    p.add_argument("--port", type=int, default=29533)
    p.add_argument("--json", default="torch-allreduce.json")
    args = p.parse_args()
    world = torch.cuda.device_count()
    if world == 1:
        worker(0, 1, args, args.json)
    else:
        mp.spawn(worker, args=(world, args, args.json), nprocs=world, join=True)
    with open(args.json) as f:
        data = json.load(f)
    m = data["meta"]
    print(f"# torch {m['torch']} (CUDA {m['torch_cuda']}), NCCL {m['nccl']} from {m['nccl_library']}, "
          f"world size {m['world_size']}, warm-up {m['warmup']}, iters {m['iters']}")
    print("#%11s  %12s  %8s  %6s  %9s  %7s  %7s  %6s" % ("size", "count", "type", "redop", "time", "algbw", "busbw", "#wrong"))
    print("#%11s  %12s  %8s  %6s  %9s  %7s  %7s  %6s" % ("(B)", "(elements)", "", "", "(us)", "(GB/s)", "(GB/s)", ""))
    for r in data["rows"]:
        print("  %10d  %12d  %8s  %6s  %9.2f  %7.2f  %7.2f  %6d" % (r["bytes"], r["count"], r["type"], "sum",
                                                                   r["timeUs"], r["algbw"], r["busbw"], r["wrong"]))


if __name__ == "__main__":
    main()
