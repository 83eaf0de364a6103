#!/bin/sh
# Issue 31: the installed CLI (jpackage image, its launcher, flags and class-data archive) before and after one change,
# interleaved in one call on the GPU machine, beside java -version, nvidia-smi -q and the Python floor. Both images are
# the one image in .device/image; "before" gets the jar of before, rebuilt from .device/before-delta.jar (its entries that differ) over the current one. Each copy's archive is made where it
# lies, by its own lib/cds-archive.sh, as the packages' postinst does.
# Setup (repository root): mvn -q -B -ntp -pl probe package -DskipTests; sh installers/linux/cli-image.sh jpackage /tmp/inst 0.1.0
#   rm -rf .device/image; cp -a /tmp/inst/image/fabricscope-cli .device/image
#   rm -f .device/image/lib/runtime/lib/server/classes*.jsa .device/image/lib/app/*.jsa*; strip --strip-unneeded .device/image/lib/runtime/lib/server/libjvm.so
#   the jar of before as entries that differ: .device/before-delta.jar (merged over the current jar there), or none and
#   AB_BEFORE_PREP set to a command that makes the image of before from the current one; cp bench/installed-ab.sh bench/probe_floor.py .device/
# Call: sh .device/installed-ab.sh [RUNS] with carry [".device"]. Writes $OUT/installed-ab.txt.
set -u
RUNS="${1:-11}"
D=.device
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
W=/tmp/ab.$$; mkdir -p $W
R=${OUT:-/tmp}/installed-ab.txt
ms() { s=$(date +%s%N); "$@" >/dev/null 2>&1; e=$(date +%s%N); echo $(( (e - s) / 1000000 )); }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
stats() { echo "$1: median $(median < $W/$1) ms (min $(sort -n $W/$1 | head -1), max $(sort -n $W/$1 | tail -1)); runs $(tr '\n' ' ' < $W/$1)"; }
{
  echo "== $(date -u +%FT%TZ) $(hostname) runs=$RUNS; $(nproc) CPUs"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  cp -a $D/image $W/A; cp -a $D/image $W/B
  # "before" may instead differ in the image: AB_BEFORE_PREP runs in A's folder (e.g. 'rm -rf lib/app/jna')
  if [ -n "${AB_BEFORE_PREP:-}" ]; then echo "before: $AB_BEFORE_PREP"; (cd $W/A && sh -c "$AB_BEFORE_PREP"); fi
  [ -r $D/before-delta.jar ] && python3 -c "
import zipfile,sys
cur=zipfile.ZipFile(sys.argv[1]); delta=zipfile.ZipFile(sys.argv[2]); out=zipfile.ZipFile(sys.argv[3],'w',zipfile.ZIP_DEFLATED)
names=set(delta.namelist())
for i in delta.infolist(): out.writestr(i, delta.read(i.filename))
for i in cur.infolist():
    if i.filename not in names: out.writestr(i, cur.read(i.filename))
out.close()" $D/image/lib/app/fabricscope.jar $D/before-delta.jar $W/A/lib/app/fabricscope.jar
  RT=$W/B/lib/runtime/bin/java
  # what jlink --generate-cds-archive makes (classes.jsa, and classes_nocoops.jsa for heaps over 32 GB: 75 % of this machine)
  for x in A B; do $W/$x/lib/runtime/bin/java -Xshare:dump >/dev/null 2>&1; $W/$x/lib/runtime/bin/java -XX:-UseCompressedOops -Xshare:dump >/dev/null 2>&1; done
  for x in A B; do sh $W/$x/lib/cds-archive.sh $W/$x fabricscope-cli; done
  for x in A B; do echo "$x: $($W/$x/bin/fabricscope-cli --version | tr '\n' ' ')"; done
  echo "== same output before and after (md5)"
  for c in "show --sample h200-vm" "show --sample dgx-h100" "--version"; do
    echo "$c: $($W/A/bin/fabricscope-cli $c 2>&1 | md5sum | cut -c1-12) / $($W/B/bin/fabricscope-cli $c 2>&1 | md5sum | cut -c1-12)"
  done
  for x in A B; do $W/$x/bin/fabricscope-cli probe --json > $W/$x.json 2>$W/$x.err; echo "$x probe rc $?"; done
  python3 $D/probe_floor.py >/dev/null 2>&1; nvidia-smi -q >/dev/null 2>&1
  for i in $(seq "$RUNS"); do
    for x in A B; do
      ms $W/$x/bin/fabricscope-cli show --sample h200-vm >> $W/${x}_show
      ms $W/$x/bin/fabricscope-cli --version >> $W/${x}_version
      ms $W/$x/bin/fabricscope-cli probe --json >> $W/${x}_probe
    done
    ms $RT -Xshare:auto -version >> $W/java_version
    ms nvidia-smi -q >> $W/smi
    ms python3 $D/probe_floor.py >> $W/floor
  done
  for n in A_show B_show A_version B_version A_probe B_probe java_version smi floor; do stats $n; done
  echo "== same readings? (probe JSON without its 'probe' section)"
  for x in A B; do python3 -c "import json,hashlib; d=json.load(open('$W/$x.json')); d.pop('probe',None); print('$x', hashlib.md5(json.dumps(d,sort_keys=True).encode()).hexdigest())"; done
  echo "== classes not from the archive, show --sample h200-vm (A, B)"
  for x in A B; do
    JDK_JAVA_OPTIONS="-Xlog:class+load=info" $W/$x/bin/fabricscope-cli show --sample h200-vm 2>/dev/null | grep "source:" | grep -vc "shared objects file"
  done
} > $R 2>&1
rm -rf $W
