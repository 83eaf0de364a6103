#!/usr/bin/env python3
"""Times `fabricscope cluster show DIR` for one or more jars, cold JVM each run, runs interleaved.

Usage: bench/cluster_show_bench.py DIR RUNS LABEL=JAR [LABEL=JAR ...]
       (JAVA=... picks the java binary, default `java`; HEAP=... the heap flag, default -Xmx1g)

Per run: wall seconds, CPU seconds (user + sys, the steadier figure on a shared machine), max RSS, and the load
average just before. Measured with `/usr/bin/time -v` where it exists, else with wait4() (the same counters).
Checks that every jar printed the same output. Make the folder with `bench/cluster-merge-bench.sh 10000 1 DIR`
(or, without Maven, `java -cp fabricscope.jar:test-classes dev.fabricscope.cluster.ClusterMergeBenchmark 10000 0 DIR`).
"""
import os
import re
import subprocess
import sys
import time


def measure(cmd, out_path):
    """Runs cmd with stdout to out_path; returns (wall_s, user_s, sys_s, max_rss_kb, exit_code, how)."""
    if os.access("/usr/bin/time", os.X_OK):
        err_path = out_path + ".time"
        with open(out_path, "wb") as out, open(err_path, "wb") as err:
            t0 = time.monotonic()
            rc = subprocess.call(["/usr/bin/time", "-v"] + cmd, stdout=out, stderr=err)
            wall = time.monotonic() - t0
        text = open(err_path, encoding="utf-8", errors="replace").read()

        def field(name):
            m = re.search(re.escape(name) + r":\s*([\d.:]+)", text)
            return m.group(1) if m else "0"

        elapsed = field("Elapsed (wall clock) time (h:mm:ss or m:ss)")
        parts = [float(x) for x in elapsed.split(":")]
        wall_time = sum(p * 60 ** i for i, p in enumerate(reversed(parts))) if elapsed != "0" else wall
        return (wall_time, float(field("User time (seconds)")), float(field("System time (seconds)")),
                int(field("Maximum resident set size (kbytes)")), rc, "/usr/bin/time -v")
    with open(out_path, "wb") as out:
        t0 = time.monotonic()
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.monotonic() - t0
    return wall, usage.ru_utime, usage.ru_stime, usage.ru_maxrss, os.waitstatus_to_exitcode(status), "wait4"


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    folder, runs, jars = sys.argv[1], int(sys.argv[2]), [a.split("=", 1) for a in sys.argv[3:]]
    java = os.environ.get("JAVA", "java").split()
    heap = os.environ.get("HEAP", "-Xmx1g")
    print(f"cluster show {folder}: {os.cpu_count()} CPUs, {heap}, {runs} runs per jar, interleaved", flush=True)
    results = {label: [] for label, _ in jars}
    for r in range(runs):
        for label, jar in jars:
            load = open("/proc/loadavg").read().split()[0]
            out = f"/tmp/cluster-show-{label}.out"
            wall, user, sys_, rss, rc, how = measure(java + [heap, "-jar", jar, "cluster", "show", folder], out)
            results[label].append((wall, user + sys_, rss))
            print(f"{label} run {r + 1}: wall {wall:.2f} s, CPU {user + sys_:.2f} s (user {user:.2f}, sys {sys_:.2f}), "
                  f"max RSS {rss / 1024 / 1024:.2f} GB, exit {rc}, load before {load} ({how})", flush=True)
    outputs = {label: open(f"/tmp/cluster-show-{label}.out", "rb").read() for label, _ in jars}
    same = len(set(outputs.values())) == 1
    print("outputs: " + ("identical" if same else "DIFFER"), "; first line:",
          outputs[jars[0][0]].decode("utf-8", "replace").splitlines()[0] if outputs[jars[0][0]] else "(none)")
    for label, rows in results.items():
        print(f"{label}: wall " + ", ".join(f"{w:.2f}" for w, _, _ in rows) + " s; CPU "
              + ", ".join(f"{c:.2f}" for _, c, _ in rows) + " s; max RSS "
              + f"{min(x for _, _, x in rows) / 1024 / 1024:.2f}-{max(x for _, _, x in rows) / 1024 / 1024:.2f} GB")


if __name__ == "__main__":
    main()
