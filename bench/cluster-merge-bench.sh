#!/bin/sh
# Merging N node reports (default 1000) as `fabricscope cluster show` does; prints cold and warm timings.
# With a third argument the reports are kept in that folder, to time the CLI itself on them.
cd "$(dirname "$0")/.." && mvn -q -B -pl probe test-compile exec:java -Dexec.classpathScope=test \
  -Dexec.mainClass=dev.fabricscope.cluster.ClusterMergeBenchmark -Dexec.args="${1:-1000} ${2:-5} ${3:-}"
