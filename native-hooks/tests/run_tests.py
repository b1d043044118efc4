#!/usr/bin/env python3
"""CPU-only tests of libphos_recorder.so (run by `make -C native-hooks test`).

They run the real recorder, preloaded, over a fake libcuda (tests/fake_cuda.c) and a cudart-like test program
(tests/fake_app.c), then read the traces back with the independent reader tools/phos_read.py. Covered: format
primitives and framing, damage handling, the dlsym/cuGetProcAddress table logic, what each intercepted call records,
chunking of many events, flushing on SIGSEGV and the intact prefix after SIGKILL, the environment variables, the
output file's guarantees (two processes under one name, re-recording, a FIFO, a full disk), a full event ring and the
live attach socket (late readers, detach/reattach, SIGKILL, a stalled reader, another uid, PHOS_ATTACH=0).
Prints `N passed, N failed` and exits non-zero on any failure.
"""
import argparse
import glob
import csv
import json
import os
import re
import resource
import signal
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools"))
import phos_read as pr  # noqa: E402

passed = failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL: " + what)
    return cond


def u64(b, off):
    return struct.unpack_from("<Q", b, off)[0]


def u32(b, off):
    return struct.unpack_from("<I", b, off)[0]


class Env:
    def __init__(self, build):
        self.build = os.path.abspath(build)
        self.lib = os.path.join(self.build, "libphos_recorder.so")
        self.app = os.path.join(self.build, "fake_app")
        self.tmp = tempfile.mkdtemp(prefix="phos-test-")

    def env_of(self, record=True, env=None):
        e = dict(os.environ)
        e.pop("LD_PRELOAD", None)
        for k in list(e):
            if k.startswith("PHOS_"):
                del e[k]
        e["LD_LIBRARY_PATH"] = os.path.join(self.build, "fake")
        e["PHOS_TIMING_SOURCE"] = "events"  # the fake driver has no CUPTI
        if record:
            e["LD_PRELOAD"] = self.lib
        e.update(env or {})
        return e

    def run(self, args, record=True, env=None, timeout=120, **kw):
        return subprocess.run(args, env=self.env_of(record, env), capture_output=True, text=True, timeout=timeout, **kw)

    def trace_path(self, name):
        return os.path.join(self.tmp, name)


def test_format(env):
    for codec in (0, 1):
        path = env.trace_path("format%d.phos" % codec)
        r = subprocess.run([os.path.join(env.build, "test_format"), path, str(codec)], capture_output=True, text=True)
        check(r.returncode == 0 and " 0 failed" in r.stdout, "test_format codec %d: %s" % (codec, r.stdout.strip()))
        t = pr.read_trace(path)
        check(t.header["pid"] == 4242 and t.header["argv"] == ["prog", "arg"], "format: header fields read back")
        m = t.modules[1]
        check(pr.fnv1a64(m["image"]) == m["hash"] and m["image_size"] == 4096, "format: module image and FNV-1a hash")
        ls = [e["launch"] for e in t.events]
        check(len(ls) == 3 and [l["grid_x"] for l in ls] == [1, 2, 3], "format: three launches in order")
        check(ls[2]["params"] == bytes([1, 2, 3, 4, 5, 6, 7, 8, 2, 0, 0, 0]), "format: parameter bytes")
        check(t.end["event_count"] == 3 and not t.warnings, "format: clean end, no warnings (%s)" % t.warnings)
        data = open(path, "rb").read()
        # the module chunk is second: find it and check its codec byte
        off = 16 + 24 + u32(data, 16 + 8)
        check(data[off:off + 4] == b"PCHK" and data[off + 6] == codec, "format: module chunk codec %d" % codec)
        if codec:
            check(u32(data, off + 8) < u32(data, off + 12), "format: zstd chunk is smaller than raw")
    # damage: truncation at every region keeps the prefix and names the offset
    path = env.trace_path("format0.phos")
    data = open(path, "rb").read()
    for cut in (len(data) - 1, len(data) - 30, 16 + 24 + u32(data, 24) + 10):
        p2 = env.trace_path("cut.phos")
        open(p2, "wb").write(data[:cut])
        t = pr.read_trace(p2)
        check(t.header is not None and any("offset" in w for w in t.warnings), "damage: truncated at %d loads with offset warning" % cut)
    bad = bytearray(data)
    bad[-5] ^= 0xFF  # inside the TraceEnd payload
    p2 = env.trace_path("crc.phos")
    open(p2, "wb").write(bad)
    t = pr.read_trace(p2)
    check(len(t.events) == 3 and any("CRC" in w for w in t.warnings), "damage: payload CRC mismatch detected, prefix kept")
    for blob, msg in ((b"NOTPHOS!" + data[8:], "not a .phos trace"), (data[:8] + b"\x02\0\0\0" + data[12:], "format version 2 is not the one this reader knows")):
        open(p2, "wb").write(blob)
        try:
            pr.read_trace(p2)
            check(False, "damage: expected error '%s'" % msg)
        except pr.DecodeError as e:
            check(msg in str(e), "damage: error names the problem (%s)" % e)
    open(p2, "wb").write(data[:16 + 10])
    try:
        pr.read_trace(p2)
        check(False, "damage: first chunk bad must fail")
    except pr.DecodeError as e:
        check("offset 16" in str(e), "damage: bad first chunk names offset 16 (%s)" % e)


def load_basic(env, extra_env=None, name="basic", record=True):
    out = env.trace_path(name + "-%p.phos")
    exp = env.trace_path(name + ".json")
    e = {"PHOS_TRACE_OUT": out}
    e.update(extra_env or {})
    r = env.run([env.app, "basic", exp], env=e, record=record)
    files = glob.glob(env.trace_path(name + "-*.phos"))
    return r, json.load(open(exp)), files


def test_basic(env):
    r0 = env.run([env.app, "basic", env.trace_path("plain.json")], record=False)
    check(r0.returncode == 0 and r0.stdout.startswith("checksum"), "fake_app runs without the recorder: %s %s" % (r0.stdout, r0.stderr))
    r, x, files = load_basic(env)
    check(r.returncode == 0 and x["failures"] == 0, "fake_app table checks under the recorder (rc %d): %s" % (r.returncode, r.stderr.strip()))
    check(r.stdout == r0.stdout, "outputs equal with and without the recorder (%s vs %s)" % (r.stdout.strip(), r0.stdout.strip()))
    check(len(files) == 1 and files[0].endswith("-%d.phos" % 0) is False, "one trace file, %%p replaced: %s" % files)
    t = pr.read_trace(files[0])
    check(t.header["pid"] == int(files[0].rsplit("-", 1)[1].split(".")[0]), "header pid matches %p in the file name")
    check(t.header["device_name"] == "Fake GPU" and t.header["cc_major"] == 9 and t.header["driver_version"] == 13000,
          "header device fields from the driver")
    check(t.header["runtime_version"] == 13000, "runtime version from cudaVersion of cuGetProcAddress calls")
    check(t.header.get("argv", [""])[0].endswith("fake_app") and t.header["argv"][1] == "basic", "header argv %s" % t.header.get("argv"))
    check(t.header.get("working_directory") == os.getcwd(), "header working directory (field 46) is the process's: %s"
          % t.header.get("working_directory"))
    check(not t.warnings and t.end["event_count"] == len(t.events), "clean close: %s" % t.warnings)
    kinds = [pr.body(e)[0] for e in t.events]
    expected = ["alloc", "alloc", "alloc", "memcpy", "memcpy", "memcpy", "launch", "launch", "launch", "sync", "sync",
                "launch", "sync", "sync", "sync", "sync", "sync", "graph_launch", "launch", "launch", "graph_launch",
                "launch", "launch", "alloc", "memset", "free", "memcpy", "free"]
    check(kinds == expected, "event sequence\n  got  %s\n  want %s" % (kinds, expected))
    if kinds != expected:
        return
    ev = [pr.body(e)[1] for e in t.events]
    check([(a.get("address"), a.get("size"), a.get("kind", 0)) for a in ev[0:3]] == [(x["x"], 4096, 0), (x["y"], 1024, 0), (x["sc"], 8, 0)],
          "allocations: addresses and sizes (via cuGetProcAddress and via the ABI name)")
    c = ev[3]
    check(c["kind"] == 1 and c["dst"] == x["x"] and c["bytes"] == 256 and pr.fnv1a64(c["payload"]) == x["hx_fnv"] and c.get("stream", 0) == 0,
          "H2D copy with payload bytes, legacy stream 0")
    check(ev[4].get("stream") == 2 and ev[4]["dst"] == x["y"], "per-thread H2D copy has stream id 2")
    check(ev[5]["payload"] == struct.pack("<f", 2.0), "4-byte H2D payload")
    fn = {f["id"]: f for f in t.functions.values()}
    l0 = ev[6]
    f0 = fn[l0["function"]]
    check(f0["mangled_name"] == "axpy" and [(p.get("offset", 0), p["size"]) for p in f0["params"]] == [(0, 8), (8, 8), (16, 4), (24, 16)],
          "axpy layout 0/8/16/24 sizes 8/8/4/16")
    p = l0["params"]
    check(len(p) == 40 and u64(p, 0) == x["x"] and u64(p, 8) == x["y"] and u32(p, 16) == 64 and u64(p, 24) == x["sc"] and u32(p, 32) == 3,
          "axpy parameter bytes from kernelParams (pointer, pointer, int, struct{ptr,int})")
    check((l0["grid_x"], l0.get("grid_y"), l0["block_x"]) == (2, 1, 32) and l0.get("kind", 0) == 0, "axpy grid/block")
    l1 = ev[7]
    f1 = fn[l1["function"]]
    check(f1["mangled_name"] == "_Z5scalePfif" and f1.get("demangled_name") == "scale(float*, int, float)", "CUkernel name and demangling")
    check([(p.get("offset", 0), p["size"]) for p in f1["params"]] == [(0, 8), (8, 4), (12, 4)],
          "CUkernel layout through cuKernelGetParamInfo after CUDA_ERROR_INVALID_HANDLE")
    check(u64(l1["params"], 0) == x["y"] and struct.unpack_from("<f", l1["params"], 12)[0] == 0.5 and len(l1["params"]) == 16,
          "parameters from the extra buffer")
    check(l1["stream"] == 2 and l1["shared_mem"] == 128, "per-thread launch stream 2, dynamic shared memory")
    f2 = fn[ev[8]["function"]]
    check(f2["mangled_name"] == "_Z6hiddenPKfPf" and len(f2["params"]) == 2, "name only cuKernelGetName knows")
    check(f0.get("module") == 1 and f1.get("module") == 2 and f2.get("module") == 2, "functions name their modules")
    check(sorted(fn) == list(range(1, len(fn) + 1)) and len(fn) == 3, "function ids dense from 1, no duplicate Function for one kernel")
    check(ev[9]["kind"] == 1 and ev[9]["stream"] == x["s1"] and ev[10]["kind"] == 3 and ev[10]["event"] == x["ev"], "stream and event create")
    check(ev[11].get("kind") == 1 and (ev[11]["grid_x"], ev[11]["grid_y"], ev[11]["block_y"]) == (4, 2, 4) and ev[11]["stream"] == x["s1"],
          "cuLaunchKernelEx kind, dims, stream")
    check([ev[i]["kind"] for i in range(12, 17)] == [5, 6, 7, 10, 11] and ev[13].get("stream", 0) == 0 and ev[12]["event"] == x["ev"],
          "record, wait, synchronize, capture begin/end")
    for gi in (17, 20):
        g = ev[gi]
        check(g["graph_exec"] == x["graph_exec"] and g.get("kernel_nodes") == 2 and g["stream"] == x["s1"], "graph launch %d" % gi)
        n1, n2 = ev[gi + 1], ev[gi + 2]
        check(n1["kind"] == 3 and n2["kind"] == 3 and n1["graph_launch"] == gi and n2["graph_launch"] == gi,
              "graph nodes expanded after GraphLaunch %d" % gi)
        check(fn[n1["function"]]["mangled_name"] == "axpy" and n1["grid_x"] == 3 and u32(n1["params"], 32) == 3 and
              fn[n2["function"]]["mangled_name"] == "_Z5scalePfif" and n2["grid_x"] == 5, "graph node functions, dims, params")
        check(n2["function"] == ev[7]["function"] and n1["function"] == ev[6]["function"],
              "a graph node's per-context CUfunction is the same Function as the CUkernel launched directly")
    plain = [e for e in ev if "function" in e and e.get("kind", 0) == 0]
    check(len(plain) == 3, "captured launches are not recorded as executed launches")
    check(ev[23]["kind"] == 1 and ev[23]["size"] == 256 and ev[23]["stream"] == 2, "async allocation (per-thread stream)")
    check(ev[24]["bytes"] == 256 and ev[24]["value"] == 0xDEADBEEF and ev[24]["element_size"] == 4, "memset D32")
    check(ev[25]["kind"] == 1 and ev[25]["address"] == x["z"], "async free keeps its kind")
    check(ev[26]["kind"] == 2 and ev[26]["src"] == x["y"] and "payload" not in ev[26], "D2H copy, no payload")
    mods = t.modules
    check(mods[1]["kind"] == 1 and mods[1]["hash"] == x["ptx_fnv"] and mods[1]["image_size"] == x["ptx_len"] and
          len(mods[1]["image"]) == x["ptx_len"], "PTX module image and hash")
    check(mods[2]["kind"] == 3 and mods[2]["hash"] == x["fatbin_fnv"] and mods[2]["image_size"] == 64 and mods[2]["origin"] == "cuLibraryLoadData",
          "fatbin behind the wrapper of cuLibraryLoadData")
    timed = [e for e in ev if ("function" in e and e.get("kind", 0) != 3) or ("bytes" in e and "src" in e)]
    check(all(0 < e.get("gpu_start_ns", 0) < e.get("gpu_end_ns", 0) for e in timed), "GPU start < end on launches and copies (timing on)")
    check(t.header["gpu_timing"] is True, "header says timing on")

    # switches
    r, x, files = load_basic(env, {"PHOS_TIMING": "0", "PHOS_PAYLOAD_LIMIT": "100", "PHOS_MODULE_IMAGE_LIMIT": "10"}, "switches")
    t = pr.read_trace(files[0])
    ev = [pr.body(e)[1] for e in t.events]
    check(not t.header.get("gpu_timing") and all("gpu_start_ns" not in e for e in ev), "PHOS_TIMING=0: no GPU times")
    cps = [e for e in ev if e.get("kind") == 1 and "src" in e]
    check([("payload" in c) for c in cps] == [False, False, True] and t.header["payload_limit"] == 100, "PHOS_PAYLOAD_LIMIT=100")
    check(all("image" not in m and m["image_size"] > 0 and m["hash"] for m in t.modules.values()),
          "PHOS_MODULE_IMAGE_LIMIT: images skipped, size and hash kept")


def load_more(env, name, record=True, extra_env=None):
    out = env.trace_path(name + "-%p.phos")
    exp = env.trace_path(name + ".json")
    e = {"PHOS_TRACE_OUT": out}
    e.update(extra_env or {})
    r = env.run([env.app, "more", exp], record=record, env=e)
    files = glob.glob(env.trace_path(name + "-*.phos"))
    return r, (json.load(open(exp)) if os.path.exists(exp) and os.path.getsize(exp) else {}), files


def check_more(t, x, how):
    """What fake_app's "more" mode must leave in a trace (issue 16), by construction of its calls."""
    kinds = [pr.body(e)[0] for e in t.events]
    expected = ["alloc", "alloc", "memcpy", "array", "array", "array", "memcpy", "memcpy", "memcpy", "memcpy", "memcpy",
                "sync", "memcpy", "memcpy", "memcpy", "memcpy", "sync", "sync", "tensor_map", "launch", "sync", "memcpy",
                "array", "array", "array"]
    if not check(kinds == expected, "%s: event sequence\n  got  %s\n  want %s" % (how, kinds, expected)):
        return
    ev = [pr.body(e)[1] for e in t.events]
    a = ev[3]
    check((a["op"], a["handle"], a["bytes"], a["width"], a["height"], a.get("depth", 0), a["format"], a["channels"]) ==
          (1, x["arr"], 1024, 64, 4, 0, 0x20, 1), "%s: cuArrayCreate: handle, 64x4 float = 1024 bytes" % how)
    a3 = ev[4]
    check((a3["handle"], a3["bytes"], a3["width"], a3["height"], a3["depth"], a3["format"], a3["channels"]) ==
          (x["arr3"], 512, 16, 4, 2, 2, 2), "%s: cuArray3DCreate: 16x4x2, 2 channels of u16 = 512 bytes" % how)
    hsrc = struct.pack("<256f", *[i * 0.5 for i in range(256)])
    c = ev[6]
    check((c["kind"], c["src"], c["dst"], c["bytes"], c.get("dst_array_offset", 0), c["payload"]) == (7, x["hsrc"], x["arr"], 512, 0, hsrc[:512]),
          "%s: cuMemcpyHtoA: H2A, array handle, payload" % how)
    c = ev[7]
    check((c["kind"], c["src"], c["dst"], c["bytes"], c["dst_array_offset"]) == (9, x["src"] + 512, x["arr"], 512, 512),
          "%s: cuMemcpyDtoA: D2A with the byte offset in the array" % how)
    c = ev[8]
    check((c["kind"], c["src"], c["dst"], c["bytes"]) == (11, x["arr"], x["arrb"], 1024), "%s: cuMemcpyAtoA" % how)
    c = ev[9]
    check((c["kind"], c["src"], c["dst"], c["bytes"], c["src_array_offset"]) == (10, x["arrb"], x["dst"], 768, 256),
          "%s: cuMemcpyAtoD with source offset 256" % how)
    c = ev[10]
    check((c["kind"], c["src"], c["dst"], c["bytes"]) == (8, x["arrb"], x["hback"], 1024), "%s: cuMemcpyAtoH" % how)
    c12, c13 = ev[12], ev[13]
    check((c12["kind"], c12["dst"], c12["stream"], c12.get("async"), c12["payload"]) == (7, x["arr3"], x["s1"], True, hsrc[512:1024]) and
          (c13["kind"], c13["src"], c13["dst"], c13["stream"], c13.get("async")) == (8, x["arr3"], x["hback"] + 512, x["s1"], True),
          "%s: async HtoA / AtoH on their stream" % how)
    c = ev[14]
    check((c["kind"], c["src"], c["dst"], c["bytes"], c["width"], c["height"], c.get("depth", 0) in (0, 1), "payload" in c) ==
          (7, x["hsrc"], x["arr"], 512, 128, 4, True, False), "%s: cuMemcpy2D host -> array: extent 128 B x 4, no payload (pitched source)" % how)
    c = ev[15]
    check((c["kind"], c["src"], c["dst"], c["bytes"], c["width"], c["height"]) == (10, x["arr"], x["dst"], 1024, 256, 4),
          "%s: cuMemcpy2D array -> device" % how)
    h, cb = ev[16], ev[17]
    check((h["kind"], h["stream"], h["event"], h["user_data"]) == (12, x["s1"], x["host_fn"], x["host_data"]),
          "%s: cuLaunchHostFunc: HOST_FUNCTION with stream, function, user data" % how)
    check((cb["kind"], cb["stream"], cb["event"], cb["user_data"]) == (13, x["s1"], x["stream_cb"], x["host_data"]),
          "%s: cuStreamAddCallback: STREAM_CALLBACK" % how)
    tm = ev[18]
    check((tm["kind"], tm["address"], tm["data_type"], tm["rank"], tm["dims"], tm["strides"], tm["box"], tm["element_strides"],
           tm["swizzle"], tm["extent"]) == (1, x["src"], 7, 2, [64, 16], [256], [32, 8], [1, 1], 3, 15 * 256 + 64 * 4),
          "%s: cuTensorMapEncodeTiled: address, type, rank, dims, strides, box, swizzle, extent %s" % (how, tm))
    check(tm["map"].hex() == x["tm"], "%s: the 128 map bytes as the driver wrote them" % how)
    l = ev[19]
    check(l["params"][:128] == tm["map"] and u64(l["params"], 128) == x["dst"] + 2048,
          "%s: the launch's parameters hold the map bytes (by value) then the output pointer" % how)
    check([e["handle"] for e in ev[22:25]] == [x["arr"], x["arrb"], x["arr3"]] and all(e["op"] == 2 for e in ev[22:25]),
          "%s: cuArrayDestroy" % how)
    unrec = {u["call"]: u["count"] for u in t.end.get("unrecorded", [])}
    check(unrec == {"cuStreamWriteValue32": 2, "cuStreamWriteValue64": 1}, "%s: TraceEnd counts the unrecorded write-value calls: %s" % (how, unrec))
    check(x["host_count"] == 11, "%s: host function and callback ran" % how)


def test_more(env):
    r0, _, _ = load_more(env, "more-plain", record=False)
    check(r0.returncode == 0 and r0.stdout.startswith("checksum"), "fake_app more without the recorder: %s" % r0.stderr)
    r, x, files = load_more(env, "more")
    check(r.returncode == 0 and x.get("failures") == 0, "fake_app more under the recorder: %s" % r.stderr.strip())
    check(r.stdout == r0.stdout, "more: outputs equal with and without the recorder")
    if not check(len(files) == 1, "more: one trace %s" % files):
        return
    t = pr.read_trace(files[0])
    check(not t.warnings, "more: clean trace %s" % t.warnings)
    check_more(t, x, "preload")
    timed = [pr.body(e)[1] for e in t.events if pr.body(e)[0] in ("launch", "memcpy")]
    check(all(0 < e.get("gpu_start_ns", 0) < e.get("gpu_end_ns", 0) for e in timed), "more: array copies and the launch are timed")


# i15-alloc: begin
def test_alloc_blocks(env):
    """An allocator's block events handed to phos_recorder_allocator_event land in the trace in issue order, as
    AllocatorBlock events (Event field 19); PHOS_TORCH_ALLOC=1 without torch says so in one line and records on."""
    r0 = env.run([env.app, "alloc-blocks", env.trace_path("ab-plain.json")], record=False)
    check(r0.returncode == 0 and r0.stdout.startswith("checksum"), "fake_app alloc-blocks without the recorder: %s" % r0.stderr)
    out, exp = env.trace_path("ab.phos"), env.trace_path("ab.json")
    r = env.run([env.app, "alloc-blocks", exp], env={"PHOS_TRACE_OUT": out, "PHOS_TORCH_ALLOC": "1"})
    x = json.load(open(exp))
    check(r.returncode == 0 and x["failures"] == 0 and x["blocks"] == 1, "alloc-blocks under the recorder: %s" % r.stderr.strip())
    check(r.stdout == r0.stdout, "alloc-blocks: outputs equal with and without the recorder")
    said = phos_lines(r.stderr, "PHOS_TORCH_ALLOC")
    check(len(said) == 1 and "no allocator block events" in said[0] and "never came up" in said[0],
          "alloc-blocks: no torch in the process is said in one line: %s" % said)
    t = pr.read_trace(out)
    check(not t.warnings, "alloc-blocks: clean trace %s" % t.warnings)
    check(t.header.get("allocator_events") == "pytorch", "alloc-blocks: header field 45 names the allocator asked for")
    seq = [(pr.body(e)[0], pr.body(e)[1]) for e in t.events]
    s0, st = x["seg"], 0x5a00
    want = [("alloc", (s0, 1 << 20)), ("allocator_block", (4, s0, 1 << 20)), ("allocator_block", (1, s0, 4096)),
            ("allocator_block", (1, s0 + 4096, 1000)), ("memset", (s0 + 4096, 1000)), ("allocator_block", (2, s0, 4096)),
            ("allocator_block", (3, s0, 4096)), ("allocator_block", (1, s0, 3072)), ("free", (s0,))]
    got = []
    for n, b in seq:
        if n == "alloc":
            got.append((n, (b.get("address"), b.get("size"))))
        elif n == "allocator_block":
            got.append((n, (b.get("action", 0), b.get("address", 0), b.get("size", 0))))
        elif n == "memset":
            got.append((n, (b.get("dst"), b.get("bytes"))))
        elif n == "free":
            got.append((n, (b.get("address"),)))
        else:
            got.append((n, ()))
    check(got == want, "alloc-blocks: events in issue order\n  got  %s\n  want %s" % (got, want))
    blocks = [b for n, b in seq if n == "allocator_block"]
    check(all(b.get("stream") == st and b.get("device", 0) == 0 for b in blocks), "alloc-blocks: stream and device kept")
    summ = pr.summary(t, out)
    check("allocator_block/BLOCK_ALLOC" in summ and "allocator block events: pytorch" in summ,
          "alloc-blocks: phos_read's summary counts them: %s" % summ)
    # without PHOS_TORCH_ALLOC: the exported function still records (any allocator may call it), nothing is said
    out2 = env.trace_path("ab2.phos")
    r2 = env.run([env.app, "alloc-blocks", env.trace_path("ab2.json")], env={"PHOS_TRACE_OUT": out2})
    check(r2.returncode == 0 and not phos_lines(r2.stderr, "PHOS_TORCH_ALLOC"),
          "alloc-blocks without PHOS_TORCH_ALLOC: silent: %s" % r2.stderr.strip())
    t2 = pr.read_trace(out2)
    check(sum(1 for e in t2.events if pr.body(e)[0] == "allocator_block") == 6 and "allocator_events" not in t2.header,
          "alloc-blocks without PHOS_TORCH_ALLOC: 6 block events, no header field 45")
# i15-alloc: end


def comparable(t):
    """Events without host times and GPU times, for comparing two recordings of one run."""
    out = []
    for e in t.events:
        n, b = pr.body(e)
        out.append((n, {k: v for k, v in b.items() if k not in ("gpu_start_ns", "gpu_end_ns")}))
    return out


def test_inject(env):
    fake = os.path.join(env.build, "fake", "libcuda.so.1")
    inj = {"CUDA_INJECTION64_PATH": env.lib, "PHOS_CUPTI": fake}
    # basic: the same events as the preloaded recorder, but from CUPTI callbacks
    r0 = env.run([env.app, "basic", env.trace_path("inj-plain.json")], record=False)
    r, x, files = load_basic(env, dict(inj, PHOS_DEBUG="1"), "inj-basic", record=False)
    check(r.returncode == 0, "injected: fake_app basic runs (rc %d): %s" % (r.returncode, r.stderr.strip()))
    check(r.stdout == r0.stdout, "injected: outputs equal with and without the recorder")
    check("loaded by CUDA_INJECTION64_PATH" in r.stderr and x.get("recorded") == 0,
          "injected: the driver loaded the recorder at cuInit (not preloaded): %s" % r.stderr.strip())
    if not check(len(files) == 1, "injected: one trace %s" % files):
        return
    ti = pr.read_trace(files[0])
    rp, xp, fp = load_basic(env, None, "inj-basic-preload")
    tp = pr.read_trace(fp[0])
    ci, cp = comparable(ti), comparable(tp)
    # handles and addresses differ between two runs: compare the shape and the fields that do not hold addresses
    def shape(c):
        return [(n, sorted(b)) for n, b in c]
    check(shape(ci) == shape(cp), "injected: same events and fields as preloaded\n  inj %s\n  pre %s" % (shape(ci), shape(cp)))
    ev = [pr.body(e)[1] for e in ti.events]
    evp = [pr.body(e)[1] for e in tp.events]
    same = [k for k in ("kind", "bytes", "size", "grid_x", "block_x", "shared_mem", "kernel_nodes", "graph_launch", "value")]
    check(all(all(a.get(k) == b.get(k) for k in same) for a, b in zip(ev, evp)),
          "injected: kinds, sizes, dims, graph links equal to the preloaded trace")
    check(ev[3]["dst"] == x["x"] and ev[3]["payload"] == evp[3]["payload"] and ev[6]["params"][16:20] == evp[6]["params"][16:20],
          "injected: addresses of this run, payloads and parameter bytes")
    check(sorted(f["mangled_name"] for f in ti.functions.values()) == sorted(f["mangled_name"] for f in tp.functions.values()) and
          [m["hash"] for m in ti.modules.values()] == [m["hash"] for m in tp.modules.values()], "injected: same functions and modules")
    check(ev[4]["stream"] == 2 and ev[7]["stream"] == 2, "injected: per-thread variants (_ptds/_ptsz callbacks) record stream 2")
    timed = [e for e in ev if ("function" in e and e.get("kind", 0) != 3) or ("bytes" in e and "src" in e)]
    check(timed and all(0 < e.get("gpu_start_ns", 0) < e.get("gpu_end_ns", 0) for e in timed),
          "injected: GPU times from the start event recorded at the callback's entry")
    # more: arrays, host functions, tensor maps, unrecorded counts, by construction as under LD_PRELOAD
    rm0, _, _ = load_more(env, "inj-more-plain", record=False)
    rm, xm, fm = load_more(env, "inj-more", record=False, extra_env=inj)
    check(rm.returncode == 0 and rm.stdout == rm0.stdout, "injected: fake_app more, outputs unchanged: %s" % rm.stderr.strip())
    if check(len(fm) == 1, "injected more: one trace %s" % fm):
        check_more(pr.read_trace(fm[0]), xm, "injected")
    # no CUPTI: one line, nothing recorded, the program unchanged
    rn, _, fn_ = load_more(env, "inj-nocupti", record=False, extra_env={"CUDA_INJECTION64_PATH": env.lib, "PHOS_CUPTI": "/nonexistent/libcupti.so",
                                                                      "LD_LIBRARY_PATH": os.path.join(env.build, "fake")})
    nocupti = not any(os.path.exists(os.path.join(d, "libcupti.so.13")) for d in ("/usr/local/cuda/lib64", "/usr/local/cuda-13.0/lib64",
                                                                                   "/usr/local/cuda/extras/CUPTI/lib64"))
    if nocupti:
        check(rn.returncode == 0 and rn.stdout == rm0.stdout and not fn_ and len(phos_lines(rn.stderr, "CUPTI")) == 1,
              "injected without CUPTI: one stderr line, no trace, output unchanged: %s" % rn.stderr)
    # preloaded and injected at once: the preloaded recorder records, the injected copy is the same library (one instance)
    rb, xb, fb = load_more(env, "inj-both", record=True, extra_env=inj)
    check(rb.returncode == 0 and rb.stdout == rm0.stdout and len(fb) == 1, "preloaded and injected: output unchanged, one trace %s" % fb)
    if fb:
        check_more(pr.read_trace(fb[0]), xb, "preloaded+injected")


def test_many(env):
    n = 100000
    for comp in ("0", "1"):
        out = env.trace_path("many%s.phos" % comp)
        t0 = time.time()
        r = env.run([env.app, "many", "/dev/null", str(n)], env={"PHOS_TRACE_OUT": out, "PHOS_TIMING": "0", "PHOS_COMPRESS": comp})
        check(r.returncode == 0, "many: exit 0 (%s)" % r.stderr)
        t = pr.read_trace(out)
        ls = [e["launch"] for e in t.events if "launch" in e]
        check(len(ls) == n and not t.warnings and t.end.get("dropped_events", 0) == 0, "many: %d launches, no drops, no warnings (%d, %s)" % (n, len(ls), t.warnings))
        check(all(u32(l["params"], 32) == (i & 0xFFFFFFFF) for i, l in enumerate(ls)), "many: launches in issue order with their params")
        nb = sum(1 for _ in iter_chunks(out) if _ == 4)
        check(nb >= 2, "many: several EventBatch chunks (%d)" % nb)
        if comp == "1":
            check(os.path.getsize(out) < os.path.getsize(env.trace_path("many0.phos")), "zstd makes the trace smaller")
        print("  many (compress %s): %d events in %.2f s, %d bytes" % (comp, len(t.events), time.time() - t0, os.path.getsize(out)))


def test_diag_skip(env):
    """i15-settle/i15-base: the diagnosis knob PHOS_DIAG_SKIP takes away exactly what it says (1: launch parameter
    bytes, 2: launch events, 4: launch events dropped by the writer), nothing else"""
    n = 2000
    base = None
    for skip in ("0", "1", "2", "4", "128"):
        out = env.trace_path("diagskip%s.phos" % skip)
        r = env.run([env.app, "many", "/dev/null", str(n)], env={"PHOS_TRACE_OUT": out, "PHOS_DIAG_SKIP": skip})
        check(r.returncode == 0, "diag skip %s: exit 0 (%s)" % (skip, r.stderr))
        t = pr.read_trace(out)
        ls = launches_of(t)
        others = sum(1 for e in t.events if "launch" not in e)
        if skip == "0":
            base, base_out = others, r.stdout
            check(len(ls) == n and all(l.get("params") for l in ls), "diag skip 0: %d launches with parameters (%d)" % (n, len(ls)))
        elif skip == "1":
            check(len(ls) == n and not any(l.get("params") for l in ls), "diag skip 1: %d launches, none with parameters" % len(ls))
        elif skip == "128":
            check(not t.events and r.stdout == base_out, "diag skip 128: every call passed through unrecorded (%d events), "
                  "the program's output unchanged" % len(t.events))
            continue
        else:
            check(not ls, "diag skip %s: no launch in the trace (%d)" % (skip, len(ls)))
        check(others == base and others > 0, "diag skip %s: the other events kept (%d, %s without the knob)" % (skip, others, base))
    # i15-base: parameter bytes of every size arrive whole, by every path: in place in the ring slot with the slot's
    # area by memcpy (default, i15-final), inline or a malloc'd copy (8, and beyond the area's 1024 bytes), i15-base's
    # stack slot copied by non-temporal stores (16), with its area by memcpy (48)
    n = 3000
    for wide in (40, 100, 600, 1024, 2000):
        for skip in ("0", "8", "16", "48"):
            out = env.trace_path("wide%d-%s.phos" % (wide, skip))
            r = env.run([env.app, "many", "/dev/null", str(n)], env={"PHOS_TRACE_OUT": out, "PHOS_DIAG_SKIP": skip,
                                                                    "FAKE_WIDE_PARAMS": str(wide)})
            check(r.returncode == 0, "wide %d skip %s: exit 0 (%s)" % (wide, skip, r.stderr))
            ls = launches_of(pr.read_trace(out))
            bad = [i for i, l in enumerate(ls) if len(l.get("params", b"")) != wide or
                   l["params"][40:] != bytes((i * 7 + j) & 0xFF for j in range(40, wide)) or
                   l["params"][24:40] != ls[0]["params"][24:32] + i.to_bytes(4, "little") + ls[0]["params"][36:40]]
            check(len(ls) == n and not bad, "wide %d skip %s: %d launches, each with its %d parameter bytes (%d differ, first %s)"
                  % (wide, skip, len(ls), wide, len(bad), bad[:3]))
    # i15-final: a by-value struct through kernelParams, gathered straight into the slot's area (616 bytes) or a
    # big-parameter block (default), staged on the stack (i15-base's event 16), a malloc'd copy (64, and beyond a
    # block's 8192 bytes); with the writer
    # held in the driver for a second (FAKE_CUDA_QUERY_BLOCK_MS), 5000 launches in flight outrun the 2048 blocks and
    # the rest are copied by malloc
    cases = [(s_, sk, {}) for s_ in (600, 1500, 3000, 8176, 9000) for sk in ("0", "16", "64")]
    cases.append((3000, "0", {"FAKE_CUDA_QUERY_BLOCK_MS": "1000"}))
    for size, skip, extra in cases:
        n = 5000 if extra else 3000
        out = env.trace_path("widekp%d-%s%s.phos" % (size, skip, "-held" if extra else ""))
        r = env.run([env.app, "many", "/dev/null", str(n)], env=dict({"PHOS_TRACE_OUT": out, "PHOS_DIAG_SKIP": skip,
                                                                      "FAKE_WIDE_KP": str(size)}, **extra))
        check(r.returncode == 0, "wide kernelParams %d skip %s%s: exit 0 (%s)" % (size, skip, " held" if extra else "", r.stderr))
        ls = [l for l in launches_of(pr.read_trace(out)) if len(l.get("params", b"")) == 16 + size]
        bad = [i for i, l in enumerate(ls) if l["params"][:8] != ls[0]["params"][:8] or l["params"][8:16] != bytes(8) or
               l["params"][16:] != bytes((i * 7 + j) & 0xFF for j in range(size))]
        check(len(ls) == n and not bad, "wide kernelParams %d skip %s%s: %d launches, each with its %d parameter bytes "
              "(%d differ, first %s)" % (size, skip, " held" if extra else "", len(ls), 16 + size, len(bad), bad[:3]))
    # i15-base: a program that outruns the writer is held back by the ring, not buffered in the writer's memory: events
    # that wait for nothing are encoded in their ring slot (before, 200,000 fast launches took the process to 118-252 MiB)
    for wide in (40, 600):
        out = env.trace_path("rss%d.phos" % wide)
        r = env.run([env.app, "many", "/dev/null", "200000"], env={"PHOS_TRACE_OUT": out, "PHOS_TIMING": "0",
                                                                 "FAKE_WIDE_PARAMS": str(wide), "FAKE_PRINT_HWM": "1"})
        m = re.search(r"VmHWM:\s*(\d+) kB", r.stderr)
        hwm = int(m.group(1)) / 1024 if m else float("inf")
        n_l = len(launches_of(pr.read_trace(out)))
        # the ring 12 MiB, the parameter area 32 MiB once every slot used it (600-byte parameters), batches, zstd
        limit = 40 if wide == 40 else 80
        check(r.returncode == 0 and n_l == 200000 and hwm < limit,
              "fast program, %d-byte parameters: all 200000 launches recorded, at most %d MiB resident (%d launches, %.1f MiB)"
              % (wide, limit, n_l, hwm))


def test_phos_record(env):
    """i15-final: phos-record's options: -o, --timing all|startup|off (PHOS_TIMING and PHOS_TIMING_SAMPLE for the
    program), and a clear one-line refusal of a wrong value or option, before the program runs"""
    rec = os.path.join(os.path.dirname(env.build), "phos-record")
    base = {"PHOS_RECORDER_LIB": env.lib}
    for timing in ("all", "startup", "off"):
        out = env.trace_path("rec-%s.phos" % timing)
        r = env.run([rec, "-o", out, "--timing", timing, "--", env.app, "many", "/dev/null", "300"], record=False, env=base)
        t = pr.read_trace(out) if os.path.exists(out) else None
        pol = t.header.get("timing_sampling") if t else None
        timed = sum(1 for l in launches_of(t) if l.get("gpu_start_ns", 0) > 0) if t else -1
        want = {"all": pol is not None and pol.get("mode", 0) == 0 and timed == 300,
                "startup": pol is not None and pol.get("mode") == 1 and pol.get("first_launches") == 10,
                "off": pol is None and timed == 0}[timing]
        check(r.returncode == 0 and t is not None and len(launches_of(t)) == 300 and want,
              "phos-record --timing %s: 300 launches, the timing asked for (policy %s, %d timed, %s)" % (timing, pol, timed, r.stderr.strip()))
    for args, says in ((["--timing", "most"], "--timing 'most': expected all, startup or off"),
                       (["--timing"], "--timing needs all, startup or off"),
                       (["-x"], "unknown option '-x'"), (["-o"], "-o needs a file name"), ([], "usage: phos-record")):
        out = env.trace_path("rec-bad.phos")
        r = env.run([rec] + args + (["--", env.app, "many", out, "10"] if args and args != ["-o"] and args != ["--timing"] else []),
                    record=False, env=base)
        check(r.returncode == 2 and says in r.stderr and r.stderr.count("\n") == 1 and not os.path.exists(out),
              "phos-record %s: exit 2 with one line saying %r, the program not run (%d, %r)" % (" ".join(args), says, r.returncode, r.stderr))


def test_timing_sample(env):
    """i15-cost: sampled GPU timing: the first PHOS_TIMING_FIRST launches of a shape and then 1 in N are timed, the
    policy is in the header; PHOS_TIMING_SAMPLE=0 times every launch and says so"""
    n = 20000
    out = env.trace_path("sampled.phos")
    r = env.run([env.app, "many", "/dev/null", str(n)], env={"PHOS_TRACE_OUT": out, "PHOS_TIMING_SAMPLE": "1", "PHOS_TIMING_NMIN": "10",
                                                            "PHOS_TIMING_NMAX": "10", "PHOS_TIMING_FIRST": "5"})
    check(r.returncode == 0, "sampled: exit 0 (%s)" % r.stderr)
    t = pr.read_trace(out)
    ls = launches_of(t)
    timed = [i for i, l in enumerate(ls) if l.get("gpu_start_ns", 0) > 0]
    pol = t.header.get("timing_sampling", {})
    check(len(ls) == n, "sampled: %d launches recorded (%d)" % (n, len(ls)))
    check(pol.get("mode") == 1 and pol.get("first_launches") == 5 and pol.get("min_interval") == 10 and pol.get("max_interval") == 10
          and pol.get("shape_key") == "function+grid+block", "sampled: the policy is in the header (%s)" % pol)
    check(timed[:5] == [0, 1, 2, 3, 4], "sampled: the shape's first 5 launches are timed (%s)" % timed[:6])
    # 1 in 10 of the other 19995 by independent draws: mean 1999.5, sd 42.4; +-6 sd
    check(1745 <= len(timed) - 5 <= 2255, "sampled: about 1 in 10 of the rest timed (%d)" % (len(timed) - 5))
    gaps = [b - a for a, b in zip(timed[5:], timed[6:])]
    check(len(set(gaps)) > 10, "sampled: the gaps between timed launches vary (random draws, no fixed stride): %d distinct" % len(set(gaps)))
    check(all(0 < l["gpu_start_ns"] < l["gpu_end_ns"] for l in ls if l.get("gpu_start_ns")) and
          all("gpu_end_ns" not in l for l in ls if not l.get("gpu_start_ns")), "sampled: timed launches have start < end, the others no times")
    # i15-cost2: sampled timing by events gates each timed launch's stream (cuStreamWaitValue32 before the start event,
    # opened by a host store after the end event); the fake's events behind a closed gate never complete, so a gate
    # left closed leaves the timed launches without GPU times
    for gate in ("1", "0", "nosupport"):
        out = env.trace_path("gated%s.phos" % gate)
        exf = env.trace_path("gated%s.json" % gate)
        e = {"PHOS_TRACE_OUT": out, "PHOS_TIMING_SAMPLE": "1", "PHOS_TIMING_SOURCE": "events", "PHOS_TIMING_NMIN": "10",
             "PHOS_TIMING_NMAX": "10", "PHOS_TIMING_FIRST": "5", "PHOS_TIMING_GATE": "0" if gate == "0" else "1"}
        if gate == "nosupport":
            e["FAKE_CUDA_NO_STREAM_MEMOPS"] = "1"
        r = env.run([env.app, "many", exf, "3000"], env=e)
        check(r.returncode == 0, "gated %s: exit 0 (%s)" % (gate, r.stderr))
        ls = launches_of(pr.read_trace(out))
        timed = [l for l in ls if l.get("gpu_start_ns", 0) > 0]
        waits = json.load(open(exf))["stream_waits"]
        check(len(ls) == 3000 and 200 <= len(timed) <= 420 and all(0 < l["gpu_start_ns"] < l["gpu_end_ns"] for l in timed),
              "gated %s: about 1 in 10 launches timed, start < end (%d of %d)" % (gate, len(timed), len(ls)))
        if gate == "1":
            # 31 calibration pairs at setup, then one wait per timed launch
            check(waits == len(timed) + 31, "gate on: one stream wait per timed launch plus 31 for calibration (%d waits, %d timed)" % (waits, len(timed)))
            # fake events tick 1000 ns per record: an empty gated pair spans 1000 ns, a launch's pair 1000 ns too: the
            # bias rule keeps half of a span under twice the bias (+-3 ns: the float milliseconds of cuEventElapsedTime)
            spans = {l["gpu_end_ns"] - l["gpu_start_ns"] for l in timed}
            check(spans and all(497 <= x <= 503 for x in spans), "gate on: the writer takes the measured event bias off (spans %s)" % sorted(spans)[:5])
        elif gate == "0":
            check(waits == 0, "PHOS_TIMING_GATE=0: no stream waits (%d)" % waits)
            check(all(997 <= l["gpu_end_ns"] - l["gpu_start_ns"] <= 1003 for l in timed), "PHOS_TIMING_GATE=0: raw event spans (about 1000 ns)")
        else:
            check(waits == 1, "cuStreamWaitValue32 unsupported: tried once at setup, then ungated (%d calls)" % waits)
    test_timing_probe(env)
    test_timing_burst(env)
    out = env.trace_path("every.phos")
    r = env.run([env.app, "many", "/dev/null", "2000"], env={"PHOS_TRACE_OUT": out, "PHOS_TIMING_SAMPLE": "0"})
    t = pr.read_trace(out)
    ls = launches_of(t)
    check(r.returncode == 0 and len(ls) == 2000 and all(l.get("gpu_start_ns", 0) > 0 for l in ls),
          "PHOS_TIMING_SAMPLE=0: every launch timed")
    check(t.header.get("timing_sampling", {}).get("mode", 0) == 0 and "timing_sampling" in t.header,
          "PHOS_TIMING_SAMPLE=0: the header says every launch is timed (%s)" % t.header.get("timing_sampling"))
    out = env.trace_path("untimed.phos")
    r = env.run([env.app, "many", "/dev/null", "100"], env={"PHOS_TRACE_OUT": out, "PHOS_TIMING": "0"})
    t = pr.read_trace(out)
    check("timing_sampling" not in t.header, "PHOS_TIMING=0: no sampling policy in the header")


def test_timing_burst(env):
    """i15-burst: PHOS_TIMING_BURST=B with CUPTI: the kernel records are switched on for B consecutive launches, all
    timed, then off until (1000 - D) / D times the burst's duration has passed (PHOS_TIMING_DUTY=D); no 1-in-N draw.
    The fake driver answers CUPTI (PHOS_CUPTI points at it) and counts the kernel kind's cuptiActivityEnable calls."""
    fake = os.path.join(env.build, "fake", "libcuda.so.1")
    out = env.trace_path("burst.phos")
    exf = env.trace_path("burst.json")
    n = 20000
    r = env.run([env.app, "many", exf, str(n)], env={"PHOS_TRACE_OUT": out, "PHOS_TIMING_SAMPLE": "1", "PHOS_CUPTI": fake,
                                                   "PHOS_TIMING_SOURCE": "auto", "FAKE_START_DELAY_MS": "300",
                                                   "PHOS_TIMING_BURST": "50", "PHOS_TIMING_DUTY": "200", "PHOS_TIMING_FIRST": "5",
                                                   "PHOS_TIMING_NMIN": "2", "PHOS_TIMING_NMAX": "2"})
    check(r.returncode == 0, "burst: exit 0 (%s)" % r.stderr)
    t = pr.read_trace(out)
    ls = launches_of(t)
    # CUPTI is set up on the writer thread after the header: launches before that are timed by events (gated, the
    # fake's 1000 ns spans less the bias) as without bursts; from then on only bursts (the fake's records: 5000 ns)
    timed = [l.get("gpu_start_ns", 0) > 0 and l["gpu_end_ns"] - l["gpu_start_ns"] == 5000 for l in ls]
    first = timed.index(True) if any(timed) else -1
    early = [i for i, l in enumerate(ls) if l.get("gpu_start_ns", 0) > 0 and not timed[i]]
    check(first >= 0 and all(i < first for i in early), "burst: before CUPTI is ready launches are timed by events, "
          "afterwards only in bursts (%d event-timed, the last at %s, first burst at %d)" % (len(early), early[-1:], first))
    runs, k = [], 0
    for i, on in enumerate(timed):
        if on:
            k += 1
        if k and (not on or i == len(timed) - 1):
            runs.append((i - k + (1 if on else 0), k))
            k = 0
    pol = t.header.get("timing_sampling", {})
    check(pol.get("mode") == 1 and pol.get("burst_launches") == 50 and pol.get("burst_duty_permille") == 200,
          "burst: the policy is in the header (%s)" % pol)
    # (the last may be cut by the end; a launch drawn by the 1-in-N rule just as CUPTI became ready is timed by it
    # in a window of its own and may touch the first burst)
    full = [x for x in runs if x[0] + x[1] < len(ls)][1:]
    check(len(ls) == n and runs and full and all(m == 50 for _, m in full) and runs[0][1] >= 50,
          "burst: timed launches come in bursts of 50 consecutive launches (%d bursts, lengths %s)"
          % (len(runs), sorted({m for _, m in runs})))
    share = sum(timed) / float(n - first)
    check(0.02 <= share <= 0.6, "burst: a duty of 200 per mille times a share of the launches near it, not 1 in 2 (%.3f)" % share)
    gaps = [b[0] - (a[0] + a[1]) for a, b in zip(runs, runs[1:])]
    check(gaps and min(gaps) > 0, "burst: bursts are separated by untimed launches (smallest gap %s)" % (min(gaps) if gaps else None))
    en = json.load(open(exf)).get("kernel_record_enables")
    end = t.end or {}
    check(len(runs) == end.get("timing_bursts") and en in (len(runs), len(runs) + 1) and end.get("timing_burst_ns", 0) > 0,
          "burst: one switch-on of kernel records per burst, counted in TraceEnd (%s enables, %d bursts, TraceEnd %s)"
          % (en, len(runs), {k: v for k, v in end.items() if "burst" in k}))
    # copies and sets: CUPTI's records and callbacks for them are on only in bursts too; between bursts CUDA events
    # time them (the fake's ungated pair: 1000 ns); in a burst the fake driver gives no copy records
    seq = [e for e in t.events if "launch" in e or "memcpy" in e]
    cps = [(k, e["memcpy"]) for k, e in enumerate(seq) if "memcpy" in e]
    def in_burst(k):
        prev = [e["launch"] for e in seq[max(0, k - 1):k] if "launch" in e]
        return bool(prev) and prev[0].get("gpu_end_ns", 0) - prev[0].get("gpu_start_ns", 0) == 5000
    outside = [c for k, c in cps if not in_burst(k)]
    check(outside and all(997 <= c.get("gpu_end_ns", 0) - c.get("gpu_start_ns", 0) <= 1003 for c in outside),
          "burst: copies between bursts are timed by CUDA events (%s)" % [c.get("gpu_end_ns", 0) - c.get("gpu_start_ns", 0) for c in outside])
    # the preset PHOS_TIMING_SAMPLE=startup: one burst of 1024 at the start (then one every 1000 times its duration,
    # none in this short run), each shape's first 10 launches
    out = env.trace_path("burst_startup.phos")
    r = env.run([env.app, "many", "/dev/null", "20000"], env={"PHOS_TRACE_OUT": out, "PHOS_TIMING_SAMPLE": "startup", "PHOS_CUPTI": fake,
                                                           "PHOS_TIMING_SOURCE": "auto", "FAKE_START_DELAY_MS": "300"})
    t = pr.read_trace(out)
    pol = t.header.get("timing_sampling", {})
    cup = [l for l in launches_of(t) if l.get("gpu_start_ns", 0) > 0 and l["gpu_end_ns"] - l["gpu_start_ns"] == 5000]
    check(r.returncode == 0 and pol.get("mode") == 1 and pol.get("first_launches") == 10 and pol.get("burst_launches") == 1024
          and pol.get("burst_duty_permille") == 1 and pol.get("burst_gap_max_ms", 0) == 0 and (t.end or {}).get("timing_bursts") == 1
          and len(cup) == 10 + 1023, "burst: PHOS_TIMING_SAMPLE=startup: the preset in the header, one burst of 1024 launches after the shape's 10th (i15-settle) "
          "(%s, %d timed by CUPTI, TraceEnd %s)" % (pol, len(cup), (t.end or {}).get("timing_bursts")))
    # i15-settle: the preset's first burst lasts until the launch shapes settle: a launch among its shape's first 10
    # starts the burst's 1024 launches again. A new shape every 500 launches, 6 shapes: one burst, from CUPTI ready to
    # 1023 launches after the 6th shape's 10th launch (index 2509), so no first launch needs a window of its own.
    # With PHOS_TIMING_FIRST_BURST_MS=0 (the earlier preset) the burst holds 1024 launches (shapes 1-3) and the first
    # launches of shapes 4-6 are timed apart, 10 each.
    def bursts_of(t):
        ls = launches_of(t)
        idx = [i for i, l in enumerate(ls) if l.get("gpu_start_ns", 0) > 0 and l["gpu_end_ns"] - l["gpu_start_ns"] == 5000]
        runs = []
        for i in idx:
            if runs and i == runs[-1][1] + 1:
                runs[-1][1] = i
            else:
                runs.append([i, i])
        return runs
    def startup_env(out, **more):
        e = {"PHOS_TRACE_OUT": out, "PHOS_TIMING_SAMPLE": "startup", "PHOS_CUPTI": fake, "PHOS_TIMING_SOURCE": "auto",
             "FAKE_START_DELAY_MS": "300"}
        e.update(more)
        return e
    for first_ms in ("", "0"):
        out = env.trace_path("burst_settle%s.phos" % first_ms)
        e = startup_env(out, FAKE_NEW_SHAPE_EVERY="500", FAKE_SHAPES="6")
        if first_ms:
            e["PHOS_TIMING_FIRST_BURST_MS"] = first_ms
            e["PHOS_TIMING_RELEASE"] = "0"   # the earlier preset kept CUPTI: its later first launches in windows of their own
        r = env.run([env.app, "many", "/dev/null", "20000"], env=e)
        t = pr.read_trace(out)
        runs = bursts_of(t)
        pol = t.header.get("timing_sampling", {})
        if not first_ms:
            check(r.returncode == 0 and pol.get("first_burst_max_ms") == 10000 and (t.end or {}).get("timing_bursts") == 1
                  and len(runs) == 1 and runs[0][0] <= 64 and runs[0][1] == 2509 + 1023,
                  "settle: the preset's first burst runs from the start to 1024 launches after the last shape's 10th "
                  "launch (2509), in one piece (%s; bursts %s)" % (pol.get("first_burst_max_ms"), runs[:8]))
        else:
            check(r.returncode == 0 and "first_burst_max_ms" not in pol and runs and runs[0][1] - runs[0][0] + 1 == 1024
                  and runs[1:] == [[1500, 1509], [2000, 2009], [2500, 2509]],
                  "settle: with PHOS_TIMING_FIRST_BURST_MS=0 the first burst holds 1024 launches and shapes 4-6's first "
                  "10 launches are timed apart (bursts %s)" % runs[:8])
    # i15-settle: PHOS_TIMING_RELEASE=1: once the first burst is over the writer releases CUPTI for good (flush,
    # unsubscribe, finalize); no burst after it. A new shape every 2000 launches comes after the first burst (over
    # 1023 launches after the first shape's 10th), so the first 10 launches of shapes 2 and 3 are timed by CUDA events;
    # TraceEnd names the interval
    out = env.trace_path("burst_release.phos")
    r = env.run([env.app, "many", "/dev/null", "8000"], env=startup_env(out, FAKE_NEW_SHAPE_EVERY="2000", FAKE_SHAPES="3",
                FAKE_LAUNCH_GAP_US="10", PHOS_TIMING_RELEASE="1", PHOS_DEBUG="1"))
    t = pr.read_trace(out)
    runs = bursts_of(t)
    ls = launches_of(t)
    ev = [i for i, l in enumerate(ls) if l.get("gpu_start_ns", 0) > 0 and l["gpu_end_ns"] - l["gpu_start_ns"] != 5000]
    gaps = (t.end or {}).get("timing_gaps", [])
    check(r.returncode == 0 and t.header.get("timing_sampling", {}).get("release_after_first_burst") == 1
          and runs == [[runs[0][0], 9 + 1023]] and runs[0][0] <= 64 and ev == list(range(2000, 2010)) + list(range(4000, 4010))
          and len(gaps) == 1 and gaps[0].get("reason") == "CUPTI released after the first timing burst"
          and "first timing burst over: cupti flushed,kinds-off,unsubscribed,finalized" in r.stderr,
          "settle: PHOS_TIMING_RELEASE=1 releases CUPTI after the first burst; a later shape's first launches are timed "
          "by events (bursts %s, event-timed %s, gaps %s, %s)" % (runs[:4], ev[:12], gaps, r.stderr[-300:]))
    # copies and sets after the release carry no GPU time (PHOS_TIMING_RELEASE_COPIES=1: timed by CUDA events)
    for copies in ("", "1"):
        out = env.trace_path("burst_release_copies%s.phos" % copies)
        e = startup_env(out, FAKE_LAUNCH_GAP_US="10", PHOS_TIMING_RELEASE="1")
        if copies:
            e["PHOS_TIMING_RELEASE_COPIES"] = copies
        r = env.run([env.app, "many", "/dev/null", "3000"], env=e)
        t = pr.read_trace(out)
        last = [ev["memcpy"] for ev in t.events if "memcpy" in ev][-1:]
        timed = bool(last) and last[0].get("gpu_end_ns", 0) > last[0].get("gpu_start_ns", 0) > 0
        check(r.returncode == 0 and bool(last) and timed == bool(copies),
              "settle: the copy after the release is %s (%s)" % ("timed by events with PHOS_TIMING_RELEASE_COPIES=1" if copies else "untimed", last))
    # a burst also ends after PHOS_TIMING_BURST_MS, whatever its launches (the slow first launches of a process)
    out = env.trace_path("burst_ms.phos")
    r = env.run([env.app, "many", "/dev/null", "200000"], env={"PHOS_TRACE_OUT": out, "PHOS_TIMING_SAMPLE": "1", "PHOS_CUPTI": fake,
                                                            "PHOS_TIMING_SOURCE": "auto", "FAKE_START_DELAY_MS": "300",
                                                            "PHOS_TIMING_BURST": "1000000",
                                                            "PHOS_TIMING_BURST_MS": "1", "PHOS_TIMING_DUTY": "500"})
    t = pr.read_trace(out)
    evs = [e for e in t.events if "launch" in e]
    ls = [e["launch"] for e in evs]
    cup = [i for i, l in enumerate(ls) if l.get("gpu_start_ns", 0) > 0 and l["gpu_end_ns"] - l["gpu_start_ns"] == 5000]
    bursts, cur = [], []
    for i in cup:
        if cur and i != cur[-1] + 1:
            bursts.append(cur)
            cur = []
        cur.append(i)
    if cur:
        bursts.append(cur)
    spans = sorted(evs[b[-1]]["host_ns"] - evs[b[0]]["host_ns"] for b in bursts)
    end = t.end or {}
    check(r.returncode == 0 and len(bursts) >= 2 and len(bursts) == end.get("timing_bursts") and t.header["timing_sampling"].get("burst_max_ms") == 1
          and spans[len(spans) // 2] <= 2000000, "burst: PHOS_TIMING_BURST_MS=1 ends a burst of up to 1000000 launches after 1 ms "
          "(%d bursts, TraceEnd %s, median %d ns from its first to its last launch)" % (len(bursts), end.get("timing_bursts"), spans[len(spans) // 2] if spans else -1))


def test_timing_probe(env):
    """i15-timing: PHOS_TIMING_PROBE=1: each gated timed launch is followed, inside its gate, by the recorder's empty
    probe kernel and a third event; the writer takes GPU time = kernel span - (median of the last 63 probe spans, or
    with PHOS_TIMING_PROBE=pair the launch's own) + PHOS_TIMING_PROBE_NS, says so in the header (TimingSampling fields
    20-26) and PHOS_TIMING_DIAG lists both spans per timed launch. The fake's events tick 1000 ns per record, so each
    span is 1000 ns and every estimate is PHOS_TIMING_PROBE_NS."""
    for case in ("probe", "pair", "noprobe-kernel"):
        out = env.trace_path("probe_%s.phos" % case)
        exf = env.trace_path("probe_%s.json" % case)
        diag = env.trace_path("probe_%s.csv" % case)
        e = {"PHOS_TRACE_OUT": out, "PHOS_TIMING_SAMPLE": "1", "PHOS_TIMING_SOURCE": "events", "PHOS_TIMING_NMIN": "10",
             "PHOS_TIMING_NMAX": "10", "PHOS_TIMING_FIRST": "5", "PHOS_TIMING_PROBE": "pair" if case == "pair" else "1",
             "PHOS_TIMING_PROBE_NS": "250",
             "PHOS_TIMING_DIAG": diag}
        if case == "noprobe-kernel":
            e["FAKE_CUDA_NO_PROBE"] = "1"
        else:
            e["FAKE_CUDA_SLOW_PROBE"] = "7"   # every 7th probe spans 6000 ns: the median of the recent ones ignores it
        r = env.run([env.app, "many", exf, "3000"], env=e)
        check(r.returncode == 0, "%s: exit 0 (%s)" % (case, r.stderr))
        t = pr.read_trace(out)
        ls = launches_of(t)
        timed = [l for l in ls if l.get("gpu_start_ns", 0) > 0]
        x = json.load(open(exf))
        spans = sorted({l["gpu_end_ns"] - l["gpu_start_ns"] for l in timed})
        pol = t.header.get("timing_sampling", {})
        rows = list(csv.DictReader(open(diag)))
        check(len(ls) == 3000 and 200 <= len(timed) <= 420, "%s: about 1 in 10 launches timed (%d of %d)" % (case, len(timed), len(ls)))
        check(len(rows) == len(timed) and all(r["kernel"] and r["span_ns"] == "1000" for r in rows),
              "%s: PHOS_TIMING_DIAG has one line per timed launch with its raw span (%d lines, %d timed, first %s)" % (
                  case, len(rows), len(timed), rows[:1]))
        if case in ("probe", "pair"):
            check(x["probe_launches"] == len(timed), "probe: one probe kernel per timed launch (%d probes, %d timed)" % (x["probe_launches"], len(timed)))
            check(x["stream_waits"] == len(timed) + 31, "probe: the probe runs inside the launch's gate (%d waits)" % x["stream_waits"])
            slow = [i for i, r in enumerate(rows) if r["probe_span_ns"] == "6000"]
            check(len(slow) == len(rows) // 7 and all(r["probe_span_ns"] in ("1000", "6000") for r in rows),
                  "%s: the probes' spans are in the diagnosis file (%d of %d slow)" % (case, len(slow), len(rows)))
            est = [l["gpu_end_ns"] - l["gpu_start_ns"] for l in timed]
            if case == "probe":
                check(all(248 <= v <= 252 for v in est), "probe: GPU time = span - median probe span + 250 ns (%s)" % spans[:5])
            else:
                check(all((v == 1) if i in slow else (248 <= v <= 252) for i, v in enumerate(est)),
                      "pair: GPU time = span - the launch's own probe span + 250 ns, at least 1 ns (%s)" % spans[:5])
            check(pol.get("gpu_time_source") == "events" and pol.get("event_gate") == 1 and pol.get("event_correction") == "in-pair-probe"
                  and pol.get("probe_kernel_ns") == 250 and pol.get("probe_fallback") == "setup-bias"
                  and pol.get("probe_window") == (1 if case == "pair" else 63),
                  "probe: the header says how GPU times were estimated (%s)" % pol)
        else:
            # the probe kernel cannot be loaded: the launch keeps the setup bias of i15-cost2 (half of a 1000 ns span)
            check(x["probe_launches"] == 0, "no probe kernel: no probe launches (%d)" % x["probe_launches"])
            check(spans and all(497 <= v <= 503 for v in spans), "no probe kernel: the setup bias instead (%s)" % spans[:5])
            check(all(r["probe_span_ns"] == "-1" for r in rows), "no probe kernel: no probe span in the diagnosis file")
            check(pol.get("event_correction") == "in-pair-probe" and pol.get("probe_fallback") == "setup-bias",
                  "no probe kernel: the header names the setup bias as the fallback (%s)" % pol)


def fake_elf(payload):
    """a minimal 64-bit ELF image whose extent (the recorder reads it from the headers) covers payload"""
    body = bytearray(64) + payload
    body[0:4] = b"\x7fELF"
    body[4] = 2      # 64-bit
    body[5] = 1      # little endian
    struct.pack_into("<Q", body, 0x20, 0)   # phoff
    struct.pack_into("<Q", body, 0x28, len(body))   # shoff: section headers at the end
    struct.pack_into("<H", body, 0x36, 56)  # phentsize
    struct.pack_into("<H", body, 0x38, 0)   # phnum
    struct.pack_into("<H", body, 0x3A, 64)  # shentsize
    struct.pack_into("<H", body, 0x3C, 1)   # shnum: one null section header
    return bytes(body) + bytes(64)


def test_triton_ptx(env):
    """i15-cost: a cubin loaded from bytes that Triton's cache holds beside its .ptx gets that PTX in its Module chunk;
    a cubin not in the cache, or PHOS_TRITON_PTX=0, gets none"""
    cache = tempfile.mkdtemp(prefix="triton-cache-")
    elf = fake_elf(b"triton kernel code " * 10)
    other = fake_elf(b"another kernel code " * 10)
    os.makedirs(os.path.join(cache, "AB12"))
    os.makedirs(os.path.join(cache, "CD34"))
    with open(os.path.join(cache, "AB12", "add_kernel.cubin"), "wb") as f:
        f.write(elf)
    ptx = b".version 8.7\n.target sm_90a\n.visible .entry add_kernel(.param .u64 p) { ret; }\n"
    with open(os.path.join(cache, "AB12", "add_kernel.ptx"), "wb") as f:
        f.write(ptx)
    with open(os.path.join(cache, "CD34", "same_size.cubin"), "wb") as f:   # same size, other bytes: must not match
        f.write(other[:len(elf)])
    with open(os.path.join(cache, "CD34", "same_size.ptx"), "wb") as f:
        f.write(b"wrong ptx")
    img = os.path.join(cache, "loaded.bin")
    for name, data, extra, want in (("in cache", elf, {}, ptx), ("not in cache", other + b"x" * 8, {}, None),
                                     ("lookup off", elf, {"PHOS_TRITON_PTX": "0"}, None)):
        with open(img, "wb") as f:
            f.write(data)
        out = env.trace_path("triton-%s.phos" % name.replace(" ", "-"))
        e = {"PHOS_TRACE_OUT": out, "PHOS_TIMING": "0", "TRITON_CACHE_DIR": cache, "FAKE_APP_CUBIN": img}
        e.update(extra)
        r = env.run([env.app, "many", "/dev/null", "10"], env=e)
        t = pr.read_trace(out)
        cub = [m for m in t.modules.values() if m.get("kind") == 2]
        check(r.returncode == 0 and len(cub) == 1, "triton %s: one CUBIN module recorded (%s)" % (name, r.stderr))
        if cub:
            got = cub[0].get("ptx")
            check(got == want, "triton %s: module PTX %s (got %r)" % (name, "from the cache" if want else "absent", got and got[:30]))
            if want:
                check(cub[0].get("ptx_source", "").endswith("AB12/add_kernel.ptx"), "triton: the PTX's cache file is named (%s)" % cub[0].get("ptx_source"))


def iter_chunks(path):
    data = open(path, "rb").read()
    pos = 16
    while pos + 24 <= len(data):
        yield struct.unpack_from("<H", data, pos + 4)[0]
        pos += 24 + u32(data, pos + 8)


def test_signals(env):
    out = env.trace_path("crash.phos")
    r = env.run([env.app, "crash", "/dev/null", "5000"], env={"PHOS_TRACE_OUT": out, "PHOS_FLUSH_MS": "100000"})
    check(r.returncode == -signal.SIGSEGV, "crash: died of SIGSEGV (rc %d)" % r.returncode)
    t = pr.read_trace(out)
    ls = [e for e in t.events if "launch" in e]
    check(len(ls) == 5000 and "trace was not closed cleanly" in t.warnings, "SIGSEGV: all 5000 launches flushed by the handler (%d)" % len(ls))

    out = env.trace_path("kill.phos")
    e = dict(os.environ)
    e.update({"LD_LIBRARY_PATH": os.path.join(env.build, "fake"), "LD_PRELOAD": env.lib, "PHOS_TIMING_SOURCE": "events", "PHOS_TRACE_OUT": out, "PHOS_FLUSH_MS": "50"})
    p = subprocess.Popen([env.app, "hang", "/dev/null", "3000"], env=e, stdout=subprocess.PIPE, text=True)
    line = p.stdout.readline()
    time.sleep(0.5)
    p.send_signal(signal.SIGKILL)
    p.wait()
    check(line.strip() == "ready" and p.returncode == -signal.SIGKILL, "hang: killed with SIGKILL")
    t = pr.read_trace(out)
    ls = [e for e in t.events if "launch" in e]
    check(len(ls) == 3000 and t.end is None, "SIGKILL: intact prefix with all 3000 launches (regular flushes) (%d)" % len(ls))
    # a SIGKILL in the middle of a chunk: simulate by cutting the file inside the last chunk
    data = open(out, "rb").read()
    open(out + ".cut", "wb").write(data[:-7])
    t2 = pr.read_trace(out + ".cut")
    check(t2.header is not None and any("truncated" in w for w in t2.warnings), "partial last chunk is detected and dropped")


def test_other_processes(env):
    d = tempfile.mkdtemp(prefix="phos-nocuda-", dir=env.tmp)
    r = env.run(["/bin/sh", "-c", "echo hi"], env={"PHOS_TRACE_OUT": os.path.join(d, "t-%p.phos")})
    check(r.returncode == 0 and r.stdout == "hi\n" and not os.listdir(d), "a process without CUDA runs unchanged and writes no trace")
    r = env.run([sys.executable, "-c", "import ctypes; print(ctypes.CDLL(None).getpid() > 0)"], env={"PHOS_TRACE_OUT": os.path.join(d, "t-%p.phos")})
    check(r.returncode == 0 and r.stdout.strip() == "True", "dlsym override keeps ordinary lookups working")
    r = env.run([env.app, "basic", "/dev/null"], env={"PHOS_DISABLE": "1", "PHOS_TRACE_OUT": os.path.join(d, "t-%p.phos")})
    check(r.returncode == 0 and not os.listdir(d), "PHOS_DISABLE=1 records nothing")


def phos_lines(stderr, what):
    return [l for l in stderr.splitlines() if l.startswith("[phos]") and what in l]


def launches_of(t):
    return [e["launch"] for e in t.events if "launch" in e]


def suffixed(path, pid):
    return path[:-len(".phos")] + ".%d.phos" % pid


def test_two_processes(env):
    d = tempfile.mkdtemp(prefix="phos-two-", dir=env.tmp)
    # fork before CUDA: parent (2000 launches) and child (1000) both record under one fixed name
    out = os.path.join(d, "fork.phos")
    r = env.run([env.app, "fork", "/dev/null", "2000"], env={"PHOS_TRACE_OUT": out, "PHOS_TIMING": "0"})
    check(r.returncode == 0, "fork: both processes ran (rc %d): %s" % (r.returncode, r.stderr.strip()))
    files = sorted(glob.glob(os.path.join(d, "fork*.phos")))
    check(len(files) == 2 and out in files, "fork: two traces, one under the name asked for: %s" % files)
    got = {}
    for f in files:
        t = pr.read_trace(f)
        pid = t.header["pid"]
        check(f == out or f == suffixed(out, pid), "fork: the second trace is named by its pid (%s, pid %d)" % (f, pid))
        check(not t.warnings and t.end["event_count"] == len(t.events), "fork: %s closed cleanly: %s" % (f, t.warnings))
        got[pid] = len(launches_of(t))
    check(sorted(got.values()) == [1000, 2000], "fork: parent's 2000 and child's 1000 launches, each in its own file: %s" % got)
    lines = phos_lines(r.stderr, "another process")
    check(len(lines) == 1 and any(f != out and f in lines[0] for f in files), "fork: one stderr line names the second trace: %s" % lines)

    # fork + exec mid-run: the child (1000 launches) must not truncate the parent's trace (2000 launches)
    out = os.path.join(d, "exec.phos")
    r = env.run([env.app, "exec", "/dev/null", "2000"], env={"PHOS_TRACE_OUT": out, "PHOS_TIMING": "0"})
    check(r.returncode == 0, "exec: both processes ran (rc %d): %s" % (r.returncode, r.stderr.strip()))
    files = sorted(glob.glob(os.path.join(d, "exec*.phos")))
    check(len(files) == 2 and out in files, "exec: two traces: %s" % files)
    if os.path.exists(out):
        t = pr.read_trace(out)
        check(t.header.get("argv", ["", ""])[1] == "exec" and len(launches_of(t)) == 2000 and not t.warnings,
              "exec: the parent's trace keeps all its 2000 launches (%d, %s)" % (len(launches_of(t)), t.warnings))
        others = [f for f in files if f != out]
        if others:
            c = pr.read_trace(others[0])
            check(others[0] == suffixed(out, c.header["pid"]) and c.header["argv"][1] == "many" and len(launches_of(c)) == 1000,
                  "exec: the child's 1000 launches in %s" % others[0])
    check(len(phos_lines(r.stderr, "another process")) == 1, "exec: one stderr line: %s" % r.stderr.strip())

    # re-recording onto the file of an earlier (finished) run replaces it, under the same name
    out = os.path.join(d, "again.phos")
    pids = []
    for i in range(2):
        if i:
            # the recorder compares the file's mtime with its own start on the kernel's coarse clock; with multigrain
            # timestamps (Linux 6.13+, ext4 here) the first run's last mtime can be a few ms ahead of that clock, and a
            # run started within that tick is told the file was written since (it records under its pid, safely)
            time.sleep(0.05)
        r = env.run([env.app, "many", "/dev/null", "100"], env={"PHOS_TRACE_OUT": out, "PHOS_TIMING": "0"})
        t = pr.read_trace(out)
        pids.append(t.header["pid"])
        check(r.returncode == 0 and not phos_lines(r.stderr, "") and len(launches_of(t)) == 100 and not t.warnings,
              "re-record: clean trace, nothing said (%s)" % r.stderr.strip())
    check(pids[0] != pids[1] and glob.glob(os.path.join(d, "again*")) == [out], "re-record: the old finished trace is replaced, no second file")

    # a live writer keeps its file: a second process gets its own name
    out = os.path.join(d, "live.phos")
    p = subprocess.Popen([env.app, "hang", "/dev/null", "3000"], env=env.env_of(env={"PHOS_TRACE_OUT": out, "PHOS_FLUSH_MS": "20"}),
                         stdout=subprocess.PIPE, text=True)
    try:
        line = p.stdout.readline()
        r = env.run([env.app, "many", "/dev/null", "500"], env={"PHOS_TRACE_OUT": out, "PHOS_TIMING": "0"})
        time.sleep(0.3)
    finally:
        p.send_signal(signal.SIGKILL)
        p.wait()
    check(line.strip() == "ready", "live: the first process recorded and waits")
    t = pr.read_trace(out)
    check(t.header["pid"] == p.pid and len(launches_of(t)) == 3000, "live: the live process's trace is untouched (pid %d, %d launches)" % (t.header["pid"], len(launches_of(t))))
    others = [f for f in glob.glob(os.path.join(d, "live*.phos")) if f != out]
    ok = len(others) == 1
    if ok:
        c = pr.read_trace(others[0])
        ok = others[0] == suffixed(out, c.header["pid"]) and len(launches_of(c)) == 500 and not c.warnings
    check(ok and len(phos_lines(r.stderr, "another process")) == 1, "live: the second process records to its own file: %s %s" % (others, r.stderr.strip()))


def test_fifo(env):
    fifo = os.path.join(tempfile.mkdtemp(prefix="phos-fifo-", dir=env.tmp), "out.phos")
    os.mkfifo(fifo)
    plain = env.run([env.app, "basic", "/dev/null"], record=False)
    try:
        r = env.run([env.app, "basic", "/dev/null"], env={"PHOS_TRACE_OUT": fifo}, timeout=20)
    except subprocess.TimeoutExpired:
        check(False, "FIFO without a reader as output: the program hung")
        return
    check(r.returncode == 0 and r.stdout == plain.stdout, "FIFO output: the program runs unchanged (rc %d, %s)" % (r.returncode, r.stdout.strip()))
    lines = phos_lines(r.stderr, "not a regular file")
    check(len(lines) == 1 and len(phos_lines(r.stderr, "")) == 1, "FIFO output: one stderr line says it is refused: %s" % r.stderr.strip())


def test_write_error(env):
    out = env.trace_path("full.phos")
    # an EventBatch holds at most 16384 launches (about 1.1 MB uncompressed): the first one fits, the whole trace does not
    limit = 1500000
    n = 40000

    def small_disk():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # write() then fails with EFBIG, as on a full disk

    r = env.run([env.app, "many", "/dev/null", str(n)], restore_signals=False, preexec_fn=small_disk,
                env={"PHOS_TRACE_OUT": out, "PHOS_TIMING": "0", "PHOS_COMPRESS": "0", "PHOS_DEBUG": "1"})
    check(r.returncode == 0, "full disk: the program is unaffected (rc %d)" % r.returncode)
    lost = phos_lines(r.stderr, "are lost")
    m = re.search(r"events from (\d+) on are lost", lost[0]) if len(lost) == 1 else None
    check(m is not None and "File too large" in lost[0], "full disk: one stderr line says what was lost from which event: %s" % r.stderr.strip())
    t = pr.read_trace(out)
    check(os.path.getsize(out) <= limit and t.warnings == ["trace was not closed cleanly"],
          "full disk: the file holds whole chunks only (%d bytes, %s)" % (os.path.getsize(out), t.warnings))
    k = int(m.group(1)) if m else -1
    check(k > 0 and len(t.events) == k, "full disk: the prefix loads with the %d events before the loss (%d)" % (k, len(t.events)))
    ls = launches_of(t)
    check(all(u32(l["params"], 32) == i for i, l in enumerate(ls)), "full disk: the prefix's launches are the first ones, in order")
    closed = phos_lines(r.stderr, "trace closed") + phos_lines(r.stderr, "incomplete")
    check(len(closed) == 1 and ("%d of %d events" % (k, n + 5)) in closed[0],
          "full disk: the closing message is honest: %s" % closed)


def test_ring_overflow(env):
    out = env.trace_path("overflow.phos")
    n = 40000
    # the writer blocks 2 s in a driver call (fake cuEventQuery) while the program issues more launches than the ring holds
    r = env.run([env.app, "many", "/dev/null", str(n)], env={"PHOS_TRACE_OUT": out, "FAKE_CUDA_QUERY_BLOCK_MS": "2000"})
    check(r.returncode == 0, "overflow: the program ran (rc %d)" % r.returncode)
    t = pr.read_trace(out)
    ls = launches_of(t)
    dropped = n + 5 - len(t.events)
    check(dropped > 0 and t.end is not None and t.end.get("dropped_events", 0) == dropped,
          "overflow: TraceEnd.dropped_events equals what is missing (%s vs %d)" % (t.end and t.end.get("dropped_events"), dropped))
    ks = [u32(l["params"], 32) for l in ls]
    check(ks == sorted(ks) and len(set(ks)) == len(ks) and ks[-1] == n - 1, "overflow: the recorded launches are in order, the last one kept")
    lines = phos_lines(r.stderr, "events dropped")
    check(len(lines) == 1 and re.search(r"\b%d events dropped" % dropped, lines[0]) is not None,
          "overflow: stderr says how many events were dropped: %s" % r.stderr.strip())


# ------------------------------------------------------------------ live attach (src/rec_stream.c)
class LiveApp:
    """fake_app in its "live" mode under the recorder: commands on stdin, "ok EVENTS" on stdout."""

    def __init__(self, env, name, extra=None):
        self.xdg = tempfile.mkdtemp(prefix="xdg-", dir=env.tmp)
        os.chmod(self.xdg, 0o700)
        self.out = env.trace_path(name + ".phos")
        e = env.env_of(True, {"PHOS_TRACE_OUT": self.out, "XDG_RUNTIME_DIR": self.xdg, "PHOS_FLUSH_MS": "20",
                              "PHOS_TIMING": "0", "PHOS_DEBUG": "1"})
        e.update(extra or {})
        self.p = subprocess.Popen([env.app, "live", "/dev/null"], env=e, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
        line = self.p.stdout.readline().split()
        self.pid = int(line[1]) if len(line) == 2 and line[0] == "ready" else -1
        self.sock = os.path.join(self.xdg, "phos", "%d.sock" % self.pid)
        # the writer thread opens the socket when it starts, right after the first cuInit
        for _ in range(200):
            if os.path.exists(self.sock) or e.get("PHOS_ATTACH") == "0" or self.p.poll() is not None:
                break
            time.sleep(0.01)

    def cmd(self, c):
        self.p.stdin.write(c + "\n")
        self.p.stdin.flush()
        line = self.p.stdout.readline().split()
        return int(line[1]) if len(line) == 2 and line[0] == "ok" else -1

    def finish(self):
        try:
            out, err = self.p.communicate("exit\n", timeout=60)
        except (OSError, ValueError):
            out, err = self.p.communicate(timeout=60)
        return err


class StreamReader:
    """Connects to a recording process's socket and collects what it sends on a thread."""

    def __init__(self, path, read=True):
        import socket
        import threading
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.s.connect(path)
        self.data = bytearray()
        self.eof = False
        self.error = None
        self.go = threading.Event()
        if read:
            self.go.set()
        self.t = threading.Thread(target=self._run, daemon=True)
        self.t.start()

    def _run(self):
        self.go.wait()
        try:
            while True:
                b = self.s.recv(1 << 16)
                if not b:
                    self.eof = True
                    return
                self.data += b
        except OSError as e:
            self.error = e

    def wait_start(self, timeout=5):
        """until the recorder accepted this reader (its StreamStart arrived): events issued after it come live"""
        t0 = time.time()
        while time.time() - t0 < timeout:
            try:
                t = self.trace()
                if t.stream_start is not None:
                    return t.stream_start
            except pr.DecodeError:
                pass
            time.sleep(0.01)
        return {}

    def trace(self):
        return pr.read_bytes(bytes(self.data), "<stream>")

    def wait_events(self, n, timeout=10):
        """until the stream holds events up to index n - 1 (a gap counts), or it ended"""
        t0 = time.time()
        while time.time() - t0 < timeout:
            try:
                t = self.trace()
                if len(t.events) + t.skipped >= n or self.eof:
                    return t
            except pr.DecodeError:
                pass
            time.sleep(0.02)
        return self.trace()

    def close(self):
        import socket
        try:
            self.s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.s.close()
        self.go.set()
        self.t.join(5)


def same_events(stream, file_trace):
    """every event the stream holds is the file's event of the same index"""
    return all(i < len(file_trace.events) and file_trace.events[i] == e for i, e in zip(stream.index, stream.events))


def test_attach(env):
    app = LiveApp(env, "attach")
    check(app.pid > 0 and os.path.exists(app.sock), "attach: the recording process offers %s" % app.sock)
    st = os.stat(os.path.dirname(app.sock))
    check(st.st_mode & 0o777 == 0o700 and st.st_uid == os.geteuid(), "attach: the socket directory is 0700 and ours (%o)" % (st.st_mode & 0o777))
    n0 = app.cmd("launch 100")
    time.sleep(0.2)   # the writer has written them (PHOS_FLUSH_MS=20): the reader joins after a whole batch
    a = StreamReader(app.sock)
    ss = a.wait_start()
    n1 = app.cmd("launch 50")
    ta = a.wait_events(n1)
    first = ss.get("first_live_index", 0)
    check(3 < first <= n0 and ss.get("pid") == app.pid and ss.get("trace_path") == app.out and ss.get("events_so_far", 0) >= first,
          "attach: StreamStart says where the reader joined (%s, %d events issued)" % (ss, n0))
    check(len(ta.modules) == 1 and len(ta.functions) == 1, "attach: a late reader gets the modules and functions so far")
    check(ta.index[:3] == [0, 1, 2] and all("alloc" in e for e in ta.events[:3]) and ss.get("live_allocations") == 3,
          "attach: a late reader gets the live allocations at their own indices (%s)" % ta.index[:4])
    check(ta.gaps == [(3, first - 3, 1)], "attach: the events before it are one EventGap 'attached late' (%s)" % ta.gaps)
    ls = launches_of(ta)
    check(ta.index[3:] == list(range(first, n1)) and [u32(l["params"], 32) for l in ls] == list(range(first - 4, 150)),
          "attach: then every event from there on, in order (%d launches)" % len(ls))
    a.close()   # detach
    n2 = app.cmd("launch 30")
    app.cmd("alloc 4096")
    app.cmd("alloc 8192")
    n3 = app.cmd("free")
    time.sleep(0.2)
    b = StreamReader(app.sock)   # reattach
    sb = b.wait_start()
    n4 = app.cmd("launch 20")
    tb = b.wait_events(n4)
    check(n2 < sb.get("first_live_index", 0) <= n3, "reattach: joins at the present (%s, %d)" % (sb, n3))
    check(tb.index[:4] == [0, 1, 2, n2] and tb.index[-20:] == list(range(n3, n4)),
          "reattach: live allocations (the freed one left out) and the new launches (%s)" % tb.index[:5])
    check(app.p.poll() is None, "attach: detach and reattach leave the process running")
    err = app.finish()
    tb = b.wait_events(10 ** 9, timeout=5)
    b.close()
    tf = pr.read_trace(app.out)
    check(b.eof and tb.end is not None and tb.end.get("event_count") == len(tf.events) and not tb.warnings,
          "attach: at exit the reader gets TraceEnd and a clean end (%s, %s)" % (tb.end, tb.warnings))
    check(same_events(ta, tf) and same_events(tb, tf), "attach: every streamed event is the trace file's event of that index")
    check(not os.path.exists(app.sock), "attach: the socket is removed at exit")
    check(not tf.warnings and len(tf.events) == n4 + 1, "attach: the trace file is written as before (%d events)" % len(tf.events))

    # SIGKILL mid-stream: the reader keeps what it got and sees the end of the stream
    app = LiveApp(env, "attach-kill")
    c = StreamReader(app.sock)
    c.wait_start()
    app.p.stdin.write("launch 3000000\n")
    app.p.stdin.flush()
    c.wait_events(20000)   # mid-stream: the process is still launching
    alive = app.p.poll() is None
    app.p.kill()
    app.p.wait()
    tc = c.wait_events(10 ** 9, timeout=5)
    c.close()
    tf = pr.read_trace(app.out)
    check(alive and c.eof and c.error is None and tc.end is None and len(launches_of(tc)) >= 20000 - 4,
          "SIGKILL: the reader sees the end of the stream, no error (%d launches received, %d bytes, eof %s, error %s, %s)"
          % (len(launches_of(tc)), len(c.data), c.eof, c.error, tc.warnings))
    check(same_events(tc, tf) and tc.damage_offset is None or any("truncated" in w for w in tc.warnings),
          "SIGKILL: what it received reads as whole chunks, the same events as the file (%s)" % tc.warnings)

    # a reader that never reads: the program is not slowed, its missed events are counted and said
    app = LiveApp(env, "attach-stall", {"PHOS_ATTACH_QUEUE": "64k"})
    times = {"none": [], "stalled": []}
    stalled = None
    for rnd in range(3):
        for mode in ("none", "stalled"):
            if mode == "stalled" and stalled is None:
                stalled = StreamReader(app.sock, read=False)
                time.sleep(0.5)   # accepted by the writer (within its 2 ms turn; 0.1 s was too short at load average 13)
            t0 = time.perf_counter()
            app.cmd("launch 100000")
            times[mode].append(time.perf_counter() - t0)
    med = {k: sorted(v)[1] for k, v in times.items()}
    print("  stalled reader: 100000 launches in %.3f s without a reader, %.3f s with one that never reads (medians of 3)"
          % (med["none"], med["stalled"]))
    check(med["stalled"] < med["none"] * 1.5 + 0.05, "stalled reader: the program is not slowed (%.3f vs %.3f s)" % (med["stalled"], med["none"]))
    n = app.cmd("launch 10")
    stalled.go.set()   # it starts reading now
    ts = stalled.wait_events(n)
    behind = [g for g in ts.gaps if g[2] == 2]
    check(behind and sum(g[1] for g in behind) > 0 and len(ts.events) + ts.skipped == n and ts.events[-1].get("launch"),
          "stalled reader: it is told what it missed (EventGap 'reader behind': %d events), then gets the rest (%d + %d of %d)"
          % (sum(g[1] for g in behind), len(ts.events), ts.skipped, n))
    err = app.finish()
    stalled.close()
    check("events dropped for it" in err, "stalled reader: the recorder counts its drops (PHOS_DEBUG line)")
    tf = pr.read_trace(app.out)
    # (the file's own ring may drop under a machine loaded by others: counted in TraceEnd, unrelated to the reader)
    check(tf.end is not None and tf.damage_offset is None and len(tf.events) + tf.end.get("dropped_events", 0) == n + 1,
          "stalled reader: the trace file is whole (%s, %s, %d events)" % (tf.warnings, tf.end, len(tf.events)))

    # i15-base: a reader whose drops end with the program going quiet is told of them once it has caught up (before, only
    # with the next batch or the trace's end: it waited for events that never came)
    app = LiveApp(env, "attach-quiet", {"PHOS_ATTACH_QUEUE": "64k"})
    quiet = StreamReader(app.sock, read=False)
    time.sleep(0.5)
    n = app.cmd("launch 100000")
    time.sleep(0.5)   # the last batches are flushed (every 100 ms) and dropped for it; the program says nothing more
    quiet.go.set()
    tq = quiet.wait_events(n, timeout=5)
    behind = [g for g in tq.gaps if g[2] == 2]
    check(behind and len(tq.events) + tq.skipped == n and not quiet.eof,
          "quiet after drops: the reader is told what it missed without a further event (%d + %d of %d, %d events in "
          "'reader behind' gaps)" % (len(tq.events), tq.skipped, n, sum(g[1] for g in behind)))
    app.finish()
    quiet.close()

    # another user: refused on the credentials of the connection (root only: a child becomes nobody)
    app = LiveApp(env, "attach-uid")
    if os.geteuid() == 0:
        import ctypes
        import socket
        libc = ctypes.CDLL(None, use_errno=True)
        rd, wr = os.pipe()
        pid = os.fork()
        if pid == 0:
            res = "?"
            try:
                os.close(rd)
                s1 = socket.socket(socket.AF_UNIX)
                os.setresuid(65534, 65534, 0)   # nobody, keeping root as the saved uid ...
                try:
                    s1.connect(app.sock)
                    res = "plain:connected"
                except PermissionError:
                    res = "plain:denied"
                libc.setfsuid(0)                # ... so the file system lets it reach the socket: only the peer check is left
                s2 = socket.socket(socket.AF_UNIX)
                s2.connect(app.sock)
                s2.settimeout(5)
                got = s2.recv(100)
                res += " peer:" + ("closed" if got == b"" else "got %d bytes" % len(got))
            except Exception as e:  # noqa: BLE001 - reported to the parent
                res += " error:%s" % e
            os.write(wr, res.encode())
            os._exit(0)
        os.close(wr)
        os.waitpid(pid, 0)
        res = os.read(rd, 200).decode()
        os.close(rd)
        d = StreamReader(app.sock)
        d.wait_start()   # (launches issued before the writer accepts a reader are not live for it)
        n = app.cmd("launch 5")
        td = d.wait_events(n)
        err = app.finish()
        d.close()
        check(res == "plain:denied peer:closed", "another uid: the directory keeps it out, and on the socket itself the "
              "peer check refuses it (%s)" % res)
        check(len(phos_lines(err, "refused a connection from uid 65534")) == 1, "another uid: the refusal is said on stderr")
        check(len(launches_of(td)) == 5 and d.eof, "another uid: the owner's reader still works after the refusal")
    else:
        app.finish()
        print("  another uid: SKIPPED (needs root to become a second user)")

    # PHOS_ATTACH=0: no socket; a directory open to others: no socket either, one line, recording goes on
    app = LiveApp(env, "attach-off", {"PHOS_ATTACH": "0"})
    check(app.pid > 0 and not os.path.exists(app.sock), "PHOS_ATTACH=0: no socket")
    app.finish()
    bad = tempfile.mkdtemp(prefix="xdg-open-", dir=env.tmp)
    os.makedirs(os.path.join(bad, "phos"))
    os.chmod(os.path.join(bad, "phos"), 0o755)
    app = LiveApp(env, "attach-open", {"XDG_RUNTIME_DIR": bad})
    n = app.cmd("launch 3")
    err = app.finish()
    check(not os.listdir(os.path.join(bad, "phos")) and len(phos_lines(err, "live attach off")) == 1 and
          len(launches_of(pr.read_trace(app.out))) == 3,
          "a socket directory open to others: attach off in one line, recording unchanged")


# ------------------------------------------------------------------ i14-ckpt: begin
# the driver-checkpoint helper (live/driver_checkpoint.c) over the fake driver's checkpoint API (fake_cuda.c)
def helper_run(env, pid, steps, fake_dir, timeout_ms=None, driver=True):
    e = dict(os.environ)
    e.pop("LD_PRELOAD", None)
    e["PHOS_FAKE_CUDA_DIR"] = fake_dir
    if driver:
        e["LD_LIBRARY_PATH"] = os.path.join(env.build, "fake")
    else:
        e.pop("LD_LIBRARY_PATH", None)
    cmd = [os.path.join(env.build, "phos_driver_checkpoint")]
    if steps is not None:
        cmd += ["--steps", steps]
    if timeout_ms is not None:
        cmd += ["--timeout-ms", str(timeout_ms)]
    cmd += [str(pid)]
    r = subprocess.run(cmd, env=e, capture_output=True, text=True, timeout=60)
    return r.returncode, r.stdout.splitlines(), r.stderr


def states_of(lines):
    return [l.split()[1] for l in lines if l.startswith("state ")]


def test_checkpoint(env):
    fake_dir = tempfile.mkdtemp(prefix="fakecuda-", dir=env.tmp)
    app = LiveApp(env, "ckpt", {"PHOS_FAKE_CUDA_DIR": fake_dir, "PHOS_FAKE_CKPT_MS": "400"})
    try:
        check(app.cmd("launch 10") == 14, "checkpoint: the recording process runs")
        # the whole sequence, while the process tries to launch: its launch waits for the unlock
        import threading
        answer = {}

        def launch_during():
            time.sleep(0.1)
            t0 = time.time()
            answer["events"] = app.cmd("launch 5")
            answer["s"] = time.time() - t0
        th = threading.Thread(target=launch_during)
        th.start()
        rc, out, err = helper_run(env, app.pid, "lock,checkpoint,restore,unlock", fake_dir)
        th.join(10)
        check(rc == 0 and out[0] == "phos-checkpoint 1 pid %d driver 13000" % app.pid and out[-1] == "done ok",
              "checkpoint: the sequence succeeds (%d %s %s)" % (rc, out, err))
        check(states_of(out) == ["running", "locked", "checkpointed", "locked", "running"],
              "checkpoint: states after each step (%s)" % states_of(out))
        ends = [l.split() for l in out if l.startswith("end ")]
        check([x[1] for x in ends] == ["lock", "checkpoint", "restore", "unlock"] and all(x[2] == "ok" for x in ends),
              "checkpoint: four phases ended ok (%s)" % ends)
        ms = {x[1]: float(x[6]) for x in ends}
        stall = [float(l.split()[2]) for l in out if l.startswith("stall ms ")]
        check(390 <= ms["checkpoint"] < 2000 and 190 <= ms["restore"] < 1000 and len(stall) == 1 and
              stall[0] >= sum(ms.values()) - 0.01, "checkpoint: phase times and the stall (%s, %s)" % (ms, stall))
        check(answer.get("events") == 19 and answer.get("s", 0) >= 0.4,
              "checkpoint: a launch issued while locked waited for the unlock (%s)" % answer)
        # one step at a time, and a step in the wrong state
        rc, out, _ = helper_run(env, app.pid, "lock", fake_dir)
        check(rc == 0 and states_of(out) == ["running", "locked"], "steps: lock (%s)" % out)
        rc, out, _ = helper_run(env, app.pid, "lock", fake_dir)
        check(rc == 1 and any(l.startswith("end lock refused") and l.endswith("code 401 CUDA_ERROR_ILLEGAL_STATE")
                              for l in out) and out[-1] == "done refused" and states_of(out) == ["locked", "locked"],
              "steps: lock of a locked process is refused, and this call does not unlock it (%s)" % out)
        rc, out, _ = helper_run(env, app.pid, "state", fake_dir)
        check(rc == 0 and states_of(out) == ["locked"], "steps: state (%s)" % out)
        rc, out, _ = helper_run(env, app.pid, "unlock", fake_dir)
        check(rc == 0 and states_of(out) == ["locked", "running"] and not any(l.startswith("stall") for l in out),
              "steps: unlock (%s)" % out)
        # a refused checkpoint (managed memory on the real driver) leaves the process locked: the helper unlocks it
        app.cmd("refuse checkpoint:801")
        rc, out, _ = helper_run(env, app.pid, "lock,checkpoint,restore,unlock", fake_dir)
        check(rc == 1 and any(l.startswith("end checkpoint refused") and l.endswith("code 801 CUDA_ERROR_NOT_SUPPORTED")
                              for l in out), "refusal: checkpoint refused with 801 (%s)" % out)
        check(any(l.startswith("begin unlock") and l.endswith(" recovery") for l in out) and
              states_of(out)[-1] == "running" and out[-1] == "done refused" and not any(l.startswith("begin restore") for l in out),
              "refusal: unlocked again, no restore tried (%s)" % out)
        check(app.cmd("launch 1") == 20, "refusal: the process runs on")
        # a lock that times out (the process busy in a CUDA call) leaves it running
        app.cmd("refuse lock:600")
        t0 = time.time()
        rc, out, _ = helper_run(env, app.pid, "lock,checkpoint,restore,unlock", fake_dir, timeout_ms=300)
        check(rc == 1 and time.time() - t0 >= 0.3 and any(l.endswith("code 600 CUDA_ERROR_NOT_READY") for l in out)
              and states_of(out) == ["running", "running"], "refusal: lock timeout (%s)" % out)
        app.cmd("refuse")
        # a restore that breaks the process: FAILED, which no unlock can undo
        app.cmd("refuse restore:fail")
        rc, out, _ = helper_run(env, app.pid, "lock,checkpoint,restore,unlock", fake_dir)
        check(rc == 1 and states_of(out)[-1] == "failed" and any(l.endswith("code 999 CUDA_ERROR_UNKNOWN") for l in out)
              and not any(l.startswith("begin unlock") for l in out), "refusal: a failed restore (%s)" % out)
        # the live engine's one-line form
        app2 = LiveApp(env, "ckpt2", {"PHOS_FAKE_CUDA_DIR": fake_dir, "PHOS_FAKE_CKPT_MS": "10"})
        try:
            rc, out, _ = helper_run(env, app2.pid, None, fake_dir)
            check(rc == 0 and len(out) == 1 and re.match(r"driver-checkpoint pid %d lock_ms [0-9.]+ checkpoint_ms [0-9.]+ "
                                                         r"restore_ms [0-9.]+ unlock_ms [0-9.]+$" % app2.pid, out[0]),
                  "anchor form: one line (%s)" % out)
            check(app2.cmd("launch 2") == 6, "anchor form: the process runs on")
        finally:
            app2.finish()
    finally:
        app.p.kill()
        app.p.wait()
    # a process that never used CUDA, a process that is gone, no driver, bad arguments
    sleeper = subprocess.Popen(["sleep", "30"])
    try:
        rc, out, _ = helper_run(env, sleeper.pid, "lock,checkpoint,restore,unlock", fake_dir)
        check(rc == 1 and out[1] == "state ? 3 CUDA_ERROR_NOT_INITIALIZED" and
              any(l.startswith("end lock refused") and l.endswith("code 3 CUDA_ERROR_NOT_INITIALIZED") for l in out),
              "refusal: not a CUDA process (%s)" % out)
    finally:
        sleeper.kill()
        sleeper.wait()
    rc, out, _ = helper_run(env, app.pid, "state", fake_dir)
    check(rc == 1 and out[-2:] == ["state ? 304 CUDA_ERROR_OPERATING_SYSTEM", "done refused"], "refusal: a process gone (%s)" % out)
    rc, out, _ = helper_run(env, 1, "state", fake_dir, driver=False)
    check(rc == 3 and len(out) == 1 and out[0].startswith("error no CUDA driver on this machine"), "no driver (%s)" % out)
    rc, out, err = helper_run(env, 1, "lock,fly", fake_dir)
    check(rc == 2 and not out and "a step is lock, checkpoint, restore, unlock or state" in err, "usage (%s)" % err)
    check(not os.listdir(fake_dir) or all(not f.startswith(str(app2.pid)) for f in os.listdir(fake_dir)),
          "a process that exits removes its state page (%s)" % os.listdir(fake_dir))
# ------------------------------------------------------------------ i14-ckpt: end


# ------------------------------------------------------------------ i14-cupti: begin
# CUPTI timing (the fake driver answers the CUPTI calls the recorder makes: PHOS_CUPTI points at it) and the driver's checkpoint: the fake driver refuses a Lock while CUPTI activity kinds are on (as driver
# 580 on the H100); a control connection on the attach socket releases CUPTI (checkpoint-prepare) and resumes it
class ControlConnection:
    def __init__(self, sock_path):
        import socket
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.s.settimeout(10)
        self.s.connect(sock_path)
        self.s.sendall(b"phos-ctl 1\n")
        self.buf = b""

    def ask(self, line):
        self.s.sendall(line.encode() + b"\n")
        while b"\n" not in self.buf:
            b = self.s.recv(4096)
            if not b:
                return None
            self.buf += b
        out, self.buf = self.buf.split(b"\n", 1)
        return out.decode()

    def close(self):
        self.s.close()


def test_checkpoint_cupti(env):
    fake_dir = tempfile.mkdtemp(prefix="fakecuda-", dir=env.tmp)
    fake = os.path.join(env.build, "fake", "libcuda.so.1")
    # first as driver 580 on the H100: a process that used CUPTI is refused the Lock even after the release; the
    # recorder answers prepare and done all the same, and the process runs on
    sticky = LiveApp(env, "ckpt-cupti-580", {"PHOS_FAKE_CUDA_DIR": fake_dir, "PHOS_TIMING": "1", "PHOS_TIMING_SOURCE": "auto",
                                             "PHOS_CUPTI": fake})
    try:
        check(sticky.cmd("launch 2") == 6, "cupti 580: runs")
        c = ControlConnection(sticky.sock)
        check(c.ask("checkpoint-prepare").startswith("ready cupti"), "cupti 580: prepare")
        rc, out, _ = helper_run(env, sticky.pid, "lock,checkpoint,restore,unlock", fake_dir)
        check(rc == 1 and any(l.endswith("code 801 CUDA_ERROR_NOT_SUPPORTED") for l in out) and states_of(out)[-1] == "running",
              "cupti 580: the Lock is refused after the release too, as measured on the H100 (%s)" % out)
        check(c.ask("checkpoint-done").startswith("resumed cupti;"), "cupti 580: done")
        check(sticky.cmd("launch 1") == 7, "cupti 580: runs on")
        c.close()
    finally:
        sticky.finish()
    # then a driver that lets go of a process once CUPTI is released (PHOS_FAKE_CUPTI_RELEASABLE)
    app = LiveApp(env, "ckpt-cupti", {"PHOS_FAKE_CUDA_DIR": fake_dir, "PHOS_FAKE_CKPT_MS": "50", "PHOS_TIMING": "1", "PHOS_TIMING_SOURCE": "auto",
                                      "PHOS_CUPTI": fake, "PHOS_FAKE_CUPTI_RELEASABLE": "1"})
    err = ""
    try:
        check(app.cmd("launch 10") == 14, "cupti checkpoint: the recording process runs")
        rc, out, _ = helper_run(env, app.pid, "lock,checkpoint,restore,unlock", fake_dir)
        check(rc == 1 and any(l.startswith("end lock refused") and l.endswith("code 801 CUDA_ERROR_NOT_SUPPORTED") for l in out)
              and states_of(out) == ["running", "running"], "cupti checkpoint: Lock refused while CUPTI activity is on (%s)" % out)
        c = ControlConnection(app.sock)
        ready = c.ask("checkpoint-prepare")
        check(ready == "ready cupti flushed,kinds-off,unsubscribed,finalized", "cupti checkpoint: prepare answers ready (%s)" % ready)
        check(app.cmd("launch 3") == 17, "cupti checkpoint: launches between prepare and the lock")
        rc, out, _ = helper_run(env, app.pid, "lock,checkpoint,restore,unlock", fake_dir)
        check(rc == 0 and out[-1] == "done ok" and states_of(out)[-1] == "running",
              "cupti checkpoint: after prepare the checkpoint succeeds (%s)" % out)
        done = c.ask("checkpoint-done")
        check(done is not None and done.startswith("resumed cupti;"), "cupti checkpoint: done resumes CUPTI (%s)" % done)
        check(c.ask("fly") == 'error unknown command "fly" (checkpoint-prepare, checkpoint-done)', "cupti checkpoint: unknown command")
        check(c.ask("checkpoint-done") == "resumed events (nothing was released)", "cupti checkpoint: done twice")
        check(app.cmd("launch 4") == 21, "cupti checkpoint: launches after done")
        rc, out, _ = helper_run(env, app.pid, "lock", fake_dir)
        check(rc == 1 and any(l.endswith("code 801 CUDA_ERROR_NOT_SUPPORTED") for l in out),
              "cupti checkpoint: CUPTI is on again after done: Lock refused again (%s)" % out)
        # a control connection that goes away after prepare: the recorder resumes CUPTI itself
        c2 = ControlConnection(app.sock)
        check(c2.ask("checkpoint-prepare").startswith("ready cupti"), "cupti checkpoint: second prepare")
        c2.close()
        time.sleep(0.3)
        rc, out, _ = helper_run(env, app.pid, "lock", fake_dir)
        check(rc == 1 and any(l.endswith("code 801 CUDA_ERROR_NOT_SUPPORTED") for l in out),
              "cupti checkpoint: a control connection closed without done resumes CUPTI (%s)" % out)
        # "hold": the lock in one call, the unlock in a later one (attach --checkpoint --steps lock, then unlock)
        c3 = ControlConnection(app.sock)
        check(c3.ask("checkpoint-prepare hold").startswith("ready cupti"), "cupti checkpoint: prepare hold")
        c3.close()
        time.sleep(0.3)
        rc, out, _ = helper_run(env, app.pid, "lock", fake_dir)
        check(rc == 0 and states_of(out)[-1] == "locked", "cupti checkpoint: held release survives its connection (%s)" % out)
        rc, out, _ = helper_run(env, app.pid, "unlock", fake_dir)
        c4 = ControlConnection(app.sock)
        check(rc == 0 and c4.ask("checkpoint-done").startswith("resumed cupti;"), "cupti checkpoint: done on another connection (%s)" % out)
        c4.close()
        # a stream reader beside the control connection still gets the trace
        r = StreamReader(app.sock)
        time.sleep(0.3)
        check(len(r.data) > 16 and bytes(r.data[:8]) == pr.MAGIC, "cupti checkpoint: a reader still gets the stream (%d bytes)" % len(r.data))
        c.close()
    finally:
        err = app.finish()
    check("GPU timing by CUPTI activity records" in err and "checkpoint-prepare: cupti flushed" in err,
          "cupti checkpoint: the recorder timed by CUPTI and released it (stderr)")
    t = pr.read_trace(app.out)
    gaps = t.end.get("timing_gaps", [])
    check(len(gaps) == 3 and all(g["source"] == "events" and g["reason"] == "checkpoint" and 0 < g["start_ns"] < g["end_ns"] for g in gaps),
          "cupti checkpoint: TraceEnd names the three intervals timed by CUDA events (%s)" % gaps)
    evs = [e for e in t.events if "launch" in e]
    timed = [e for e in evs if 0 < e["launch"].get("gpu_start_ns", 0) < e["launch"].get("gpu_end_ns", 0)]
    inside = [e for e in timed if gaps and gaps[0]["start_ns"] <= e.get("host_ns", 0) <= gaps[0]["end_ns"]]
    check(len(evs) == 17 and len(timed) == 17, "cupti checkpoint: all 17 launches carry GPU times (%d of %d)" % (len(timed), len(evs)))
    check(len(inside) == 3, "cupti checkpoint: the 3 launches issued between prepare and done are timed (by events) (%d)" % len(inside))
# ------------------------------------------------------------------ i14-cupti: end


# i15-shapes: begin
def test_sanitizer_shapes(env):
    """The sampled sanitizer tool (PHOS_SANITIZER_SHAPES) under the recorder, over a fake Compute Sanitizer
    (tests/fake_sanitizer.c) and the fake libcuda: launch shapes include the argument shape the recorder's parameter
    bytes give (tests/shape_app.c lists the launches and what each should count as), and no module is unpatched with
    an instrumented launch of it in flight."""
    tool = os.path.join(env.build, "fake-san", "libphos_sanitizer.so")
    app = os.path.join(env.build, "shape_app")
    patch = os.path.join(env.tmp, "shapes-patch.fatbin")   # the fake applies no patch; the tool wants a readable file
    open(patch, "wb").close()

    def run(name, extra):
        tr = env.trace_path(name + ".phos")
        e = {"LD_PRELOAD": env.lib + ":" + tool, "PHOS_SANITIZER_PATCH": patch, "PHOS_SANITIZER_SHAPES": "2",
             "PHOS_SANITIZER_UNPATCH_AFTER": "4", "PHOS_TRACE_OUT": tr}
        e.update(extra)
        r = env.run([app], env=e)
        check(r.returncode == 0, "%s: shape_app exit %d: %s" % (name, r.returncode, r.stderr[-800:]))
        fake = re.search(r"\[fake-sanitizer\] launches (\d+), instrumented (\d+), observed (\d+), patches (\d+), "
                         r"unpatches (\d+), unsafe unpatches (\d+)", r.stderr)
        check(fake is not None, "%s: the fake sanitizer's summary line is missing: %s" % (name, r.stderr[-800:]))
        f = [int(x) for x in fake.groups()] if fake else [0] * 6
        cov = []
        if os.path.exists(tr + ".observed.phos"):
            cov = pr.read_trace(tr + ".observed.phos").coverage
        check(len(cov) == 1, "%s: one coverage list in the side file, got %d" % (name, len(cov)))
        t = pr.read_trace(tr)
        return r, dict(zip(("launches", "instrumented", "observed", "patches", "unpatches", "unsafe"), f)), \
            (cov[0] if cov else {}), t

    plain = env.run([app], record=False)
    ck = re.search(r"checksum (\w+)", plain.stdout)
    check(plain.returncode == 0 and ck is not None, "shape_app without the tool: %s" % plain.stderr[-400:])

    # default: argument shapes. a, c, d, e of phase 1 and phase 2's shape: 5 argument shapes, 2 launches each observed;
    # b shares a's shape (other buffers, the same aliasing and offsets); phase 3's counter: 6 shapes, 1 launch each
    r, f, c, t = run("shapes-args", {})
    check(ck is not None and ("checksum " + ck.group(1)) in r.stdout, "the tool changes no result: %r" % r.stdout)
    check(f["launches"] == 48 and f["observed"] == 16, "argument shapes: 16 of 48 launches observed, got %s" % f)
    check(c.get("argument_shapes") == 11 and c.get("dimension_shapes") == 3,
          "argument shapes: 11 argument shapes of 3 function+grid+block shapes, got %s" % {k: c.get(k) for k in (
              "argument_shapes", "dimension_shapes")})
    check(len(c.get("observed", [])) == 16 and c.get("launches_seen") == 48, "coverage lists the 16 observed launches: %s" % c)
    check("argument shape" in c.get("shape_rule", "") and "aliasing" in c.get("shape_rule", ""),
          "the coverage says what a shape was: %r" % c.get("shape_rule"))
    check("argument shape" in c.get("policy", ""), "policy names the argument shape: %r" % c.get("policy"))
    launches = [e for e in t.events if "launch" in e]
    # the observed event indices are the launches of the recorder's trace, and name the phases' first launches
    idx = {i for i, e in enumerate(t.events) if "launch" in e}
    check(set(c.get("observed", [])) <= idx and len(launches) == 48, "coverage keys are launch events of the trace")
    check(f["unsafe"] == 0 and f["unpatches"] >= 1, "safe unpatching: %s" % f)
    check(re.search(r"unpatching safe: 0 put off, [1-9]\d* stream synchronisations", r.stderr) is not None,
          "the tool synchronises the module's streams before unpatching: %s" % r.stderr[-600:])

    # the unsafe diagnosis mode shows what the test guards against: s2's launches still in flight at the unpatch
    r, f, c, t = run("shapes-unsafe", {"PHOS_SANITIZER_UNPATCH_SAFE": "0"})
    check(f["unsafe"] >= 1 and "UNSAFE unpatch" in r.stderr, "without the safety the fake sees an unsafe unpatch: %s" % f)

    # two threads: B's observed launch held inside its launch call while A's launches make the module due for
    # unpatching: the unpatch is put off until B's launch is issued (patched), none is lost; the unsafe mode loses it
    held = {"SHAPE_APP_THREADS": "1", "FAKE_SANITIZER_HOLD_GRID": "4", "PHOS_SANITIZER_UNPATCH_BACKOFF": "0"}
    r, f, c, t = run("shapes-threads", held)
    lost = re.search(r"lost observations (\d+)", r.stderr)
    put_off = re.search(r"unpatching safe: (\d+) put off", r.stderr)
    check(lost is not None and lost.group(1) == "0" and f["unsafe"] == 0 and put_off is not None and int(put_off.group(1)) >= 1
          and f["unpatches"] >= 1, "threads: unpatch put off while B is inside its launch call, nothing lost: %s" % r.stderr[-700:])
    r, f, c, t = run("shapes-threads-unsafe", dict(held, PHOS_SANITIZER_UNPATCH_SAFE="0"))
    lost = re.search(r"lost observations (\d+)", r.stderr)
    check(lost is not None and int(lost.group(1)) >= 1 and "LOST observation" in r.stderr,
          "threads, unsafe mode: B's observed launch is issued unpatched: %s" % r.stderr[-500:])

    # parameters ignored (the rule before i15-shapes): function+grid+block, 3 shapes, 6 launches observed
    r, f, c, t = run("shapes-dims", {"PHOS_SANITIZER_ARG_SHAPES": "0"})
    check(f["observed"] == 6 and c.get("argument_shapes", 0) == 0 and "parameters not used" in c.get("shape_rule", ""),
          "function+grid+block only: 6 observed, got %s, %r" % (f, c.get("shape_rule")))

    # a cap of 2 argument shapes per function+grid+block: d and e of phase 1 (10 launches) and 4 of phase 3 are not
    # observed
    r, f, c, t = run("shapes-cap", {"PHOS_SANITIZER_ARG_SHAPES": "2"})
    check(f["observed"] == 8 and c.get("capped_launches") == 14, "cap 2: 8 observed, 14 capped, got %s, %s" % (
        f, c.get("capped_launches")))

    # pointer words as "a pointer" only: d and e count as a; 9 argument shapes, 12 observed
    r, f, c, t = run("shapes-anyptr", {"PHOS_SANITIZER_ARG_POINTERS": "any"})
    check(f["observed"] == 12 and c.get("argument_shapes") == 9 and "any pointer" in c.get("shape_rule", ""),
          "any pointer: 12 observed, 9 argument shapes, got %s, %s" % (f, c))
    # a scalar masked once it took 2 values: n of phase 1 (64, 128) and phase 3's counter stop counting; a masked
    # word re-keys the shapes seen before (c's second launch, phase 3's third): 9 argument shapes, 15 observed
    r, f, c, t = run("shapes-stable", {"PHOS_SANITIZER_ARG_STABLE": "2"})
    check(f["observed"] == 15 and c.get("argument_shapes") == 9 and "until a word takes 2 values" in c.get("shape_rule", "")
          and "2 scalar words masked" in r.stderr, "stable 2: 15 observed, 9 argument shapes, got %s, %s" % (f, c))
    r, f, c, t = run("shapes-badopt", {"PHOS_SANITIZER_ARG_POINTERS": "some", "PHOS_SANITIZER_ARG_STABLE": "1"})
    check("PHOS_SANITIZER_ARG_POINTERS=some: not 'alias' or 'any'" in r.stderr and "PHOS_SANITIZER_ARG_STABLE=1: must be 0"
          in r.stderr and f["observed"] == 15, "bad option values are named and replaced: %s" % r.stderr[-600:])
    check(f["unsafe"] == 0, "cap 2: safe unpatching: %s" % f)

    # without the recorder there are no parameter bytes: function+grid+block, and the side file keys are ordinals
    tr = env.trace_path("shapes-norec.observed.phos")
    r = env.run([app], record=False, env={"LD_PRELOAD": tool, "PHOS_SANITIZER_PATCH": patch, "PHOS_SANITIZER_SHAPES": "2",
                                          "PHOS_SANITIZER_UNPATCH_AFTER": "4", "PHOS_SANITIZER_OUT": tr})
    cov = pr.read_trace(tr).coverage if os.path.exists(tr) else []
    check(r.returncode == 0 and len(cov) == 1 and len(cov[0]["observed"]) == 6 and "parameters not used" in cov[0].get(
        "shape_rule", ""), "no recorder: function+grid+block shapes, 6 observed: %s %s" % (cov, r.stderr[-400:]))

    # the offline replica of the rules (bench/shape_rules_analyse.py) agrees with the tool on the same launches
    tr = env.trace_path("shapes-args.phos")
    out = subprocess.run([sys.executable, os.path.join(HERE, "..", "bench", "shape_rules_analyse.py"), tr, "3"],
                         capture_output=True, text=True, timeout=60).stdout
    got = {l.split()[0] + (" " + l.split()[1] if l.split()[1].startswith("cap") else ""): l.split() for l in out.splitlines()[2:]}
    check(got.get("args cap8", [None] * 4)[2:4] == ["16", "3"] and got.get("args cap2", [None] * 4)[2] == "8"
          and got.get("dims", [None] * 3)[1] == "6" and got.get("stable2 cap8", [None] * 4)[2] == "15"
          and got.get("scalars cap8", [None] * 4)[2] == "12", "shape_rules_analyse.py matches the tool: %s" % out)
# i15-shapes: end


# ------------------------------------------------------------------ i14-liveacc: observed accesses on the live stream
def test_attach_observed(env):
    """fake_app's fake observer hands over observed accesses through phos_recorder_observed (as the sanitizer tool
    does after each read-back): attached readers get them as ObservedBatch chunks after the launches they name, the
    trace file does not, a late reader gets those of the launches it holds, a stalled one is told what it missed"""
    def obs(app):
        app.p.stdin.write("observe\n")
        app.p.stdin.flush()
        w = app.p.stdout.readline().split()
        return (int(w[3]), int(w[5])) if len(w) == 6 and w[0] == "ok" else (-1, -9)

    app = LiveApp(env, "attach-observed", {"FAKE_OBSERVER": "1"})
    app.cmd("launch 8")
    n_before, rc0 = obs(app)
    check(n_before == 8 and rc0 == 1, "observed: with no reader attached nothing is queued (rc %d for %d launches)" % (rc0, n_before))
    a = StreamReader(app.sock)
    sa = a.wait_start()
    app.cmd("launch 40")
    n1, rc1 = obs(app)
    b = StreamReader(app.sock)   # a late reader: joins after the first batch was handed over
    sb = b.wait_start()
    app.cmd("launch 24")
    n2, rc2 = obs(app)
    check((n1, rc1, n2, rc2) == (40, 0, 24, 0), "observed: both hand-overs queued (%s)" % [(n1, rc1), (n2, rc2)])
    ta = a.wait_events(10 ** 9, timeout=3)   # (the stream has not ended: what it has now)
    t0 = time.time()
    while len(ta.coverage) < 2 and time.time() - t0 < 5:
        time.sleep(0.05)
        ta = a.trace()
    got_live = len(ta.coverage)
    app.finish()
    ta = a.wait_events(10 ** 9, timeout=5)
    tb = b.wait_events(10 ** 9, timeout=5)
    a.close(); b.close()
    tf = pr.read_trace(app.out)
    launch_idx = [i for i, e in zip(ta.index, ta.events) if e.get("launch")]
    # the launches of the two observed rounds: after the reader joined
    live = [i for i, e in enumerate(tf.events) if e.get("launch")][8:]   # the launches of the two observed rounds
    check(got_live == 2, "observed: the batches arrive while the process runs (%d ObservedBatch chunks before exit)" % got_live)
    cov = sorted(i for c in ta.coverage for i in c["observed"])
    check(cov == live and all(c.get("tool") == "sanitizer" and c.get("policy") == "every launch" for c in ta.coverage),
          "observed: the coverage names every observed launch by its event index (%d of %d)" % (len(cov), len(live)))
    acc = ta.observed
    pos = {i: k for k, i in enumerate(ta.index)}
    named = all(x.get("launch_index") in pos and ta.events[pos[x["launch_index"]]].get("launch") for x in acc)
    expect = sum(0 if k % 4 == 3 else 2 for k in range(8, 8 + 64))
    check(named and len(acc) == expect, "observed: every access names a launch the reader holds (%d accesses, %d expected)"
          % (len(acc), expect))
    halves = [x for x in acc if x.get("written") and x["written"][0]["end"] - x["written"][0]["begin"] == 128]
    check(len(halves) == 16, "observed: ranges and counts as handed over (%d half writes)" % len(halves))
    check(ta.end is not None and ta.end.get("observed_live_launches") == 72 and not ta.end.get("observed_live_dropped"),
          "observed: TraceEnd counts the launches handed over (%s)" % {k: v for k, v in (ta.end or {}).items() if "observed" in k})
    check(not tf.observed and not tf.coverage and not tf.warnings, "observed: the trace file holds no observations (%d, %s)"
          % (len(tf.observed), tf.warnings))
    check(same_events(ta, tf), "observed: the stream's events are the file's")
    covb = sorted(i for c in tb.coverage for i in c["observed"])
    lb = [i for i, e in zip(tb.index, tb.events) if e.get("launch") and i >= sb.get("first_live_index", 0)]
    # the reader joins when the writer accepts it: launches the program issued before but the writer had not yet
    # written (under load, some or all of the 40 of round 2) are live for it too, with their observations
    ordinal = {i: k for k, i in enumerate(i for i, e in enumerate(tf.events) if e.get("launch"))}
    kb = [ordinal.get(i, -1) for i in lb]
    check(covb == lb and 24 <= len(lb) <= 64 and kb == list(range(72 - len(lb), 72))
          and len(tb.observed) == sum(0 if k % 4 == 3 else 2 for k in kb),
          "observed: a late reader gets the observations handed over after it joined (%d launches, %d accesses)"
          % (len(covb), len(tb.observed)))

    # more than 4 x PHOS_ATTACH_QUEUE at once: dropped by the recorder, counted in TraceEnd
    app = LiveApp(env, "attach-observed-big", {"FAKE_OBSERVER": "1", "PHOS_ATTACH_QUEUE": "64k"})
    r = StreamReader(app.sock)
    r.wait_start()
    app.cmd("launch 60000")
    nbig, rcbig = obs(app)
    app.finish()
    tr = r.wait_events(10 ** 9, timeout=10)
    r.close()
    check(rcbig == -1 and tr.end is not None and tr.end.get("observed_live_dropped") == nbig == 60000 and not tr.coverage,
          "observed: a batch over the recorder's queue is dropped and counted (rc %d, TraceEnd %s)"
          % (rcbig, {k: v for k, v in (tr.end or {}).items() if "observed" in k}))

    # a reader that does not read: its observations are dropped like its events, and it is told (ObservedGap)
    # (uncompressed chunks: the batch of 2000 launches alone is over the reader's 64k, whatever its queue holds)
    app = LiveApp(env, "attach-observed-stall", {"FAKE_OBSERVER": "1", "PHOS_ATTACH_QUEUE": "64k", "PHOS_COMPRESS": "0"})
    st = StreamReader(app.sock, read=False)
    time.sleep(0.1)
    app.cmd("launch 300000")   # its queue fills (its events are dropped)
    app.cmd("forget")
    app.cmd("launch 2000")
    nd, rcd = obs(app)
    time.sleep(0.3)            # the writer's turns: the batch is due while the reader's queue is full
    st.go.set()
    app.cmd("launch 4")
    n5, rc5 = obs(app)
    app.finish()
    ts = st.wait_events(10 ** 9, timeout=10)
    st.close()
    check(rcd == 0 and ts.observed_missed == nd == 2000 and any("observations of 2000 launches" in w for w in ts.warnings),
          "observed: a stalled reader is told the observations it missed (ObservedGap: %d of %d launches, %s)"
          % (ts.observed_missed, nd, ts.warnings[-1:]))
    last4 = [i for i, e in zip(ts.index, ts.events) if e.get("launch")][-4:]
    check(sorted(i for c in ts.coverage for i in c["observed"]) == last4 and n5 == 4 and rc5 == 0,
          "observed: it gets the next batch after the gap (%d launches)" % sum(len(c["observed"]) for c in ts.coverage))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(HERE, "..", "build"))
    a = ap.parse_args()
    env = Env(a.build)
    ap_only = os.environ.get("PHOS_TESTS")   # e.g. PHOS_TESTS=more,inject runs only those sections
    sections = (("format", test_format), ("basic", test_basic), ("more", test_more), ("alloc blocks", test_alloc_blocks), ("inject", test_inject), ("many", test_many), ("timing sample", test_timing_sample), ("diag skip", test_diag_skip), ("phos-record", test_phos_record), ("triton ptx", test_triton_ptx), ("signals", test_signals),
                     ("other processes", test_other_processes), ("two processes", test_two_processes), ("fifo", test_fifo),
                     ("write error", test_write_error), ("ring overflow", test_ring_overflow),
                     ("attach", test_attach), ("checkpoint", test_checkpoint),  # i14-ckpt: checkpoint
                     ("checkpoint cupti", test_checkpoint_cupti),  # i14-cupti
                     ("sanitizer shapes", test_sanitizer_shapes),  # i15-shapes
                     ("attach observed", test_attach_observed))  # i14-liveacc
    for name, fn in sections:
        if ap_only and name not in ap_only.split(","):
            continue
        before = (passed, failed)
        try:
            fn(env)
        except Exception as e:  # a crash of the test itself is a failure, with its message
            check(False, "%s raised %s: %s" % (name, type(e).__name__, e))
        print("%-16s %d passed, %d failed" % (name, passed - before[0], failed - before[1]))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
