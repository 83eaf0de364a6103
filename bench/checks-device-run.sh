#!/bin/sh
# One device call for `fabricscope check`: every check (text + JSON via --out), a forced time-out, the PyTorch
# all-reduce over the same sizes, SGLang's preflight steps through cuda-bindings, and (test classes under
# .device/checks/test-classes) the one-shot kernel's two-rank self-test on one GPU. Expects the fat jar and these
# scripts under .device/checks/ and the jlink runtime under .device/runtime/. Everything lands in $OUT/checks.tgz
# (re-packed after each step, so a time-out still returns what finished) and $OUT/summary.txt.
set -u
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
mkdir -p /tmp/fs /tmp/checks
W=/tmp/checks
J=".device/runtime/bin/java -Djna.tmpdir=/tmp/fs -Djava.io.tmpdir=/tmp/fs -jar .device/checks/fabricscope.jar"
S=$OUT/summary.txt
pack() { tar -C /tmp -czf $OUT/checks.tmp checks && mv $OUT/checks.tmp $OUT/checks.tgz; }
step() { # name, outer limit, command...
  n=$1; lim=$2; shift 2
  t0=$(date +%s.%N)
  timeout $lim "$@" > $W/$n.txt 2> $W/$n.err; rc=$?
  t1=$(date +%s.%N)
  echo "$n rc=$rc wall=$(awk "BEGIN{printf \"%.2f\", $t1 - $t0}")s" >> $S
  nvidia-smi --query-gpu=index,memory.used --format=csv,noheader >> $W/smi-memory.txt
  pack
}
{ date -u; uname -a; nvidia-smi -L; nvidia-smi --query-gpu=driver_version,memory.used --format=csv; nproc;
  env | grep -E '^(NCCL|CUDA|TORCH|NVSHMEM)'; ls /dev/nvidia-caps-imex-channels 2>&1; nvidia-smi topo -m;
  nvidia-smi nvlink -s 2>&1 | head -40; } > $W/env.txt 2>&1
NG=$(nvidia-smi -L | wc -l)
echo "start $(date -u +%FT%TZ)" > $S
step preflight 45 $J check preflight --out $W/preflight.json --progress
step preflight-ws8 45 $J check preflight --world-size 8 --hidden 7168 --out $W/preflight-ws8.json
step p2p 90 $J check p2p --out $W/p2p.json --progress
step allreduce 150 $J check allreduce --out $W/allreduce.json --progress
step allreduce-timeout 30 $J check allreduce --impl nccl --timeout 1 --out $W/allreduce-timeout.json --progress
step torch-allreduce 150 python3 .device/checks/torch_allreduce.py --json $W/torch-allreduce.json
step oneshot-2ranks-1gpu 150 .device/runtime/bin/java -Djna.tmpdir=/tmp/fs -Djava.io.tmpdir=/tmp/fs \
  -cp .device/checks/fabricscope.jar:.device/checks/test-classes dev.fabricscope.check.OneShotTwoRanksOnOneGpu
step sglang-reference 60 python3 .device/checks/sglang_preflight_reference.py $NG
echo "end $(date -u +%FT%TZ)" >> $S
cat $S
