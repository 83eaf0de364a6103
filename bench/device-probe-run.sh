#!/bin/sh
# One device call: capture the probe next to nvidia-smi, run the gpu-tagged tests, then time the probe.
# Carry: .device, probe/target/fabricscope.jar, probe/target/test-classes. Writes into $OUT.
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
{ echo "== trace"; FABRICSCOPE_TRACE=1 $FAST -jar $JAR probe --json 2>&1 >/dev/null;
  FABRICSCOPE_TRACE=1 $FAST -jar $JAR probe --json 2>&1 >/dev/null;
  echo "== gpu tests"; bash .device-gputest/run.sh 2>&1 | tail -25; } >> $OUT/misc.txt
$FAST -XX:ArchiveClassesAtExit=/tmp/fs/app.jsa -jar $JAR probe --json > /dev/null 2>&1
{ echo "== plain JVM"; sh bench/probe-bench.sh "$BASE -jar $JAR" 7;
  echo "== C1 + SerialGC + AppCDS"; sh bench/probe-bench.sh "$FAST -XX:SharedArchiveFile=/tmp/fs/app.jsa -jar $JAR" 7 | head -1;
} > $OUT/bench.txt 2>&1
