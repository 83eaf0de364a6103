#!/bin/sh
# Cold-start timing of 'fabricscope probe --json' against nvidia-smi and the Python floor, on the GPU machine.
# Usage (from the repo root): bench/probe-bench.sh JAVA_CMD RUNS > results.txt
JAVA="$1"; RUNS="${2:-7}"
ms() { s=$(date +%s%N); "$@" >/dev/null 2>&1; e=$(date +%s%N); echo $(( (e - s) / 1000000 )); }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
bench() {
  name="$1"; shift; : > /tmp/bench.$$
  for i in $(seq "$RUNS"); do ms "$@" >> /tmp/bench.$$; done
  echo "$name: median $(median < /tmp/bench.$$) ms; runs $(tr '\n' ' ' < /tmp/bench.$$)"
}
bench "fabricscope probe --json" $JAVA probe --json
bench "nvidia-smi -q" nvidia-smi -q
bench "nvidia-smi topo -m" nvidia-smi topo -m
bench "python floor (pynvml + cuda.bindings)" python3 bench/probe_floor.py
rm -f /tmp/bench.$$
