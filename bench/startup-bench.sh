#!/bin/sh
# Issue 31: cold start-up of the CLI beside its peers, interleaved in one run on the GPU machine (no Java there:
# a jlink'd runtime travels). Setup here, from the repository root of the checkout that travels:
#   ../shared/device/make-runtime.sh .device && cp <worktree>/probe/target/fabricscope.jar .device/
#   cp <worktree>/bench/startup-bench.sh <worktree>/bench/probe_floor.py .device/
#   javac -d .device/bench-classes -cp .device/fabricscope.jar <worktree>/bench/CallGuardCost.java
#   cp <worktree>/bench/startup-cds.sh .device/
# Call: sh .device/startup-bench.sh [RUNS]   with carry [".device"]. Everything lands in $OUT/startup.txt
# (and a recorded trace, whose per-call times say where the NVML phase goes), then startup-cds.sh's table
# (archive and flags) in $OUT/startup-cds.txt: the two tables of docs/benchmarks.md, issue 31.
set -u
RUNS="${1:-11}"
D=.device
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
mkdir -p /tmp/fs
JAVA="$D/runtime/bin/java -Djna.tmpdir=/tmp/fs -Djava.io.tmpdir=/tmp/fs"
J="$JAVA -jar $D/fabricscope.jar"
R=${OUT:-/tmp}/startup.txt
ms() { s=$(date +%s%N); "$@" >/dev/null 2>&1; e=$(date +%s%N); echo $(( (e - s) / 1000000 )); }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
W=/tmp/startup.$$; mkdir -p $W
{
  echo "== $(date -u +%FT%TZ) $(hostname) runs=$RUNS"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  $J --version
  # one warm-up of each (page cache), not counted
  $J probe --json >/dev/null 2>&1; python3 $D/probe_floor.py >/dev/null 2>&1; nvidia-smi -q >/dev/null 2>&1
  for i in $(seq "$RUNS"); do   # interleaved, so drift hits every column alike
    ms $J probe --json >> $W/probe; ms python3 $D/probe_floor.py >> $W/floor; ms nvidia-smi -q >> $W/smi
    ms $J --version >> $W/version; ms $J show --sample h200-vm >> $W/show
  done
  for n in probe floor smi version show; do
    echo "$n: median $(median < $W/$n) ms (min $(sort -n $W/$n | head -1), max $(sort -n $W/$n | tail -1)); runs $(tr '\n' ' ' < $W/$n)"
  done
  echo "== phases (FABRICSCOPE_TRACE=1 probe --json), 3 runs"
  for i in 1 2 3; do FABRICSCOPE_TRACE=1 $J probe --json 2>&1 >/dev/null | grep trace; echo --; done
  echo "== CallGuard hand-off (bench/CallGuardCost.java), 3 fresh JVMs"
  for i in 1 2 3; do $JAVA -cp $D/fabricscope.jar:$D/bench-classes CallGuardCost 350; done
  echo "== one recorded probe"
  FABRICSCOPE_TRACE=1 $J probe --json --record=$W/trace.json 2>&1 >/dev/null | grep trace
} > $R 2>&1
gzip -c $W/trace.json > ${OUT:-/tmp}/probe-trace.json.gz 2>/dev/null
rm -rf $W
sh $D/startup-cds.sh "$RUNS"
