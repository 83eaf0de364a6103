#!/bin/sh
# Captures a machine for the replay tests: a recorded native-call trace, the probe's outputs, the nvidia-smi outputs
# of the same call, and the whole CLI (advise, check, report) on the live machine. Runs on the GPU machine:
#   sh bench/device-capture.sh OUTDIR          (with .device/runtime and probe/target/fabricscope.jar carried)
# Safety: no check here creates a multicast object; NCCL_NVLS_ENABLE=0 etc. stay as the machine sets them.
set -u
out="${1:?usage: device-capture.sh OUTDIR}"
mkdir -p "$out" /tmp/fs
J=".device/runtime/bin/java -Djna.tmpdir=/tmp/fs -Djava.io.tmpdir=/tmp/fs -jar probe/target/fabricscope.jar"
run() { name="$1"; shift; "$@" >"$out/$name.txt" 2>"$out/$name.stderr.txt"; echo "$?" >"$out/$name.rc"; }
date -u +%Y-%m-%dT%H:%M:%SZ >"$out/date.txt"
nvidia-smi --query-gpu=index,memory.used --format=csv >"$out/smi-memory-before.txt" 2>&1
run probe-record $J probe --record "$out/trace.json" --out "$out/probe.json"
run probe-replay $J probe --replay "$out/trace.json"
run probe-replay-json $J probe --replay "$out/trace.json" --json
nvidia-smi -q >"$out/smi-q.txt" 2>&1
nvidia-smi -q -x >"$out/smi-q.xml" 2>&1
nvidia-smi topo -m >"$out/topo-m.txt" 2>&1
nvidia-smi topo -p2p rwnap >"$out/topo-p2p.txt" 2>&1
nvidia-smi nvlink -s >"$out/nvlink-s.txt" 2>&1
nvidia-smi nvlink -R >"$out/nvlink-R.txt" 2>&1
nvidia-smi -q -d FABRIC >"$out/smi-fabric.txt" 2>&1
nvidia-smi nvlink -e >"$out/nvlink-e.txt" 2>&1
nvidia-smi -q -d ECC,PAGE_RETIREMENT,ROW_REMAPPER,PERFORMANCE,POWER >"$out/smi-health.txt" 2>&1
run advise $J advise --tp "$(nvidia-smi -L | wc -l)" --flag flashinfer-allreduce-fusion-backend=trtllm
run advise-json $J advise --tp "$(nvidia-smi -L | wc -l)" --flag flashinfer-allreduce-fusion-backend=trtllm --json
run preflight $J check preflight --world-size "$(nvidia-smi -L | wc -l)" --json
run p2p $J check p2p --json
run allreduce $J check allreduce --impl all --max-bytes 1048576 --json
run report $J report --with-checks --format json --out "$out/report.json"
run check-node $J check node --json --out "$out/node-report.json"
nvidia-smi --query-gpu=index,memory.used --format=csv >"$out/smi-memory-after.txt" 2>&1
env | grep -E '^(NCCL|TORCH_SYMM|NVSHMEM|CUDA)_' >"$out/env.txt"
