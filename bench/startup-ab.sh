#!/bin/sh
# Issue 31: two builds of the CLI (before / after a change) interleaved with the Python floor and nvidia-smi, on the
# GPU machine. Setup: .device/runtime (make-runtime.sh), .device/fabricscope-old.jar, .device/fabricscope-new.jar,
# .device/probe_floor.py. Call: sh .device/startup-ab.sh [RUNS] with carry [".device"]; writes $OUT/startup-ab.txt.
set -u
RUNS="${1:-11}"; D=.device
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
mkdir -p /tmp/fs
JAVA="$D/runtime/bin/java -Djna.tmpdir=/tmp/fs -Djava.io.tmpdir=/tmp/fs"
ms() { s=$(date +%s%N); "$@" >/dev/null 2>&1; e=$(date +%s%N); echo $(( (e - s) / 1000000 )); }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
W=/tmp/startup-ab.$$; mkdir -p $W
{
  echo "== $(date -u +%FT%TZ) runs=$RUNS"
  for j in old new; do $JAVA -jar $D/fabricscope-$j.jar probe --json > $W/$j.json 2>&1; done
  python3 $D/probe_floor.py >/dev/null 2>&1
  for i in $(seq "$RUNS"); do
    ms $JAVA -jar $D/fabricscope-old.jar probe --json >> $W/old; ms $JAVA -jar $D/fabricscope-new.jar probe --json >> $W/new
    ms python3 $D/probe_floor.py >> $W/floor; ms nvidia-smi -q >> $W/smi
  done
  for n in old new floor smi; do
    echo "$n: median $(median < $W/$n) ms (min $(sort -n $W/$n | head -1), max $(sort -n $W/$n | tail -1)); runs $(tr '\n' ' ' < $W/$n)"
  done
  echo "== same readings? (probe JSON without times)"
  for j in old new; do grep -v '"\(recordedAt\|durationMs\|probedAt\|us\)"' $W/$j.json | md5sum; done
  for j in old new; do echo "== phases $j"; for i in 1 2 3; do FABRICSCOPE_TRACE=1 $JAVA -jar $D/fabricscope-$j.jar probe --json 2>&1 >/dev/null | grep trace | tr '\n' ' '; echo; done; done
} > ${OUT:-/tmp}/startup-ab.txt 2>&1
cp $W/old.json $W/new.json ${OUT:-/tmp}/ 2>/dev/null
rm -rf $W
