#!/bin/sh
# Issue 31: a SYNTHETIC 256-GPU trace (bench/wide_trace.py) replayed and shown on the build machine, CPU seconds
# (user + sys) and peak RSS from /usr/bin/time, for each jar given, plain `java -jar` and with the installed CLI's
# flags (installers/linux/cli-app.args). The printed text must be the same for every jar (checked).
#   sh bench/replay-bench.sh [GPUS] JAR...        (from the repository root; e.g. a jar of before and probe/target/fabricscope.jar)
set -u
n=$1; shift
t=/tmp/wide-$n.trace.json
python3 bench/wide_trace.py "$n" > "$t"
echo "== $(date -u +%FT%TZ) $(hostname) $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); $t: $(wc -c < "$t") bytes, $(java -version 2>&1 | head -1)"
CLI="-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xshare:auto -XX:MaxRAMPercentage=75"
for jar in "$@"; do
  for flags in "" "$CLI"; do
    for cmd in "probe --replay $t" "show --snapshot $t"; do
      /usr/bin/time -f "%U %S %M" -o /tmp/replay-bench.time java $flags -jar "$jar" $cmd > /tmp/replay-bench.out 2>/dev/null
      read -r u s m < /tmp/replay-bench.time
      echo "$jar | ${flags:-plain java -jar} | $cmd | CPU $(echo "$u + $s" | bc) s | RSS $((m / 1024)) MB | output $(md5sum < /tmp/replay-bench.out | cut -c1-12)"
    done
  done
done
