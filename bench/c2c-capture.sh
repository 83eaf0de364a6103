#!/bin/sh
# Issue 27's device capture (item 4): one call records a trace with the host-link calls (nvmlDeviceGetC2cModeInfoV,
# the C2C field values, nvmlDeviceGetNumaNodeId) and the NUMA node facts (has_cpu, has_memory, has_normal_memory,
# nodeN/meminfo MemTotal), and takes nvidia-smi's, the kernel's and a C reference reader's view in the same call.
# All read only. Setup (repository root of the checkout that travels):
#   mvn -q -B -ntp -pl probe package -DskipTests && ../shared/device/make-runtime.sh .device
#   cp probe/target/fabricscope.jar bench/nvml-c2c.c bench/c2c-capture.sh .device/
# Call: sh .device/c2c-capture.sh   with carry [".device"]. Everything lands in $OUT/c2c.tar.gz.
set -u
D=/tmp/fs-c2c
mkdir -p "$D" /tmp/fs
B=$(dirname "$0")
J="$B/runtime/bin/java -Djna.tmpdir=/tmp/fs -Djava.io.tmpdir=/tmp/fs -jar $B/fabricscope.jar"
run() { name=$1; shift; "$@" > "$D/$name.txt" 2> "$D/$name.stderr.txt"; echo $? > "$D/$name.rc"; }
date -u +%Y-%m-%dT%H:%M:%SZ > "$D/date.txt"
run probe-record $J probe --record "$D/trace.json"
run probe-json $J probe --json
run probe $J probe --wide
run probe-replay $J probe --replay "$D/trace.json" --wide
run probe-replay-json $J probe --replay "$D/trace.json" --json
run smi-q nvidia-smi -q
run smi-c2c nvidia-smi c2c -s
run smi-topo nvidia-smi topo -m
run numa sh -c 'cd /sys/devices/system/node && for f in possible online has_cpu has_memory has_normal_memory; do
  printf "%s: " $f; cat $f 2>&1; done; for n in node[0-9]*; do printf "%s cpulist: " $n; cat $n/cpulist;
  grep MemTotal $n/meminfo; done; for d in /sys/bus/pci/devices/*; do [ "$(cat $d/vendor)" = 0x10de ] &&
  echo "$d numa_node $(cat $d/numa_node)"; done'
run cpuinfo sh -c 'grep -m3 -E "^(model name|CPU implementer|CPU part)" /proc/cpuinfo; uname -m'
run nvml-c2c-build gcc -O1 -o /tmp/nvml-c2c "$B/nvml-c2c.c" -ldl
run nvml-c2c /tmp/nvml-c2c
tar -czf "$OUT/c2c.tar.gz" -C "$D" .
ls -la "$D" > "$OUT/listing.txt"
