for i in 1 2 3 4 5 6; do for m in nvml-first cu-first uninit nvml-only; do
  a=$(date +%s%N); python3 bench/driver_order.py $m > /tmp/o.txt; b=$(date +%s%N)
  echo "$(cat /tmp/o.txt) | process $(( (b-a)/1000000 )) ms"; done; done
