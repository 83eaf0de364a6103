"""Issue 31: does NVML wait for cuInit? Times nvmlInit and 100 NVML reads with cuInit running on another thread
(mode 'overlap': cuInit starts first; 'init-first': nvmlInit, then cuInit starts, then the reads) or not ('alone':
NVML first, cuInit after). One mode per fresh interpreter: python3 bench/nvml_cuinit_overlap.py MODE"""
import sys, threading, time
import pynvml
from cuda.bindings import driver as cu

mode = sys.argv[1]
t_cu = {}
def cuinit():
    a = time.perf_counter(); cu.cuInit(0); t_cu['ms'] = (time.perf_counter() - a) * 1e3
def reads():
    h = pynvml.nvmlDeviceGetHandleByIndex(0)
    for _ in range(100):
        pynvml.nvmlDeviceGetMemoryInfo(h)
th = threading.Thread(target=cuinit)
if mode == 'overlap':
    th.start(); time.sleep(0.005)
a = time.perf_counter(); pynvml.nvmlInit(); b = time.perf_counter()
if mode == 'init-first':
    th.start(); time.sleep(0.005)
c = time.perf_counter(); reads(); d = time.perf_counter()
if mode == 'alone':
    th.start()
th.join()
print("%-10s nvmlInit %6.1f ms, 100 reads %6.1f ms, cuInit %6.1f ms" % (mode, (b - a) * 1e3, (d - c) * 1e3, t_cu['ms']))
