#!/usr/bin/env python3
"""GPU check of the recorder: asserts what each sample program knows about its own trace (run by gpu_check.sh on
the GPU machine, after the recordings). Exact launch counts, parameter sizes and bytes of known launches, allocation
sizes, copy directions and streams, graph nodes expanded, GPU timing order, module images, and outputs bitwise equal
with and without the recorder. Prints `N passed, N failed`; exit status 1 on any failure.

    python3 gpu_check.py DIR     # DIR holds the traces, cuda-suite-expected.json and checksums.txt
"""
import json
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import phos_read as pr  # noqa: E402

passed = failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
        print("  ok    " + what)
    else:
        failed += 1
        print("  FAIL  " + what)
    return cond


def bodies(t, name, pred=lambda b: True):
    out = []
    for i, e in enumerate(t.events):
        n, b = pr.body(e)
        if n == name and pred(b):
            out.append((i, b))
    return out


def common(t, label):
    check(not t.warnings, "%s: loads cleanly, no warnings %s" % (label, t.warnings))
    check(t.end is not None and t.end.get("dropped_events", 0) == 0, "%s: TraceEnd present, 0 dropped" % label)
    check(t.header.get("device_name", "").startswith("NVIDIA") and t.header.get("driver_version", 0) >= 13000,
          "%s: header device %s driver %s" % (label, t.header.get("device_name"), t.header.get("driver_version")))


def fname(t, fid):
    return t.functions.get(fid, {}).get("mangled_name", "?")


def layout_bytes(f):
    return max((p.get("offset", 0) + p.get("size", 0) for p in f.get("params", [])), default=0)


def check_suite(d, sums):
    print("cuda-suite.phos")
    t = pr.read_trace(os.path.join(d, "cuda-suite.phos"))
    x = json.load(open(os.path.join(d, "cuda-suite-expected.json")))
    common(t, "suite")
    launches = bodies(t, "launch")
    exp = x["launches"]
    check(len(launches) == len(exp), "suite: %d launches recorded, %d expected" % (len(launches), len(exp)))
    for (i, l), e in zip(launches, exp):
        f = t.functions.get(l["function"], {})
        ok = (f.get("mangled_name") == e["kernel"] and l.get("params", b"").hex() == e["params"] and
              layout_bytes(f) == e["param_bytes"] and l.get("grid_x") == e["grid"][0] and l.get("block_x") == e["block"][0] and
              l.get("stream", 0) == e["stream"] and (l.get("kind", 0) == 3) == e["graph_node"])
        check(ok, "suite: launch %d %s params %d bytes stream %d%s" % (
            e["index"], e["kernel"], e["param_bytes"], e["stream"], " (graph node)" if e["graph_node"] else "") +
            ("" if ok else " -- got %s params %s stream %s kind %s" % (f.get("mangled_name"), l.get("params", b"").hex(), l.get("stream", 0), l.get("kind", 0))))
    allocs = {b["address"]: b for _, b in bodies(t, "alloc")}
    for a in x["allocations"]:
        got = allocs.get(a["address"])
        kind = {"plain": 0, "host_pinned": 4}[a["kind"]]
        check(got is not None and got["size"] == a["size"] and got.get("kind", 0) == kind,
              "suite: allocation %s %d bytes (%s)" % (a["name"], a["size"], a["kind"]))
    copies = bodies(t, "memcpy")
    kinds = {"H2D": 1, "D2H": 2}
    got = [(b["kind"], b["bytes"], b.get("stream", 0)) for _, b in copies]
    want = [(kinds[c["kind"]], c["bytes"], c["stream"]) for c in x["copies"]]
    check(got == want, "suite: %d copies with directions, sizes, streams as issued%s" % (len(want), "" if got == want else " -- got %s want %s" % (got, want)))
    if got == want:
        check(all(bool(b.get("async")) for (_, b), c in zip(copies, x["copies"]) if c["async"]), "suite: the cudaMemcpyAsync copies are async")
    table = next(a["address"] for a in x["allocations"] if a["name"] == "table")
    bs = [next(a["address"] for a in x["allocations"] if a["name"] == "b%d" % j) for j in range(4)]
    tcopy = [b for _, b in copies if b.get("dst") == table]
    check(len(tcopy) == 1 and list(struct.unpack("<4Q", tcopy[0].get("payload", b"\0" * 32))) == bs,
          "suite: payload of the pointer-table copy holds the four buffer addresses")
    sets = bodies(t, "memset")
    check([b["bytes"] for _, b in sets] == [m["bytes"] for m in x["memsets"]], "suite: memsets %s" % [b["bytes"] for _, b in sets])
    graphs = bodies(t, "graph_launch")
    check(len(graphs) == x["graph_launches"] and all(b.get("kernel_nodes", 0) == x["graph_kernel_nodes"] for _, b in graphs),
          "suite: %d graph launches of %d kernel nodes" % (len(graphs), x["graph_kernel_nodes"]))
    nodes = [(i, l) for i, l in launches if l.get("kind", 0) == 3]
    gidx = [i for i, _ in graphs]
    check(all(l.get("graph_launch") in gidx and l["graph_launch"] < i for i, l in nodes) and len(nodes) == 6,
          "suite: graph nodes follow and name their GraphLaunch event")
    syncs = [(b.get("kind", 0), b.get("stream", 0)) for _, b in bodies(t, "sync")]
    s1, s2 = x["streams"]["s1"], x["streams"]["s2"]
    for k, s, what in ((1, s1, "create s1"), (1, s2, "create s2"), (5, s1, "event record on s1"), (6, s2, "s2 waits event"),
                       (10, s1, "capture begin s1"), (11, s1, "capture end s1"), (7, s1, "synchronize s1"), (2, s1, "destroy s1")):
        check((k, s) in syncs, "suite: sync %s" % what)
    timed = [(i, l) for i, l in launches if l.get("kind", 0) != 3]
    check(all(0 < l.get("gpu_start_ns", 0) <= l.get("gpu_end_ns", 0) for _, l in timed), "suite: GPU start <= end on all %d direct launches" % len(timed))
    l8, l9 = launches[8][1], launches[9][1]
    check(l9.get("gpu_start_ns", 0) >= l8.get("gpu_end_ns", 1) - 2000,
          "suite: the kernel on s2 starts after the s1 kernel it waits for (%d >= %d)" % (l9.get("gpu_start_ns", 0), l8.get("gpu_end_ns", 0)))
    check(all(t.functions[l["function"]].get("module", 0) > 0 for _, l in launches), "suite: every function names its module")
    mods = [m for m in t.modules.values() if m.get("kind") == 3]
    check(len(mods) >= 1 and all(pr.fnv1a64(m["image"]) == m["hash"] for m in mods if m.get("image")), "suite: fatbin module images with matching FNV-1a")
    check(sums["cuda_suite"][0] == sums["cuda_suite"][1], "suite: output bitwise equal with and without the recorder (%s)" % (sums["cuda_suite"],))
    return t


def check_ptx(d, sums, ptx_path):
    print("ptx-driver.phos")
    t = pr.read_trace(os.path.join(d, "ptx-driver.phos"))
    common(t, "ptx")
    ptx = open(ptx_path, "rb").read()
    mods = list(t.modules.values())
    check(len(mods) == 1 and mods[0]["kind"] == 1 and mods[0].get("image") == ptx and mods[0]["hash"] == pr.fnv1a64(ptx)
          and mods[0]["origin"] == "cuModuleLoadDataEx", "ptx: the PTX module image is the file's text, byte for byte")
    launches = bodies(t, "launch")
    names = [fname(t, l["function"]) for _, l in launches]
    check(names == ["stencil3"] * 20 + ["saxpy", "block_sum"], "ptx: 20 stencil3 + saxpy + block_sum launches in order")
    allocs = [b for _, b in bodies(t, "alloc") if b.get("kind", 0) == 0]
    check([b["size"] for b in allocs] == [262144, 262144, 262144, 1024], "ptx: allocation sizes %s" % [b["size"] for b in allocs])
    a, bb, xx = allocs[0]["address"], allocs[1]["address"], allocs[2]["address"]
    ok = all(struct.unpack_from("<QQif", l["params"]) == ((bb, a, 65536, struct.unpack("<f", struct.pack("<f", 0.2))[0]) if s & 1 else
                                                          (a, bb, 65536, struct.unpack("<f", struct.pack("<f", 0.2))[0]))
             for s, (_, l) in enumerate(launches[:20]))
    check(ok, "ptx: stencil parameters alternate the ping-pong buffers (24 bytes each)")
    sx = launches[20][1]["params"]
    check(len(sx) == 24 and struct.unpack_from("<QQfi", sx) == (xx, a, 0.5, 65536), "ptx: saxpy parameters from the extra buffer")
    cps = [(b["kind"], b["bytes"], bool(b.get("async"))) for _, b in bodies(t, "memcpy")]
    check(cps == [(1, 262144, True), (1, 262144, True), (2, 262144, True), (2, 1024, True)], "ptx: async copies %s" % cps)
    check(sums["ptx_driver"][0] == sums["ptx_driver"][1], "ptx: output bitwise equal with and without the recorder (%s)" % (sums["ptx_driver"],))


def check_torch(d, sums):
    print("pytorch-train.phos")
    t = pr.read_trace(os.path.join(d, "pytorch-train.phos"))
    common(t, "torch")
    launches = bodies(t, "launch")
    check(len(launches) > 100, "torch: %d launches" % len(launches))
    named = all(fname(t, l["function"]) != "?" for _, l in launches)
    check(named, "torch: every launch names its function")
    sized = [l for _, l in launches if t.functions[l["function"]].get("params")]
    check(len(sized) >= 0.95 * len(launches) and all(len(l.get("params", b"")) == layout_bytes(t.functions[l["function"]]) for l in sized),
          "torch: parameter bytes match the layout (%d of %d launches have one)" % (len(sized), len(launches)))
    cps = [b for _, b in bodies(t, "memcpy") if b["kind"] == 1]
    check(sum(1 for b in cps if b["bytes"] == 64 * 3 * 32 * 32 * 4) == 8, "torch: 8 input-batch copies of 786432 bytes (H2D)")
    check(sum(1 for b in cps if b["bytes"] == 64 * 8) >= 8, "torch: label copies of 512 bytes (H2D)")
    check(len(bodies(t, "alloc")) >= 1, "torch: caching-allocator segments recorded (%d allocations)" % len(bodies(t, "alloc")))
    check(t.header.get("runtime_version", 0) >= 13000, "torch: runtime version %d from cudart's cuGetProcAddress calls" % t.header.get("runtime_version", 0))
    check(sums["torch"][0] == sums["torch"][1], "torch: parameters and losses bitwise equal with and without the recorder (%s)" % (sums["torch"],))


def check_jcuda(d, sums, ptx_path):
    print("jcuda-jacobi.phos")
    t = pr.read_trace(os.path.join(d, "jcuda-jacobi.phos"))
    common(t, "jcuda")
    launches = bodies(t, "launch")
    names = [fname(t, l["function"]) for _, l in launches]
    check(names.count("jacobi_step") == 60 and names.count("row_residual") == 6 and len(names) == 66, "jcuda: 60 jacobi_step + 6 row_residual launches")
    steps = [l for _, l in launches if fname(t, l["function"]) == "jacobi_step"]
    check(all(len(l["params"]) == 20 and (l["grid_x"], l["grid_y"], l["block_x"], l["block_y"]) == (16, 16, 16, 16) for l in steps),
          "jcuda: jacobi_step 20 parameter bytes, grid 16x16, block 16x16")
    ptx = open(ptx_path, "rb").read()
    mods = list(t.modules.values())
    check(len(mods) == 1 and mods[0]["kind"] == 1 and mods[0].get("image") == ptx, "jcuda: PTX module image byte for byte")
    al = [(b.get("kind", 0), b["size"]) for _, b in bodies(t, "alloc")]
    check(al == [(0, 262144), (0, 262144), (0, 1024), (4, 1024)], "jcuda: allocations %s" % al)
    cps = [(b["kind"], b["bytes"], bool(b.get("async"))) for _, b in bodies(t, "memcpy")]
    check(cps == [(1, 262144, False)] * 2 + [(2, 1024, True)] * 6 + [(2, 262144, False)], "jcuda: copies %s" % cps)
    check(sums["jcuda"][0] == sums["jcuda"][1], "jcuda: output bitwise equal with and without the recorder (%s)" % (sums["jcuda"],))


def main():
    d = sys.argv[1]
    sums = {}
    for line in open(os.path.join(d, "checksums.txt")):
        name, plain, rec = line.split()
        sums[name] = (plain, rec)
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "sample-traces", "programs")
    for name, fn in (("cuda_suite", lambda: check_suite(d, sums)),
                     ("ptx_driver", lambda: check_ptx(d, sums, os.path.join(root, "ptx", "ptx_kernels.ptx"))),
                     ("torch", lambda: check_torch(d, sums)),
                     ("jcuda", lambda: check_jcuda(d, sums, os.path.join(root, "jcuda", "jacobi.ptx")))):
        try:
            if name not in sums:
                check(False, "%s: no checksums (program did not run)" % name)
                continue
            fn()
        except Exception as e:
            check(False, "%s: check raised %s: %s" % (name, type(e).__name__, e))
    print("gpu_check: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
