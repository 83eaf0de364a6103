#!/bin/sh
# Issue 31: `show` cold, before and after snapshots are read without Jackson (json.JsonTree + json.RecordReader),
# interleaved in one call on the GPU machine. Setup, from the repository root (see bench/startup-bench.sh for the image):
#   sh installers/linux/cli-image.sh jpackage /tmp/inst 0.1.0; T=.device; mkdir -p $T && cp -a /tmp/inst/image/fabricscope-cli $T/image
#   rm -f $T/image/lib/runtime/lib/server/classes*.jsa; strip --strip-unneeded $T/image/lib/runtime/lib/server/libjvm.so
#   (cd /tmp && unzip -q BEFORE.jar 'dev/*' -d bj && cd bj && zip -qr $OLDPWD/$T/before-own.jar dev)   # the build before, our classes only
#   cp bench/show-bench.sh $T/
# Call: sh .device/show-bench.sh [RUNS] with carry [".device"]. Writes $OUT/show.txt.
set -u
RUNS="${1:-11}"
D=.device
IMG=$D/image
RT=$IMG/lib/runtime/bin/java
JAVA="$RT -Djava.io.tmpdir=/tmp"
CLI=$IMG/bin/fabricscope-cli
JAR=$IMG/lib/app/fabricscope.jar
BEFORE=$D/before-own.jar:$JAR
FLAGS="-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xshare:auto -XX:MaxRAMPercentage=75"
REPORT=probe/src/test/resources/captured/h200-nvswitch-2gpu-2026-12-01/report.json
R=${OUT:-/tmp}/show.txt
ms() { s=$(date +%s%N); "$@" >/dev/null 2>&1; e=$(date +%s%N); echo $(( (e - s) / 1000000 )); }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
stats() { echo "$1: median $(median < $W/$1) ms (min $(sort -n $W/$1 | head -1), max $(sort -n $W/$1 | tail -1)); runs $(tr '\n' ' ' < $W/$1)"; }
W=/tmp/show.$$; mkdir -p $W
{
  echo "== $(date -u +%FT%TZ) $(hostname) runs=$RUNS"; nproc; grep MemTotal /proc/meminfo
  $RT -Xshare:dump >/dev/null 2>&1; $RT -XX:-UseCompressedOops -Xshare:dump >/dev/null 2>&1
  sh $IMG/lib/cds-archive.sh $IMG fabricscope-cli
  $CLI --version
  echo "== same output before and after (md5)"
  for c in "show --sample h200-vm" "show --snapshot $REPORT" "show --snapshot $REPORT --json"; do
    a=$($JAVA -cp $BEFORE dev.fabricscope.cli.Main $c 2>&1 | md5sum | cut -c1-12); b=$($CLI $c 2>&1 | md5sum | cut -c1-12)
    echo "$c: before $a, after $b"
  done
  for i in $(seq "$RUNS"); do
    ms $JAVA -cp $BEFORE dev.fabricscope.cli.Main show --sample h200-vm >> $W/before_jar_sample
    ms $JAVA -jar $JAR show --sample h200-vm >> $W/after_jar_sample
    ms $JAVA $FLAGS -cp $BEFORE dev.fabricscope.cli.Main show --sample h200-vm >> $W/before_cliflags_sample
    ms $JAVA $FLAGS -cp $JAR dev.fabricscope.cli.Main show --sample h200-vm >> $W/after_cliflags_sample
    ms $CLI show --sample h200-vm >> $W/after_installed_sample
    ms $CLI show --sample dgx-h100 >> $W/after_installed_synthetic_sample
    ms $JAVA $FLAGS -cp $BEFORE dev.fabricscope.cli.Main show --snapshot $REPORT >> $W/before_cliflags_report
    ms $CLI show --snapshot $REPORT >> $W/after_installed_report
    ms $CLI --version >> $W/installed_version
    ms $RT -Xshare:auto -version >> $W/java_version
  done
  for n in before_jar_sample after_jar_sample before_cliflags_sample after_cliflags_sample after_installed_sample \
      after_installed_synthetic_sample before_cliflags_report after_installed_report installed_version java_version; do
    stats $n
  done
} > $R 2>&1
rm -rf $W
