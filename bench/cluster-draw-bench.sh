#!/bin/sh
# Times the cluster drawing (cluster draw) over N synthetic GB200 NVL72 racks (default 1 = 18 trays), RUNS runs (9).
# (fabricscope.noGit: exec.args would also become the arguments of the build's git rev-parse step)
cd "$(dirname "$0")/.." && mvn -q -B -pl probe -Dfabricscope.noGit=true test-compile exec:java -Dexec.classpathScope=test \
  -Dexec.mainClass=dev.fabricscope.render.rack.RackDrawBenchmark -Dexec.args="${1:-1} ${2:-9}"
