#!/usr/bin/env python3
"""Latency and busbw vs message size (log axes) for one device run: Fabricscope's NCCL, one-shot and two-shot rows
(plain and CUDA-graph) from allreduce.json, nccl-tests (nccl-tests-bf16.txt, nccl-tests-bf16-graph.txt) and PyTorch
(torch-allreduce.json), bf16, out of place. Usage: plot_allreduce.py RUN_DIR OUT.png"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def nccl_tests(path):
    pts = []
    if not os.path.exists(path):
        return pts
    for line in open(path):
        f = line.split()
        if len(f) > 8 and f[0].isdigit() and f[2] == "bfloat16":
            pts.append((int(f[0]), float(f[5]), float(f[7])))  # size, time us, busbw
    return pts


def main(run, out):
    series = {}
    ar = json.load(open(os.path.join(run, "allreduce.json")))
    for r in ar.get("rows", []):
        if r["dtype"] == "bf16":
            series.setdefault("Fabricscope %s, %s" % (r["impl"], r.get("mode", "plain")), []).append(
                (r["bytes"], r["timeUs"], r["busbw"]))
    series["nccl-tests"] = nccl_tests(os.path.join(run, "nccl-tests-bf16.txt"))
    series["nccl-tests -G 1"] = nccl_tests(os.path.join(run, "nccl-tests-bf16-graph.txt"))
    tp = os.path.join(run, "torch-allreduce.json")
    if os.path.exists(tp):
        t = json.load(open(tp))
        series["PyTorch"] = [(r["bytes"], r["timeUs"], r["busbw"]) for r in t.get("rows", []) if r.get("dtype") == "bf16"]
    fig, (a, b) = plt.subplots(1, 2, figsize=(14, 5.5))
    for name, pts in series.items():
        if not pts:
            continue
        pts.sort()
        a.plot([p[0] for p in pts], [p[1] for p in pts], marker=".", label=name)
        bw = [p for p in pts if p[2] > 0]
        b.plot([p[0] for p in bw], [p[2] for p in bw], marker=".", label=name)
    have_bw = any(p[2] > 0 for pts in series.values() for p in pts)
    if not have_bw:
        b.text(0.5, 0.5, "busbw is 0 at world size 1 (nccl-tests formula)", ha="center", transform=b.transAxes)
    for ax, y in ((a, "time per all-reduce (us)"), (b, "busbw (GB/s)")):
        ax.set_xscale("log", base=2)
        if ax is a or have_bw:
            ax.set_yscale("log")
        ax.set_xlabel("message size (bytes)")
        ax.set_ylabel(y)
        ax.grid(True, which="both", alpha=0.3)
    a.legend(fontsize=8)
    n = ar.get("params", {}).get("localGpus") or ar.get("worldSize") or "?"
    fig.suptitle("All-reduce, bf16, %s GPU(s) of %s, NVLS off, one run" % (n, os.environ.get("FABRICSCOPE_MACHINE", "this machine")))
    fig.tight_layout()
    fig.savefig(out, dpi=110)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
