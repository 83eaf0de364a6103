#!/bin/sh
# Times the cluster drawing (cluster draw) over N synthetic GB200 NVL72 racks (default 1 = 18 trays), RUNS runs (9).
cd "$(dirname "$0")/.." && mvn -q -B -pl probe test-compile exec:java -Dexec.classpathScope=test \
  -Dexec.mainClass=dev.fabricscope.render.rack.RackDrawBenchmark -Dexec.args="${1:-1} ${2:-9}"
