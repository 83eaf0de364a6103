"""SYNTHETIC 256-GPU native-call trace for issue 31's replay benchmark (bench/replay-bench.sh).

Widens the trace recorded on the two-GPU NVSwitch H200 (probe/src/test/resources/captured/
h200-nvswitch-2gpu-2026-12-01/trace.json) to N GPUs, call for call, following the calls' documented shapes:
- every per-device NVML call (nvmlDeviceGet*(device, ...): the device is the first argument, as in the NVML API
  reference) and CUDA call (cuDeviceGet(ordinal), cuDeviceGetAttribute(attrib, dev), cuDeviceGetPCIBusId(dev)) is
  repeated for each GPU with GPU0's recorded answer;
- per-pair calls (nvmlDeviceGetP2PStatus(dev1, dev2, index), nvmlDeviceGetTopologyCommonAncestor(dev1, dev2),
  cuDeviceCanAccessPeer(dev, peerDev), cuDeviceGetP2PAttribute(attrib, srcDevice, dstDevice)) for every pair, with the
  recorded pair's answer;
- each GPU gets its own identity: PCI address (domain 0, bus 0x10 + i // 32, device i % 32; nvmlPciInfo_t's busId
  "%08X:%02X:%02X.0", CUDA's "%04x:%02x:%02x.0"), UUID and serial, and the host's sysfs answers for that address;
- nvmlDeviceGetCount_v2 and cuDeviceGetCount answer N. Nothing else is changed; the trace's source says SYNTHETIC.
Usage: python3 bench/wide_trace.py [N] > /tmp/wide-256.trace.json
"""
import json
import sys

SRC = "probe/src/test/resources/captured/h200-nvswitch-2gpu-2026-12-01/trace.json"
PAIR_NVML = {"nvmlDeviceGetP2PStatus", "nvmlDeviceGetTopologyCommonAncestor"}
PAIR_CUDA = {"cuDeviceCanAccessPeer": 0, "cuDeviceGetP2PAttribute": 1}  # index of the first device argument
DEV_CUDA = {"cuDeviceGet": 0, "cuDeviceGetPCIBusId": 0, "cuDeviceGetAttribute": 1}


def address(i):
    return 0x10 + i // 32, i % 32


def identity(value, i):
    """GPU0's answer made GPU i's: its PCI address, UUID and serial."""
    bus, dev = address(i)
    text = json.dumps(value)
    text = text.replace("00000000:00:06.0", "00000000:%02X:%02X.0" % (bus, dev))
    text = text.replace("0000:00:06.0", "0000:%02x:%02x.0" % (bus, dev))
    text = text.replace("96a1bafa-08fa-0a33-d49d-58623cf4a1f6", "96a1bafa-08fa-0a33-d49d-%012x" % i)
    text = text.replace("1654024085331", str(1654024085331 + 1000 + i))
    v = json.loads(text)
    if isinstance(v, dict) and "bus" in v and "device" in v and "busId" in v:
        v["bus"], v["device"] = bus, dev
    return v


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 256
    t = json.load(open(SRC))
    out = []

    def add(c, args=None, value=None):
        d = dict(c)
        d["seq"] = len(out)
        if args is not None:
            d["args"] = args
        if value is not None:
            d["value"] = value
        d.pop("us", None)
        out.append(d)

    for c in t["calls"]:
        lib, call, args = c["lib"], c["call"], c.get("args") or []
        if lib == "nvml" and call in PAIR_NVML:
            if args[:2] == [0, 1]:
                for a in range(n):
                    for b in range(a + 1, n):
                        add(c, [a, b] + args[2:])
        elif lib == "nvml" and call.startswith("nvmlDevice") and call != "nvmlDeviceGetCount_v2":
            if args and args[0] == 0:
                for i in range(n):
                    add(c, [i] + args[1:], identity(c.get("value"), i) if "value" in c else None)
        elif lib == "cuda" and call in PAIR_CUDA:
            k = PAIR_CUDA[call]
            if args[k:k + 2] == [0, 1]:
                for a in range(n):
                    for b in range(a + 1, n):
                        add(c, args[:k] + [a, b])
        elif lib == "cuda" and call in DEV_CUDA:
            k = DEV_CUDA[call]
            if args[k] == 0:
                for i in range(n):
                    v = i if call == "cuDeviceGet" else identity(c.get("value"), i)
                    add(c, args[:k] + [i] + args[k + 1:], v)
        elif call in ("nvmlDeviceGetCount_v2", "cuDeviceGetCount"):
            add(c, value=n)
        elif lib == "host" and "0000:00:07.0" in json.dumps(c):
            continue  # GPU1's sysfs answers: every GPU gets GPU0's, at its own address, below
        elif lib == "host" and "0000:00:06.0" in json.dumps(c):
            for i in range(n):
                add(c, identity(args, i), identity(c.get("value"), i) if "value" in c else None)
        else:
            add(c)
    t["calls"] = out
    t["snapshot"] = None
    t.pop("snapshot")
    t["source"] = ("SYNTHETIC: %d GPUs widened from the 2-GPU NVSwitch H200 capture of 2026-12-01 by bench/wide_trace.py "
                   "(per-device and per-pair calls repeated with the recorded answers, each GPU its own PCI address, "
                   "UUID and serial)" % n)
    t["commandLine"] = ["fabricscope", "probe"]
    json.dump(t, sys.stdout, separators=(",", ":"))


main()
