#!/bin/sh
# Issue 31's one device call on nvidia-h200 (setup: the headers of bench/startup-bench.sh and
# bench/checks-same-nccl-1gpu.sh, all in .device): the start-up table, then the checks against nccl-tests.
sh .device/startup-bench.sh "${1:-11}"
sh .device/checks-same-nccl-1gpu.sh
