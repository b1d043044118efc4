#!/usr/bin/env python3
"""GPU check of what issue 16 added to the recorder, against the truth sample-traces/programs/hopper_extras.cu writes
about its own calls (by construction): CUDA arrays and their copies (driver and runtime API), host functions in
streams, two tensor maps and the TMA kernel that takes them by value, the calls counted as unrecorded; for the
recording by LD_PRELOAD and the one by CUDA_INJECTION64_PATH. With --suite DIR it also runs gpu_check.py's CUDA C
suite checks on DIR (the suite recorded by injection).

    python3 hopper_check.py OUTDIR [--suite DIR] [--inject-expected JSON]
        # OUTDIR: hopper-extras.phos, hopper-extras-inject.phos, hopper-extras-expected.json, checksums.txt;
        # JSON: what the injected run wrote about its own calls
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools"))
sys.path.insert(0, HERE)
import phos_read as pr  # noqa: E402
import gpu_check as gc  # noqa: E402


def check(cond, what):
    return gc.check(cond, what)


def events(t, name, pred=lambda b: True):
    return [(i, b) for i, e in enumerate(t.events) for n, b in [pr.body(e)] if n == name and pred(b)]


def check_trace(t, x, label):
    gc.common(t, label)
    arrays = {b["handle"]: b for _, b in events(t, "array", lambda b: b.get("op") == 1)}
    destroyed = [b["handle"] for _, b in events(t, "array", lambda b: b.get("op") == 2)]
    a1, a1b, a3, ra = x["a1"], x["a1b"], x["a3"], x["ra"]
    check(arrays.get(a1, {}).get("bytes") == 16384 and arrays.get(a1b, {}).get("bytes") == 16384 and arrays[a1].get("width") == 4096,
          "%s: cuArrayCreate 1D 4096 floats = 16384 bytes (twice)" % label)
    check(arrays.get(a3, {}).get("bytes") == 512 and (arrays[a3].get("width"), arrays[a3].get("height"), arrays[a3].get("depth")) == (8, 4, 2),
          "%s: cuArray3DCreate 8x4x2 float2 = 512 bytes" % label)
    check(arrays.get(ra, {}).get("bytes") == x["W"] * x["H"] * 4, "%s: cudaMallocArray %dx%d float = %d bytes (%s)" % (
        label, x["W"], x["H"], x["W"] * x["H"] * 4, arrays.get(ra)))
    check(sorted(destroyed) == sorted([a1, a1b, a3, ra]), "%s: the four arrays destroyed (cuArrayDestroy, cudaFreeArray)" % label)
    acopies = [b for _, b in events(t, "memcpy", lambda b: b.get("kind", 0) >= 7)]
    got = [(b["kind"], b.get("src"), b.get("dst"), b["bytes"], b.get("src_array_offset", 0), b.get("dst_array_offset", 0)) for b in acopies]
    want = [(7, x["h"], a1, 16384, 0, 0), (9, x["src"], a1, 4096, 0, 8192), (11, a1, a1b, 16384, 0, 0), (10, a1b, x["dst"], 8192, 4096, 0),
            (8, a1b, x["hb"], 16384, 0, 0), (7, x["h"] + 4096, a1, 4096, 0, 0), (8, a1, x["hb"], 4096, 0, 0)]
    check(got[:7] == want, "%s: the 1D array copies, kinds, operands, bytes and offsets as issued\n    got  %s\n    want %s" % (label, got[:7], want))
    c3 = [b for b in acopies[7:] if b.get("dst") == a3]
    check(len(c3) == 1 and c3[0]["kind"] == 7 and c3[0]["bytes"] == 512 and (c3[0].get("width"), c3[0].get("height"), c3[0].get("depth")) == (64, 4, 2),
          "%s: cuMemcpy3D host -> 3D array: H2A 512 bytes, extent 64 B x 4 x 2 (%s)" % (label, c3))
    to_ra = [b for b in acopies if b.get("dst") == ra]
    from_ra = [b for b in acopies if b.get("src") == ra]
    check(len(to_ra) == 1 and to_ra[0]["kind"] == 7 and to_ra[0]["bytes"] == x["W"] * 4 * x["H"],
          "%s: cudaMemcpy2DToArray became one H2A copy of %d bytes (%s)" % (label, x["W"] * 4 * x["H"], to_ra))
    check(len(from_ra) == 1 and from_ra[0]["kind"] == 10 and from_ra[0]["dst"] == x["A"] and from_ra[0]["bytes"] == x["W"] * 4 * x["H"]
          and from_ra[0].get("width") == x["W"] * 4 and from_ra[0].get("height") == x["H"],
          "%s: cudaMemcpy2DFromArray became one A2D copy into A, extent %d B x %d (%s)" % (label, x["W"] * 4, x["H"], from_ra))
    hf = [b for _, b in events(t, "sync", lambda b: b.get("kind") in (12, 13))]
    # the runtime's calls reach the driver with cudart's own trampoline and data; the driver-API calls with the program's
    check([(b["kind"], b.get("stream")) for b in hf] == [(12, x["s1"]), (13, x["s1"]), (12, x["s1"]), (13, x["s1"])],
          "%s: cudaLaunchHostFunc, cudaStreamAddCallback, cuLaunchHostFunc, cuStreamAddCallback: HOST_FUNCTION / "
          "STREAM_CALLBACK on their stream, in order (%s)" % (label, [(b["kind"], b.get("stream")) for b in hf]))
    check(len(hf) == 4 and (hf[2].get("event"), hf[2].get("user_data"), hf[3].get("event"), hf[3].get("user_data")) ==
          (x["host_fn"], x["host_data"], x["drv_cb"], x["host_data"]),
          "%s: the driver-API host function and callback carry the program's function and data" % label)
    check(x["host_calls"] == 112, "%s: the four host functions ran: 1 + 10 + 1 + 100 = %d" % (label, x["host_calls"]))
    tms = [b for _, b in events(t, "tensor_map")]
    ext = x["extent"]
    ok = len(tms) == 2
    for b, addr, key in zip(tms, (x["A"], x["B"]), ("tin", "tout")):
        ok = ok and (b.get("kind"), b.get("address"), b.get("data_type"), b.get("rank"), b.get("dims"), b.get("strides"), b.get("box"),
                     b.get("extent"), b.get("map", b"").hex()) == (1, addr, 7, 2, [x["W"], x["H"]], [x["pitch"]], [64, 32], ext, x[key])
    check(ok, "%s: two cuTensorMapEncodeTiled: address, FLOAT32, dims %dx%d, stride %d, box 64x32, extent %d (= allocation - %d), map bytes" % (
        label, x["W"], x["H"], x["pitch"], ext, x["pitch"] * x["H"] - ext))
    tma = [(i, b) for i, b in events(t, "launch") if "tma_scale" in t.functions.get(b["function"], {}).get("mangled_name", "")]
    if check(len(tma) == 1, "%s: one tma_scale launch" % label):
        p = tma[0][1].get("params", b"")
        lay = [(q.get("offset", 0), q["size"]) for q in t.functions[tma[0][1]["function"]].get("params", [])]
        check(len(lay) == 3 and [s for _, s in lay] == [128, 128, 4], "%s: tma_scale layout: two 128-byte maps and a float %s" % (label, lay))
        if len(lay) == 3:
            (o0, _), (o1, _), (o2, _) = lay
            check(p[o0:o0 + 128].hex() == x["tin"] and p[o1:o1 + 128].hex() == x["tout"] and p[o2:o2 + 4] == b"\x00\x00\x00\x40",
                  "%s: tma_scale's parameters hold both maps by value at their offsets %d, %d, and f = 2.0" % (label, o0, o1))
        check(0 < tma[0][1].get("gpu_start_ns", 0) < tma[0][1].get("gpu_end_ns", 0), "%s: tma_scale timed" % label)
    check(x["tma_mismatches"] == 0, "%s: the TMA kernel computed B = 2 A" % label)
    unrec = {u["call"]: u["count"] for u in (t.end or {}).get("unrecorded", [])}
    check(unrec.get("cuStreamWriteValue32", 0) == x["write_values"] and unrec.get("cuGraphLaunch memcpy/memset/mem-op nodes") == 1,
          "%s: TraceEnd counts %d write-value call(s) and 1 graph memcpy node not recorded: %s" % (label, x["write_values"], unrec))


def main():
    d = sys.argv[1]
    x = json.load(open(os.path.join(d, "hopper-extras-expected.json")))
    sums = {}
    for line in open(os.path.join(d, "checksums.txt")):
        name, plain, rec = line.split()
        sums[name] = (plain, rec)
    # the injected run has addresses of its own: its program wrote them to another file (--inject-expected)
    xi = x
    if "--inject-expected" in sys.argv:
        xi = json.load(open(sys.argv[sys.argv.index("--inject-expected") + 1]))
    for name, trace, xx in (("hopper_extras", "hopper-extras.phos", x), ("hopper_inject", "hopper-extras-inject.phos", xi)):
        print(trace)
        try:
            t = pr.read_trace(os.path.join(d, trace))
            check_trace(t, xx, name)
            check(name in sums and sums[name][0] == sums[name][1] != "none", "%s: output bitwise equal with and without the recorder %s" % (name, sums.get(name)))
        except Exception as e:
            check(False, "%s: check raised %s: %s" % (name, type(e).__name__, e))
    if "--suite" in sys.argv:
        sd = sys.argv[sys.argv.index("--suite") + 1]
        print("cuda-suite.phos recorded by CUDA_INJECTION64_PATH")
        ssums = {}
        for line in open(os.path.join(sd, "checksums.txt")):
            name, plain, rec = line.split()
            ssums[name] = (plain, rec)
        try:
            gc.check_suite(sd, ssums)
        except Exception as e:
            check(False, "injected suite: check raised %s: %s" % (type(e).__name__, e))
    print("hopper_check: %d passed, %d failed" % (gc.passed, gc.failed))
    return 1 if gc.failed else 0


if __name__ == "__main__":
    sys.exit(main())
