#!/bin/sh
# Issue 31: the phase marks (FABRICSCOPE_TRACE=1) of the installed CLI's cold probe, with and without the image's
# unpacked JNA library (lib/app/jna), RUNS each, interleaved; the image in .device/image as installed-ab.sh sets it up.
#   sh bench/startup-marks.sh [RUNS] > FILE        (on the GPU machine, from the repository root)
set -u
RUNS="${1:-3}"
W=/tmp/marks.$$; mkdir -p $W
cp -a .device/image $W/with; cp -a .device/image $W/without; rm -rf $W/without/lib/app/jna
for x in with without; do
  $W/$x/lib/runtime/bin/java -Xshare:dump >/dev/null 2>&1; $W/$x/lib/runtime/bin/java -XX:-UseCompressedOops -Xshare:dump >/dev/null 2>&1
  sh $W/$x/lib/cds-archive.sh $W/$x fabricscope-cli
done
for i in $(seq "$RUNS"); do
  for x in with without; do
    echo "== $x JNA library unpacked in the image, run $i"
    FABRICSCOPE_TRACE=1 FABRICSCOPE_TRACE_T0=$(date +%s%3N) $W/$x/bin/fabricscope-cli probe --json 2>&1 >/dev/null | grep -v '^$'
  done
done
rm -rf $W
