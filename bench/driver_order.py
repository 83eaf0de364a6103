"""Issue 31: which order of the driver's two openings is cheapest? One mode per fresh interpreter; prints the
moments (ms since the interpreter's start of this script) of each step; the shell around it times the whole process.
  nvml-first : nvmlInit, 100 reads, then cuInit          (what bench/probe_floor.py does)
  cu-first   : cuInit, then nvmlInit and 100 reads       (does nvmlInit cost its 10 ms alone after cuInit?)
  uninit     : cuInit on a thread; meanwhile nvmlDeviceGetCount before nvmlInit (does an uninitialised call wait?);
               then nvmlInit and the reads once cuInit returned
  nvml-only  : nvmlInit and the reads, no cuInit (what the process's exit costs without libcuda)
python3 bench/driver_order.py MODE"""
import sys, threading, time
t0 = time.perf_counter()
import pynvml
from cuda.bindings import driver as cu

def ms():
    return (time.perf_counter() - t0) * 1e3
marks = []
def mark(name):
    marks.append("%s %.1f" % (name, ms()))
def nvml_reads():
    pynvml.nvmlInit(); mark("nvmlInit done")
    h = pynvml.nvmlDeviceGetHandleByIndex(0)
    for _ in range(100):
        pynvml.nvmlDeviceGetMemoryInfo(h)
    mark("nvml reads done")
def cuinit():
    cu.cuInit(0); mark("cuInit done")

mode = sys.argv[1]
mark("imports")
if mode == "nvml-first":
    nvml_reads(); cuinit()
elif mode == "cu-first":
    cuinit(); nvml_reads()
elif mode == "uninit":
    th = threading.Thread(target=cuinit); th.start(); time.sleep(0.002)
    a = time.perf_counter()
    try:
        pynvml.nvmlDeviceGetCount()
        r = "answered"
    except pynvml.NVMLError as e:
        r = str(e)
    mark("uninitialised call (%s, %.2f ms)" % (r, (time.perf_counter() - a) * 1e3))
    th.join(); nvml_reads()
elif mode == "nvml-only":
    nvml_reads()
print("%-10s %s" % (mode, "; ".join(marks)), flush=True)
