#!/bin/sh
# Issue 31: cold start-up of the CLI beside its peers, interleaved in one call on the GPU machine (no Java there: the
# command-line application image travels, with its own jlink'd Java 17 runtime). Each column is a fresh process,
# RUNS times, interleaved so drift hits every column alike, after one unmeasured run of each (page cache).
#
# Setup, from the repository root of the worktree (the device ships another checkout: everything goes in .device):
#   mvn -q -B -ntp -pl probe package -DskipTests
#   sh installers/linux/cli-image.sh jpackage /tmp/inst 0.1.0        # the image exactly as the build makes it
#   T=<the checkout that travels>/.device; mkdir -p $T && cp -a /tmp/inst/image/fabricscope-cli $T/image
#   rm -f $T/image/lib/server/classes*.jsa $T/image/lib/app/*.jsa*  # remade there (below), as jlink and postinst do
#   cp <a jar of the build before> $T/before.jar                     # optional: the "before" columns
#   cp bench/startup-bench.sh bench/probe_floor.py $T/ && javac -d $T/bench-classes -cp probe/target/fabricscope.jar bench/CallGuardCost.java
# Call: sh .device/startup-bench.sh [RUNS]   with carry [".device"] (bench/device-run-31.sh runs it and the checks). Writes $OUT/startup.txt (the table's figures,
# the phase marks, CallGuard's cost, the device's own setup) and $OUT/probe-trace.json.gz (a recorded probe: per-call
# times). The installed CLI's archive is made on the machine by the image's lib/cds-archive.sh, as the packages'
# postinst does for /opt/fabricscope-cli.
set -u
RUNS="${1:-11}"
D=.device
IMG=$D/image
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
mkdir -p /tmp/fs
RT=$IMG/lib/runtime/bin/java
JAVA="$RT -Djna.tmpdir=/tmp/fs -Djava.io.tmpdir=/tmp/fs"
CLI=$IMG/bin/fabricscope-cli
JAR=$IMG/lib/app/fabricscope.jar
# the old launcher's java options (lib/app/fabricscope-cli.cfg) with the jar of before: the installed CLI before
OLDFLAGS="-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xshare:auto -XX:MaxRAMPercentage=75"
R=${OUT:-/tmp}/startup.txt
ms() { s=$(date +%s%N); "$@" >/dev/null 2>&1; e=$(date +%s%N); echo $(( (e - s) / 1000000 )); }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
stats() { echo "$1: median $(median < $W/$1) ms (min $(sort -n $W/$1 | head -1), max $(sort -n $W/$1 | tail -1)); runs $(tr '\n' ' ' < $W/$1)"; }
W=/tmp/startup.$$; mkdir -p $W/jnaboot
{
  echo "== $(date -u +%FT%TZ) $(hostname) runs=$RUNS"; nvidia-smi --query-gpu=name,driver_version,persistence_mode --format=csv,noheader
  grep MemTotal /proc/meminfo; nproc
  # what jlink --generate-cds-archive and the postinst make on the machine
  $RT -Xshare:dump >/dev/null 2>&1; $RT -XX:-UseCompressedOops -Xshare:dump >/dev/null 2>&1
  ls -la $IMG/lib/runtime/lib/server/ | grep jsa
  sh $IMG/lib/cds-archive.sh $IMG fabricscope-cli
  for f in "" "$OLDFLAGS"; do $RT $f -XX:+PrintFlagsFinal -version 2>/dev/null | grep -E ' UseCompressedOops | MaxHeapSize '; done
  $CLI --version
  B=; [ -f $D/before.jar ] && B=$D/before.jar
  # JNA's native part extracted once beforehand (what a per-version cache would give): the jar_jna_extracted column
  python3 -c "import zipfile; open('$W/jnaboot/libjnidispatch.so','wb').write(zipfile.ZipFile('$JAR').read('com/sun/jna/linux-x86-64/libjnidispatch.so'))"
  # one of each, not counted; their outputs are compared below
  $JAVA -jar $JAR probe --json > $W/new.json 2>$W/new.err; echo "java -jar probe: rc $?"
  $CLI probe --json > $W/cli.json 2>$W/cli.err; echo "installed probe: rc $? $(head -c 300 $W/cli.err)"
  [ -n "$B" ] && { $JAVA -jar $B probe --json > $W/before.json 2>&1; echo "before probe: rc $?"; }
  python3 $D/probe_floor.py >/dev/null 2>&1; nvidia-smi -q >/dev/null 2>&1
  for i in $(seq "$RUNS"); do
    [ -n "$B" ] && ms $JAVA -jar $B probe --json >> $W/before_jar
    ms $JAVA -jar $JAR probe --json >> $W/jar
    ms $JAVA -Dfabricscope.nvmlBeforeCuInit=true -jar $JAR probe --json >> $W/jar_nvml_whole_first
    ms $JAVA -Dfabricscope.warmUp=off -jar $JAR probe --json >> $W/jar_no_warm_up
    ms $JAVA -Djna.boot.library.path=$W/jnaboot -Djna.nosys=true -jar $JAR probe --json >> $W/jar_jna_extracted
    [ -n "$B" ] && ms $JAVA $OLDFLAGS -cp $B dev.fabricscope.cli.Main probe --json >> $W/before_cli
    ms $CLI probe --json >> $W/cli
    ms python3 $D/probe_floor.py >> $W/floor
    ms nvidia-smi -q >> $W/smi
    [ -n "$B" ] && ms $JAVA -jar $B --version >> $W/before_version_jar
    ms $JAVA -jar $JAR --version >> $W/version_jar
    ms $CLI --version >> $W/version_cli
    [ -n "$B" ] && ms $JAVA $OLDFLAGS -cp $B dev.fabricscope.cli.Main show --sample h200-vm >> $W/before_show_cli
    ms $CLI show --sample h200-vm >> $W/show_cli
  done
  for n in before_jar jar jar_nvml_whole_first jar_no_warm_up jar_jna_extracted before_cli cli floor smi before_version_jar \
      version_jar version_cli before_show_cli show_cli; do
    [ -s $W/$n ] && stats $n
  done
  echo "== same readings? (probe JSON without its 'probe' section: times, version, command line)"
  for j in before new cli; do
    [ -s $W/$j.json ] && python3 -c "import json,sys,hashlib; d=json.load(open('$W/$j.json')); d.pop('probe',None); print('$j', hashlib.md5(json.dumps(d,sort_keys=True).encode()).hexdigest())"
  done
  echo "== phases, java -jar (FABRICSCOPE_TRACE=1, origin: the shell's clock just before the start), 3 runs"
  for i in 1 2 3; do
    t0=$(date +%s%3N); FABRICSCOPE_TRACE=1 FABRICSCOPE_TRACE_T0=$t0 $JAVA -jar $JAR probe --json 2>$W/tr >/dev/null
    grep trace $W/tr; echo "process ended: $(( $(date +%s%3N) - t0 )) ms"; echo --
  done
  echo "== phases, java -jar, -Dfabricscope.nvmlBeforeCuInit=true, 1 run"
  FABRICSCOPE_TRACE=1 FABRICSCOPE_TRACE_T0=$(date +%s%3N) $JAVA -Dfabricscope.nvmlBeforeCuInit=true -jar $JAR probe --json 2>&1 >/dev/null | grep trace
  echo "== phases, installed CLI, 3 runs"
  for i in 1 2 3; do
    t0=$(date +%s%3N); FABRICSCOPE_TRACE=1 FABRICSCOPE_TRACE_T0=$t0 $CLI probe --json 2>$W/tr >/dev/null
    grep trace $W/tr; echo "process ended: $(( $(date +%s%3N) - t0 )) ms"; echo --
  done
  echo "== the floor's exit: python3 probe_floor.py, 3 runs (time to its last line, time to its end)"
  for i in 1 2 3; do
    t0=$(date +%s%N); python3 -c "exec(open('$D/probe_floor.py').read()); import time; print(int(time.time()*1000))" > $W/pf
    e=$(date +%s%N); echo "last line $(( $(cat $W/pf) - t0 / 1000000 )) ms, ended $(( (e - t0) / 1000000 )) ms"
  done
  echo "== python floor phases"
  python3 -c "
import time; t=time.time(); import pynvml; a=time.time(); pynvml.nvmlInit(); b=time.time()
from cuda.bindings import driver as cu; c=time.time(); cu.cuInit(0); d=time.time()
print('import pynvml %.0f ms, nvmlInit %.0f ms, import cuda %.0f ms, cuInit %.0f ms' % ((a-t)*1e3,(b-a)*1e3,(c-b)*1e3,(d-c)*1e3))"
  s=$(date +%s%N); python3 -c pass; e=$(date +%s%N); echo "python3 -c pass: $(( (e - s) / 1000000 )) ms"
  s=$(date +%s%N); $RT -Xshare:auto -version >/dev/null 2>&1; e=$(date +%s%N); echo "java -version: $(( (e - s) / 1000000 )) ms"
  if [ -d $D/bench-classes ]; then
    echo "== CallGuard hand-off (bench/CallGuardCost.java), 3 fresh JVMs"
    for i in 1 2 3; do $JAVA -cp $JAR:$D/bench-classes CallGuardCost 350; done
  fi
  echo "== one recorded probe"
  FABRICSCOPE_TRACE=1 $JAVA -jar $JAR probe --json --record=$W/trace.json 2>&1 >/dev/null | grep -v '^\[trace\]'
} > $R 2>&1
gzip -c $W/trace.json > ${OUT:-/tmp}/probe-trace.json.gz 2>/dev/null
cp $W/new.json ${OUT:-/tmp}/probe-new.json 2>/dev/null
rm -rf $W
