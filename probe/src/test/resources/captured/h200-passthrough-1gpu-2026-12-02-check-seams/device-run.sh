#!/bin/bash
# Session 3 device call: gpu-tagged tests (check seams, live traces), then the check timed before/after the seams,
# interleaved, same libnccl; then a real check recorded and replayed through the CLI.
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
mkdir -p /tmp/fs
bash .device-gputest/run.sh; echo "gpu tests rc=$?" | tee -a $OUT/gpu-tests.txt
J=".device/runtime/bin/java -Djna.tmpdir=/tmp/fs -Djava.io.tmpdir=/tmp/fs"
SYS=/usr/lib/x86_64-linux-gnu/libnccl.so.2; [ -e $SYS ] || SYS=/lib/x86_64-linux-gnu/libnccl.so.2
nvidia-smi > $OUT/nvidia-smi.txt 2>&1
for i in 1 2 3; do
  for v in before after; do
    $J -cp $(if [ $v = before ]; then echo .device/before.jar; else echo ".device-gputest/classes:.device-gputest/lib/*"; fi) dev.fabricscope.cli.Main check allreduce --in-process --impl all --dtype bf16 -e 1M -w 5 -n 20 --nccl-lib $(readlink -f $SYS) \
      --json --out $OUT/allreduce-$v-$i.json > /dev/null 2>$OUT/allreduce-$v-$i.err; echo "$v $i rc=$?"
  done
done
$J -cp ".device-gputest/classes:.device-gputest/lib/*" dev.fabricscope.cli.Main check allreduce --impl all --dtype bf16,fp32 -e 64K -w 2 -n 5 --nccl-lib $(readlink -f $SYS) \
  --record $OUT/allreduce.trace.json --json --out $OUT/allreduce-recorded.json > /dev/null 2>$OUT/record.err; echo "record rc=$?"
$J -cp ".device-gputest/classes:.device-gputest/lib/*" dev.fabricscope.cli.Main check allreduce --replay $OUT/allreduce.trace.json --json --out $OUT/allreduce-replayed.json > /dev/null 2>>$OUT/record.err; echo "replay rc=$?"
$J -cp ".device-gputest/classes:.device-gputest/lib/*" dev.fabricscope.cli.Main check preflight --record $OUT/preflight.trace.json --json --out $OUT/preflight-recorded.json > /dev/null 2>>$OUT/record.err; echo "preflight record rc=$?"
$J -cp ".device-gputest/classes:.device-gputest/lib/*" dev.fabricscope.cli.Main check preflight --replay $OUT/preflight.trace.json --json --out $OUT/preflight-replayed.json > /dev/null 2>>$OUT/record.err; echo "preflight replay rc=$?"
nvidia-smi --query-gpu=pci.bus_id,memory.used --format=csv > $OUT/smi-end.csv 2>&1
tail -5 $OUT/record.err
