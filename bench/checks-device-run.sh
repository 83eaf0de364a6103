#!/bin/sh
# One device call (kind nvidia-h200-x2) for issue 12: Fabricscope's checks (each in its own child process), NVIDIA's
# nccl-tests and PyTorch's all-reduce on one machine, one run, with nvidia-smi memory readings around every step, and
# the comparison plot. Setup here (the repository root of /work/main, which is what travels):
#   mkdir -p .device-checks && cp <worktree>/probe/target/fabricscope.jar <worktree>/bench/torch_allreduce.py \
#     <worktree>/bench/plot_allreduce.py <worktree>/bench/checks-device-run.sh ../shared/device/nccl-tests.sh \
#     ../shared/tools/nccl-tests-2.19.6.tar.gz .device-checks/
# Call: sh .device-checks/checks-device-run.sh   with carry [".device", ".device-checks"]  (.device = jlink runtime)
# Everything lands in $OUT/checks.tgz (re-packed after each step, so a time-out still returns what finished).
set -u
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
D=.device-checks
W=/tmp/checks
mkdir -p /tmp/fs $W .device
cp $D/nccl-tests-2.19.6.tar.gz .device/
J=".device/runtime/bin/java -Djna.tmpdir=/tmp/fs -Djava.io.tmpdir=/tmp/fs -jar $D/fabricscope.jar"
S=$W/summary.txt
pack() { tar -C /tmp -czf $OUT/checks.tmp checks && mv $OUT/checks.tmp $OUT/checks.tgz; }
smi() { echo "== $1 $(date -u +%T)" >> $W/smi-memory.txt
        nvidia-smi --query-gpu=index,pci.bus_id,memory.used --format=csv,noheader >> $W/smi-memory.txt; }
step() { # name, outer limit, command...
  n=$1; lim=$2; shift 2
  smi "before $n"
  t0=$(date +%s.%N); timeout $lim "$@" > $W/$n.txt 2> $W/$n.err; rc=$?; t1=$(date +%s.%N)
  smi "after $n"
  echo "$n rc=$rc wall=$(awk "BEGIN{printf \"%.2f\", $t1 - $t0}")s" >> $S
  pack
}
{ date -u; uname -a; nvidia-smi -L; nvidia-smi --query-gpu=driver_version,memory.used --format=csv; nproc;
  env | grep -E '^(NCCL|CUDA|TORCH|NVSHMEM)'; nvidia-smi topo -m; } > $W/env.txt 2>&1
echo "start $(date -u +%FT%TZ)" > $S
step allreduce 300 $J check allreduce --out $W/allreduce.json --progress
step allreduce-threads 120 $J check allreduce --impl all --dtype bf16 -e 1M --thread-per-gpu --out $W/allreduce-threads.json
step allreduce-timeout 40 $J check allreduce --impl nccl --timeout 1 --out $W/allreduce-timeout.json
step p2p 90 $J check p2p --out $W/p2p.json --progress
step preflight 45 $J check preflight --out $W/preflight.json
step torch-allreduce 150 python3 $D/torch_allreduce.py --json $W/torch-allreduce.json
step nccl-tests 150 sh $D/nccl-tests.sh $W
step plot 60 python3 $D/plot_allreduce.py $W $W/allreduce-comparison.png
echo "end $(date -u +%FT%TZ)" >> $S
pack
cat $S
cat $W/smi-memory.txt
grep -E "^#|^ +(8|1024|65536|262144|1048576|67108864|268435456) " $W/allreduce.txt | head -150
