#!/bin/sh
# Issue 31, second step of bench/startup-bench.sh (same setup, same call): what a class-data archive and the launcher
# flags give on the GPU machine, interleaved with the Python floor and nvidia-smi. Writes $OUT/startup-cds.txt.
set -u
RUNS="${1:-11}"
D=.device
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
mkdir -p /tmp/fs
JAVA="$D/runtime/bin/java -Djna.tmpdir=/tmp/fs -Djava.io.tmpdir=/tmp/fs"
FLAGS="-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"
R=${OUT:-/tmp}/startup-cds.txt
ms() { s=$(date +%s%N); "$@" >/dev/null 2>&1; e=$(date +%s%N); echo $(( (e - s) / 1000000 )); }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
W=/tmp/startup-cds.$$; mkdir -p $W
{
  echo "== $(date -u +%FT%TZ) runs=$RUNS"
  $D/runtime/bin/java -Xshare:dump > $W/dump.log 2>&1; echo "base CDS archive: rc $? $(ls -la $D/runtime/lib/server/classes.jsa 2>&1)"
  # one archive trained on one probe, a --version and a show (dynamic AppCDS, Java 17)
  $JAVA -XX:ArchiveClassesAtExit=$W/app.jsa -jar $D/fabricscope.jar probe --json > /dev/null 2>$W/train.log
  echo "app archive: $(ls -la $W/app.jsa 2>&1)"; tail -3 $W/train.log
  A="-XX:SharedArchiveFile=$W/app.jsa"
  $JAVA $A -jar $D/fabricscope.jar probe --json > /dev/null 2>&1
  for i in $(seq "$RUNS"); do
    ms $JAVA -jar $D/fabricscope.jar probe --json >> $W/plain
    ms $JAVA $FLAGS -jar $D/fabricscope.jar probe --json >> $W/flags
    ms $JAVA $A -jar $D/fabricscope.jar probe --json >> $W/cds
    ms $JAVA $A $FLAGS -jar $D/fabricscope.jar probe --json >> $W/cdsflags
    ms $JAVA $A $FLAGS -Dfabricscope.pythonStack=off -jar $D/fabricscope.jar probe --json >> $W/cdsflags_nostack
    ms python3 $D/probe_floor.py >> $W/floor; ms nvidia-smi -q >> $W/smi
    ms $JAVA $A $FLAGS -jar $D/fabricscope.jar --version >> $W/version_cds
    ms $JAVA $A $FLAGS -jar $D/fabricscope.jar show --sample h200-vm >> $W/show_cds
  done
  for n in plain flags cds cdsflags cdsflags_nostack floor smi version_cds show_cds; do
    echo "$n: median $(median < $W/$n) ms (min $(sort -n $W/$n | head -1), max $(sort -n $W/$n | tail -1)); runs $(tr '\n' ' ' < $W/$n)"
  done
  echo "== phases, archive + flags"
  for i in 1 2; do FABRICSCOPE_TRACE=1 $JAVA $A $FLAGS -jar $D/fabricscope.jar probe --json 2>&1 >/dev/null | grep trace; echo --; done
  echo "== python floor phases"
  python3 -X importtime -c "import pynvml; from cuda.bindings import driver" 2>&1 | sort -t'|' -k2 -n | tail -3
  python3 -c "
import time; t=time.time(); import pynvml; a=time.time(); pynvml.nvmlInit(); b=time.time()
from cuda.bindings import driver as cu; c=time.time(); cu.cuInit(0); d=time.time()
print('import pynvml %.0f ms, nvmlInit %.0f ms, import cuda %.0f ms, cuInit %.0f ms' % ((a-t)*1e3,(b-a)*1e3,(c-b)*1e3,(d-c)*1e3))"
} > $R 2>&1
rm -rf $W
