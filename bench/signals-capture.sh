#!/bin/sh
# Issue 24's device capture: one call records a trace with the NVLink signals and takes nvidia-smi's and a C
# reference reader's view of the same GPU in the same call. Run as .device/signals-capture.sh with the runtime, fabricscope.jar and nvml-signals.c beside it in .device
# (carried); everything lands in $OUT/signals.tar.gz (the call returns at most 8 files).
set -u
D=/tmp/fs-signals
mkdir -p "$D" /tmp/fs
B=$(dirname "$0")
J="$B/runtime/bin/java -Djna.tmpdir=/tmp/fs -Djava.io.tmpdir=/tmp/fs -jar $B/fabricscope.jar"
run() { name=$1; shift; "$@" > "$D/$name.txt" 2> "$D/$name.stderr.txt"; echo $? > "$D/$name.rc"; }
date -u +%Y-%m-%dT%H:%M:%SZ > "$D/date.txt"
env | grep -E '^(NCCL_|CUDA_|TORCH_|NVSHMEM_)' | sort > "$D/env.txt"
run probe-record $J probe --record "$D/trace.json"
run probe-json $J probe --json
run probe $J probe
run probe-replay $J probe --replay "$D/trace.json"
run probe-replay-json $J probe --replay "$D/trace.json" --json
run smi-q nvidia-smi -q
run smi-q-xml nvidia-smi -q -x
run smi-fabric nvidia-smi -q -d FABRIC
run nvlink-s nvidia-smi nvlink -s
run nvlink-e nvidia-smi nvlink -e
run nvlink-info nvidia-smi nvlink -info
run nvlink-bwmode nvidia-smi nvlink -gBwMode
run fm-version sh -c 'command -v nv-fabricmanager && nv-fabricmanager --version; ls -l /usr/bin/nv-fabricmanager /usr/share/nvidia/nvswitch 2>&1'
run nvml-signals-build gcc -O1 -o /tmp/nvml-signals "$B/nvml-signals.c" -ldl
run nvml-signals /tmp/nvml-signals
tar -czf "$OUT/signals.tar.gz" -C "$D" .
ls -la "$D" > "$OUT/listing.txt"
