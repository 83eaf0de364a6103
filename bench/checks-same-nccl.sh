#!/bin/sh
# Like for like (issue 12): Fabricscope's NCCL check with the same libnccl as nccl-tests (the system NCCL 2.28.3 that
# nccl-tests is built against), one thread with group calls (-g 2) and one thread per GPU (-t 2), in the same call as
# nccl-tests -g 2 and -t 2. Run on nvidia-h200-x2 with carry [".device", ".device-checks"]; one file back: $OUT/same-nccl.tgz.
set -u
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
D=.device-checks
W=/tmp/same-nccl
mkdir -p /tmp/fs $W .device
cp $D/nccl-tests-2.19.6.tar.gz .device/
J=".device/runtime/bin/java -Djna.tmpdir=/tmp/fs -Djava.io.tmpdir=/tmp/fs -jar $D/fabricscope.jar"
SYS=/usr/lib/x86_64-linux-gnu/libnccl.so.2
$J check allreduce --impl nccl --dtype bf16 --nccl-lib $SYS --out $W/nccl-sys-g.json > $W/nccl-sys-g.txt 2>&1
$J check allreduce --impl nccl --dtype bf16 --nccl-lib $SYS --thread-per-gpu --out $W/nccl-sys-t.json > $W/nccl-sys-t.txt 2>&1
$J check allreduce --impl all --dtype bf16 -e 1M --thread-per-gpu --out $W/all-venv-t.json > $W/all-venv-t.txt 2>&1
sh $D/nccl-tests.sh $W > $W/nccl-tests.out 2>&1
b=/tmp/nt/nccl-tests/build/all_reduce_perf
$b -b 8 -e 256M -f 2 -t 2 -g 1 -d bfloat16 -w 5 -n 20 > $W/nccl-tests-bf16-t2.txt 2>&1
$b -b 8 -e 1M -f 2 -t 2 -g 1 -d bfloat16 -w 5 -n 200 -G 1 > $W/nccl-tests-bf16-t2-graph.txt 2>&1
nvidia-smi --query-gpu=index,memory.used --format=csv > $W/smi-memory-after.txt 2>&1
tar czf $OUT/same-nccl.tgz -C /tmp same-nccl
grep -E "^ +(8|65536|67108864|268435456) " $W/nccl-sys-g.txt $W/nccl-sys-t.txt $W/nccl-tests-bf16.txt $W/nccl-tests-bf16-t2.txt $W/nccl-tests-bf16-graph.txt $W/nccl-tests-bf16-t2-graph.txt | cut -c1-160
