#!/bin/sh
# One device call: capture the probe next to nvidia-smi, then time it. Writes into $OUT.
set -u
mkdir -p /tmp/fs
RT=.device/runtime/bin/java
BASE="$RT -Djna.tmpdir=/tmp/fs -Djava.io.tmpdir=/tmp/fs"
FAST="$BASE -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xshare:auto"
JAR=probe/target/fabricscope.jar
$BASE -jar $JAR probe --json > $OUT/probe.json 2> $OUT/misc.txt
$BASE -jar $JAR probe > $OUT/probe.txt 2>> $OUT/misc.txt; echo "probe rc=$?" >> $OUT/misc.txt
nvidia-smi -q > $OUT/smi-q.txt; nvidia-smi -q -x > $OUT/smi-q.xml
nvidia-smi topo -m > $OUT/topo-m.txt; nvidia-smi topo -p2p rwnap > $OUT/topo-p2p.txt
{ echo "== nvidia-smi nvlink -s"; nvidia-smi nvlink -s 2>&1; echo "== nvidia-smi -L"; nvidia-smi -L;
  echo "== env"; env | grep -E '^(NCCL|CUDA|TORCH|NVSHMEM)' ; echo "== uname"; uname -a; nproc;
  echo "== ls imex"; ls -la /dev/nvidia-caps-imex-channels 2>&1; ls /dev/nvidia* 2>&1 | head; } >> $OUT/misc.txt
$FAST -XX:ArchiveClassesAtExit=/tmp/fs/app.jsa -jar $JAR probe --json > /dev/null 2>&1
{ echo "== plain JVM"; sh bench/probe-bench.sh "$BASE -jar $JAR" 7;
  echo "== C1 + SerialGC"; sh bench/probe-bench.sh "$FAST -jar $JAR" 7 | head -1;
  echo "== C1 + SerialGC + AppCDS"; sh bench/probe-bench.sh "$FAST -XX:SharedArchiveFile=/tmp/fs/app.jsa -jar $JAR" 7 | head -1;
} > $OUT/bench.txt 2>&1
