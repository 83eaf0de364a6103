#!/bin/bash
# Session 4, second call: where the one-shot plain gap comes from (one-shot alone, NCCL first; threads on CPU meanwhile).
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
set -u
D=.device; W=/tmp/s4b; mkdir -p /tmp/fs $W
J="$D/runtime/bin/java -Djna.tmpdir=/tmp/fs -Djava.io.tmpdir=/tmp/fs"
SYS=$(readlink -f /usr/lib/x86_64-linux-gnu/libnccl.so.2)
{
for i in 1 2 3; do
  for v in before new; do
    for impl in oneshot nccl,oneshot; do
      $J -cp $D/$v.jar:$D/deps.jar dev.fabricscope.cli.Main check allreduce --in-process --impl $impl --mode plain --dtype bf16 -e 64K -w 5 -n 20 \
        --nccl-lib $SYS --json --out $W/$v-$impl-$i.json > /dev/null 2>&1; echo "$v $impl $i rc=$?"
    done
  done
done
for v in before new; do
  $J -cp $D/$v.jar:$D/deps.jar dev.fabricscope.cli.Main check allreduce --in-process --impl nccl,oneshot --mode plain --dtype bf16,fp32 -e 64K -w 5 -n 2000 \
     --nccl-lib $SYS --json --out $W/$v-long.json > /dev/null 2>&1 &
  pid=$!
  for k in 1 2 3 4 5 6; do sleep 1.5; echo "== $v t=$k"; top -H -b -n1 -p $pid | sed -n 7,16p; done
  wait $pid; echo "$v long rc=$?"
done
} > $W/run.log 2>&1
tar czf $OUT/s4b.tgz -C /tmp s4b
cat $W/run.log | grep -v "^ *[0-9]* root .* 0.0 " | head -120
