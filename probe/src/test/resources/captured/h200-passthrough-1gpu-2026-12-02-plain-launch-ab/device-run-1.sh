#!/bin/bash
# Session 4 device call (issue 28 item 5, issue 31): the plain launch path before the seams (before = c89b400),
# through the seams without a launch-path warm-up (mid = 115f4e2) and with it (new = the working tree), interleaved,
# five runs each, same libnccl; nccl-tests -g 1 plain and -G 1 beside new's NCCL sweep; a check recorded and replayed.
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
set -u
D=.device; W=/tmp/s4; mkdir -p /tmp/fs $W
J="$D/runtime/bin/java -Djna.tmpdir=/tmp/fs -Djava.io.tmpdir=/tmp/fs"
SYS=/usr/lib/x86_64-linux-gnu/libnccl.so.2; [ -e $SYS ] || SYS=/lib/x86_64-linux-gnu/libnccl.so.2
SYS=$(readlink -f $SYS)
{
echo "== $(date -u +%FT%TZ) $(hostname) libnccl $SYS"
nvidia-smi > $W/nvidia-smi.txt 2>&1
nvidia-smi --query-gpu=pci.bus_id,memory.used --format=csv > $W/smi-before.csv 2>&1
for i in 1 2 3 4 5; do
  for v in before mid new; do
    $J -cp $D/$v.jar:$D/deps.jar dev.fabricscope.cli.Main check allreduce --in-process --impl all --dtype bf16 -e 1M -w 5 -n 20 \
      --nccl-lib $SYS --json --out $W/ab-$v-$i.json > /dev/null 2>$W/ab-$v-$i.err; echo "ab $v $i rc=$?"
  done
done
mkdir -p /tmp/nt && tar -C /tmp/nt -xzf $D/nccl-tests-2.19.6.tar.gz
make -C /tmp/nt/nccl-tests -j"$(nproc)" MPI=0 CUDA_HOME=/usr/local/cuda NCCL_HOME=/usr \
  NVCC_GENCODE="-gencode=arch=compute_90,code=sm_90" src.build > $W/nccl-tests-build.log 2>&1; echo "nccl-tests build rc=$?"
b=/tmp/nt/nccl-tests/build/all_reduce_perf
for i in 1 2; do
  for v in mid new; do
    $J -cp $D/$v.jar:$D/deps.jar dev.fabricscope.cli.Main check allreduce --impl nccl --mode plain --dtype bf16 -e 1M -w 5 -n 20 \
      --nccl-lib $SYS --out $W/nccl-$v-plain-$i.json > /dev/null 2>&1; echo "nccl $v plain $i rc=$?"
    $J -cp $D/$v.jar:$D/deps.jar dev.fabricscope.cli.Main check allreduce --impl nccl --mode graph --dtype bf16 -e 1M -w 5 -n 200 -G 1 \
      --nccl-lib $SYS --out $W/nccl-$v-graph-$i.json > /dev/null 2>&1; echo "nccl $v graph $i rc=$?"
  done
  $b -b 8 -e 1M -f 2 -g 1 -d bfloat16 -w 5 -n 20 > $W/nt-plain-$i.txt 2>&1; echo "nt plain $i rc=$?"
  $b -b 8 -e 1M -f 2 -g 1 -d bfloat16 -w 5 -n 200 -G 1 > $W/nt-graph-$i.txt 2>&1; echo "nt graph $i rc=$?"
done
$J -cp $D/new.jar:$D/deps.jar dev.fabricscope.cli.Main check allreduce --impl all --dtype bf16,fp32 -e 64K -w 2 -n 5 --nccl-lib $SYS \
  --record $W/allreduce.trace.json --json --out $W/allreduce-recorded.json > /dev/null 2>$W/record.err; echo "record rc=$?"
$J -cp $D/new.jar:$D/deps.jar dev.fabricscope.cli.Main check allreduce --replay $W/allreduce.trace.json --json --out $W/allreduce-replayed.json > /dev/null 2>>$W/record.err; echo "replay rc=$?"
cmp $W/allreduce-recorded.json $W/allreduce-replayed.json && echo "replay identical"
nvidia-smi --query-gpu=pci.bus_id,memory.used --format=csv > $W/smi-end.csv 2>&1
cp $D/run-s4.sh $W/device-run.sh
} > $W/run.log 2>&1
gzip -9 $W/allreduce.trace.json
tar czf $OUT/s4.tgz -C /tmp s4
cat $W/run.log
