#!/bin/sh
# Issue 31: Fabricscope's NCCL all-reduce check timed as nccl-tests times it, at world size 1, with the same libnccl as
# nccl-tests (the system NCCL it is built against, --nccl-lib), plain (-w 5 -n 20) and CUDA-graph (-n 200 -G 1), the
# jar of before (one warm-up per size only) beside the jar of now (plus a warm-up of every size and the first size's
# timing once, untimed, before the sweep). Everything in one call on nvidia-h200, after bench/startup-bench.sh's
# setup, plus:  cp /work/shared/tools/nccl-tests-2.19.6.tar.gz /work/shared/device/nccl-tests.sh bench/checks-same-nccl-1gpu.sh $T/
# Call: sh .device/checks-same-nccl-1gpu.sh   (carry [".device"]); writes $OUT/checks-1gpu.txt and $OUT/checks-1gpu.tgz.
set -u
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
D=.device
W=/tmp/checks-1gpu
mkdir -p /tmp/fs $W
JAVA="$D/image/lib/runtime/bin/java -Djna.tmpdir=/tmp/fs -Djava.io.tmpdir=/tmp/fs"
JAR=$D/image/lib/app/fabricscope.jar
SYS=/usr/lib/x86_64-linux-gnu/libnccl.so.2
[ -e $SYS ] || SYS=/lib/x86_64-linux-gnu/libnccl.so.2
R=${OUT:-/tmp}/checks-1gpu.txt
{
  echo "== $(date -u +%FT%TZ) $(hostname) libnccl $(readlink -f $SYS)"
  nvidia-smi --query-gpu=index,memory.used --format=csv,noheader
  sh $D/nccl-tests.sh $W > $W/nccl-tests.out 2>&1; echo "nccl-tests built: rc $?"
  b=/tmp/nt/nccl-tests/build/all_reduce_perf
  for j in before now; do
    jar=$JAR; [ $j = before ] && jar=$D/before.jar
    [ -f $jar ] || continue
    $JAVA -jar $jar check allreduce --impl nccl --mode plain --dtype bf16 -e 1M -w 5 -n 20 --nccl-lib $SYS \
      --out $W/$j-plain.json > $W/$j-plain.txt 2>&1; echo "$j plain: rc $?"
    $JAVA -jar $jar check allreduce --impl nccl --mode graph --dtype bf16 -e 1M -w 5 -n 200 -G 1 --nccl-lib $SYS \
      --out $W/$j-graph.json > $W/$j-graph.txt 2>&1; echo "$j graph: rc $?"
  done
  $b -b 8 -e 1M -f 2 -g 1 -d bfloat16 -w 5 -n 20 > $W/nt-plain.txt 2>&1
  $b -b 8 -e 1M -f 2 -g 1 -d bfloat16 -w 5 -n 200 -G 1 > $W/nt-graph.txt 2>&1
  grep -m1 "NCCL version" $W/nt-plain.txt
  nvidia-smi --query-gpu=index,memory.used --format=csv,noheader
  python3 - $W <<'EOF'
import json, os, sys
w = sys.argv[1]
def nt(f):  # nccl-tests: size count type redop root time algbw busbw #wrong (out of place) ...
    out = {}
    for line in open(os.path.join(w, f)):
        p = line.split()
        if len(p) >= 13 and p[0].isdigit():
            out[int(p[0])] = (float(p[5]), float(p[9]))
    return out
def fs(f):
    path = os.path.join(w, f)
    if not os.path.exists(path):
        return {}
    rows = json.load(open(path)).get("rows") or []
    return {r["bytes"]: (r["timeUs"], r.get("inPlaceTimeUs"), r["wrong"] + (r.get("inPlaceWrong") or 0)) for r in rows}
for mode in ("plain", "graph"):
    n, a, b = nt("nt-%s.txt" % mode), fs("now-%s.json" % mode), fs("before-%s.json" % mode)
    print("== %s: us per all-reduce, out of place (in place); ratio = Fabricscope now / nccl-tests" % mode)
    print("%9s %17s %17s %17s %6s %6s" % ("bytes", "nccl-tests", "Fabricscope now", "Fabricscope before", "ratio", "wrong"))
    for size in sorted(n):
        t = n[size]; x = a.get(size); y = b.get(size)
        f = lambda v: "%7.2f (%6.2f)" % (v[0], v[1] or 0) if v else "%17s" % "-"
        print("%9d %17s %17s %17s %6s %6s" % (size, "%7.2f (%6.2f)" % t, f(x), f(y),
              "%.2f" % (x[0] / t[0]) if x else "-", x[2] if x else "-"))
EOF
} > $R 2>&1
tar czf ${OUT:-/tmp}/checks-1gpu.tgz -C /tmp checks-1gpu
