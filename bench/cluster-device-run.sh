#!/bin/bash
# cluster show of 10,000 SYNTHETIC node reports on the GPU machine (no Java or Maven there), before and after.
# Set up here (see docs/benchmarks.md, "10,000 node reports, round 3"), in the main checkout:
#   mkdir -p .device-cluster/gen/dev/fabricscope/cluster
#   cp BEFORE.jar .device-cluster/before.jar; cp probe/target/fabricscope.jar .device-cluster/after.jar
#   cp probe/target/test-classes/dev/fabricscope/cluster/{ClusterMergeBenchmark,ClusterFixtures}.class .device-cluster/gen/dev/fabricscope/cluster/
#   cp bench/cluster_show_bench.py bench/cluster-device-run.sh .device-cluster/
# then run `bash .device-cluster/cluster-device-run.sh [RUNS] [CORES]` with carry [".device", ".device-cluster"].
# CORES pins cluster show to that many cores (taskset), e.g. 2 to stand for the 2-vCPU build machine, idle.
D=.device-cluster
J=.device/runtime/bin/java
RUNS=${1:-3}
mkdir -p /tmp/fs
{ nproc; uptime; free -g; lscpu | grep -E "Model name|^CPU\(s\)|Thread|Socket"; } > $OUT/machine.txt 2>&1
t0=$(date +%s)
$J -Djava.io.tmpdir=/tmp/fs -cp $D/after.jar:$D/gen dev.fabricscope.cluster.ClusterMergeBenchmark 10000 0 /tmp/c10k > $OUT/generate.txt 2>&1
echo "generated in $(( $(date +%s) - t0 )) s; $(du -sh /tmp/c10k); $(ls /tmp/c10k | wc -l) files" >> $OUT/generate.txt
cat $OUT/generate.txt
if [ -n "$2" ]; then JAVA="taskset -c 0-$(( $2 - 1 )) $J"; else JAVA="$J"; fi
JAVA="$JAVA" python3 $D/cluster_show_bench.py /tmp/c10k "$RUNS" before=$D/before.jar after=$D/after.jar 2>&1 | tee $OUT/bench.txt
uptime >> $OUT/machine.txt
