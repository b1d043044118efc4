#!/usr/bin/env python3
"""Read a .phos trace (docs/trace-format.md) with nothing but the Python standard library.

This is the "researcher's own script": it decodes the chunk framing (checking both CRC-32Cs), the protobuf wire
format of the messages in docs/phos-trace-v1.proto, and zstd chunks when a zstd decoder is at hand (Python 3.14's
compression.zstd, the zstandard package, libzstd.so.1 through ctypes, or the zstd command). Damage is handled as the
format says, and as the Java reader does: reading stops at the first bad chunk, keeps what came before, and reports
the byte offset and the reason in one line; a zstd chunk never inflates past the size its header declares. Input
that is not a trace at all fails with one line, never a traceback.

    python3 phos_read.py TRACE.phos              # summary: header, counts, modules, functions, warnings
    python3 phos_read.py TRACE.phos --events     # one line per event
    python3 phos_read.py TRACE.phos --json       # everything as JSON (bytes as hex)
    python3 phos_read.py TRACE.phos --verdict    # one line: ok N | damaged N at OFFSET | refused at OFFSET

As a module: ``trace = phos_read.read_trace(path)`` gives ``trace.header``, ``trace.modules``, ``trace.functions``
(dicts by id), ``trace.events`` (list of dicts, index = event index), ``trace.end``, ``trace.warnings``.
"""
import json
import struct
import subprocess
import sys

MAGIC = b"PHOS\r\n\x1a\n"
CHUNK_MAGIC = b"PCHK"
MAX_LEN = 256 << 20

# ---------------------------------------------------------------- CRC-32C
_CRC_TABLE = []
for _i in range(256):
    _c = _i
    for _ in range(8):
        _c = (_c >> 1) ^ 0x82F63B78 if _c & 1 else _c >> 1
    _CRC_TABLE.append(_c)


def crc32c(data, crc=0):
    crc ^= 0xFFFFFFFF
    t = _CRC_TABLE
    for b in data:
        crc = t[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def fnv1a64(data):
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


# ---------------------------------------------------------------- schema (field number -> name, kind)
# kinds: u = varint, b = bool, s = string, y = bytes, f64 = fixed64, message name, and "*" prefix = repeated
SCHEMA = {
    "TraceHeader": {1: ("format_version", "u"), 2: ("recorder", "s"), 3: ("recorder_version", "s"), 4: ("host", "s"),
                    5: ("pid", "u"), 6: ("argv", "*s"), 7: ("device_name", "s"), 8: ("cc_major", "u"),
                    9: ("cc_minor", "u"), 10: ("driver_version", "u"), 11: ("runtime_version", "u"),
                    12: ("clock_domain", "s"), 13: ("start_unix_ns", "u"), 14: ("start_mono_ns", "u"),
                    15: ("payload_limit", "u"), 16: ("gpu_timing", "b"), 17: ("device_memory", "u"),
                    40: ("timing_sampling", "TimingSampling"),
                    45: ("allocator_events", "s"),   # i15-alloc
                    46: ("working_directory", "s")},
    "TimingSampling": {1: ("mode", "u"), 2: ("first_launches", "u"), 3: ("min_interval", "u"), 4: ("max_interval", "u"),
                       5: ("budget_permille", "u"), 6: ("shape_key", "s"),
                       # i15-timing: how GPU times are taken and event-timed spans corrected
                       20: ("gpu_time_source", "s"), 21: ("event_gate", "u"), 22: ("event_correction", "s"),
                       23: ("probe_kernel_ns", "u"), 24: ("event_bias_ns", "u"), 25: ("probe_fallback", "s"),
                       26: ("probe_window", "u"), 27: ("burst_launches", "u"), 28: ("burst_duty_permille", "u"),
                       29: ("burst_max_ms", "u"), 30: ("burst_gap_max_ms", "u"),
                       31: ("first_burst_max_ms", "u"), 32: ("release_after_first_burst", "u")},
    "Module": {1: ("id", "u"), 2: ("kind", "u"), 3: ("image", "y"), 4: ("hash", "f64"), 5: ("origin", "s"),
               6: ("image_size", "u"), 20: ("ptx", "y"), 21: ("ptx_source", "s")},
    "ParamInfo": {1: ("offset", "u"), 2: ("size", "u")},
    "Function": {1: ("id", "u"), 2: ("module", "u"), 3: ("mangled_name", "s"), 4: ("demangled_name", "s"),
                 5: ("params", "*ParamInfo")},
    "Alloc": {1: ("address", "u"), 2: ("size", "u"), 3: ("kind", "u"), 4: ("stream", "u")},
    "Free": {1: ("address", "u"), 2: ("kind", "u"), 3: ("stream", "u")},
    "Memcpy": {1: ("kind", "u"), 2: ("src", "u"), 3: ("dst", "u"), 4: ("bytes", "u"), 5: ("stream", "u"),
               6: ("async", "b"), 7: ("payload", "y"), 8: ("gpu_start_ns", "u"), 9: ("gpu_end_ns", "u"),
               10: ("width", "u"), 11: ("height", "u"), 12: ("depth", "u"), 13: ("src_array_offset", "u"),
               14: ("dst_array_offset", "u")},
    "Memset": {1: ("dst", "u"), 2: ("bytes", "u"), 3: ("value", "u"), 4: ("element_size", "u"), 5: ("stream", "u"),
               6: ("async", "b"), 8: ("gpu_start_ns", "u"), 9: ("gpu_end_ns", "u")},
    "Launch": {1: ("function", "u"), 2: ("grid_x", "u"), 3: ("grid_y", "u"), 4: ("grid_z", "u"), 5: ("block_x", "u"),
               6: ("block_y", "u"), 7: ("block_z", "u"), 8: ("shared_mem", "u"), 9: ("stream", "u"),
               10: ("params", "y"), 11: ("gpu_start_ns", "u"), 12: ("gpu_end_ns", "u"), 13: ("kind", "u"),
               14: ("graph_launch", "u")},
    "Sync": {1: ("kind", "u"), 2: ("stream", "u"), 3: ("event", "u"), 4: ("flags", "u"), 5: ("user_data", "u")},
    "Array": {1: ("op", "u"), 2: ("handle", "u"), 3: ("bytes", "u"), 4: ("format", "u"), 5: ("channels", "u"),
              6: ("width", "u"), 7: ("height", "u"), 8: ("depth", "u"), 9: ("flags", "u")},
    "TensorMap": {1: ("kind", "u"), 2: ("address", "u"), 3: ("data_type", "u"), 4: ("rank", "u"), 5: ("dims", "*u"),
                  6: ("strides", "*u"), 7: ("box", "*u"), 8: ("element_strides", "*u"), 9: ("interleave", "u"),
                  10: ("swizzle", "u"), 11: ("l2_promotion", "u"), 12: ("oob_fill", "u"), 13: ("map", "y"),
                  14: ("extent", "u")},
    "GraphLaunch": {1: ("graph_exec", "u"), 2: ("stream", "u"), 3: ("kernel_nodes", "u")},
    "Event": {1: ("host_ns", "u"), 2: ("thread", "u"), 10: ("alloc", "Alloc"), 11: ("free", "Free"),
              12: ("memcpy", "Memcpy"), 13: ("memset", "Memset"), 14: ("launch", "Launch"), 15: ("sync", "Sync"),
              16: ("graph_launch", "GraphLaunch"), 17: ("array", "Array"), 18: ("tensor_map", "TensorMap"),
              19: ("allocator_block", "AllocatorBlock")},   # i15-alloc
    # i15-alloc: a caching allocator's block event (PHOS_TORCH_ALLOC=1)
    "AllocatorBlock": {1: ("action", "u"), 2: ("address", "u"), 3: ("size", "u"), 4: ("stream", "u"), 5: ("device", "u")},
    "EventBatch": {1: ("first_index", "u"), 2: ("events", "*Event")},
    "Range": {1: ("begin", "u"), 2: ("end", "u")},
    "ObservedAccess": {1: ("launch_index", "u"), 2: ("allocation", "u"), 3: ("read", "*Range"),
                       4: ("written", "*Range"), 5: ("read_count", "u"), 6: ("write_count", "u"), 7: ("tool", "s")},
    "ObservedBatch": {1: ("accesses", "*ObservedAccess"), 2: ("coverage", "ObservationCoverage")},
    # i15-cost: which launches an observer observed (packed varints in "observed"; unpacked by read_bytes)
    "ObservationCoverage": {1: ("tool", "s"), 2: ("observed", "y"), 3: ("policy", "s"), 4: ("launches_seen", "u"),
                            # i15-shapes: what a launch shape was, and what sampling by shape gave
                            20: ("shape_rule", "s"), 21: ("dimension_shapes", "u"), 22: ("argument_shapes", "u"),
                            23: ("capped_launches", "u"), 24: ("launches_without_parameters", "u"), 25: ("unpatches", "u")},
    "UnrecordedCalls": {1: ("call", "s"), 2: ("count", "u")},
    # i14-cupti: intervals whose GPU times came from another source than the trace's (CUPTI released for a checkpoint)
    "TimingGap": {1: ("start_ns", "u"), 2: ("end_ns", "u"), 3: ("source", "s"), 4: ("reason", "s")},
    "TraceEnd": {1: ("event_count", "u"), 2: ("dropped_events", "u"), 3: ("end_ns", "u"), 4: ("unrecorded", "*UnrecordedCalls"),
                 5: ("timing_gaps", "*TimingGap"),
                 # i14-liveacc: launches whose observations a tool handed over live, and those the recorder dropped
                 20: ("observed_live_launches", "u"), 21: ("observed_live_dropped", "u"),
                 22: ("timing_bursts", "u"), 23: ("timing_burst_ns", "u")},
    # live attach stream (docs/trace-format.md "Live attach")
    "EventGap": {1: ("first_index", "u"), 2: ("count", "u"), 3: ("reason", "u")},
    "StreamStart": {1: ("first_live_index", "u"), 2: ("events_so_far", "u"), 3: ("dropped_so_far", "u"),
                    4: ("trace_path", "s"), 5: ("pid", "u"), 6: ("live_allocations", "u"), 7: ("attached_ns", "u")},
    # i14-liveacc: observations dropped for this reader (its queue was full)
    "ObservedGap": {1: ("batches", "u"), 2: ("launches", "u")},
}
CHUNK_TYPES = {1: "TraceHeader", 2: "Module", 3: "Function", 4: "EventBatch", 5: "ObservedBatch", 6: "TraceEnd",
               7: "EventGap", 8: "StreamStart", 9: "ObservedGap"}
GAP_REASONS = {1: "attached late", 2: "reader behind"}
BODIES = ("alloc", "free", "memcpy", "memset", "launch", "sync", "graph_launch", "array", "tensor_map",
          "allocator_block")   # i15-alloc
ENUMS = {
    # i15-alloc
    "BlockAction": ["BLOCK_UNKNOWN", "BLOCK_ALLOC", "BLOCK_FREE_REQUESTED", "BLOCK_FREE_COMPLETED", "SEGMENT_ALLOC",
                    "SEGMENT_FREE", "SEGMENT_MAP", "SEGMENT_UNMAP", "ALLOCATOR_OOM"],
    "ModuleKind": ["MODULE_UNKNOWN", "PTX", "CUBIN", "FATBIN"],
    "AllocKind": ["ALLOC_PLAIN", "ALLOC_ASYNC", "ALLOC_MANAGED", "ALLOC_VMM", "ALLOC_HOST_PINNED", "ALLOC_PITCHED"],
    "CopyKind": ["COPY_UNKNOWN", "H2D", "D2H", "D2D", "H2H", "PEER", "DEFAULT", "H2A", "A2H", "D2A", "A2D", "A2A"],
    "ArrayOp": ["ARRAY_OP_UNKNOWN", "ARRAY_CREATE", "ARRAY_DESTROY"],
    "TensorMapKind": ["TENSOR_MAP_UNKNOWN", "TILED", "IM2COL", "IM2COL_WIDE"],
    "LaunchKind": ["LAUNCH_PLAIN", "LAUNCH_EX", "LAUNCH_COOPERATIVE", "LAUNCH_GRAPH_NODE"],
    "SyncKind": ["SYNC_UNKNOWN", "STREAM_CREATE", "STREAM_DESTROY", "EVENT_CREATE", "EVENT_DESTROY", "EVENT_RECORD",
                 "STREAM_WAIT_EVENT", "STREAM_SYNCHRONIZE", "EVENT_SYNCHRONIZE", "CONTEXT_SYNCHRONIZE",
                 "GRAPH_CAPTURE_BEGIN", "GRAPH_CAPTURE_END", "HOST_FUNCTION", "STREAM_CALLBACK"],
}


class DecodeError(Exception):
    """A file that is not a trace at all (bad magic, unknown version, bad first chunk); ``offset`` says where."""

    def __init__(self, message, offset=0):
        Exception.__init__(self, message)
        self.offset = offset


class OutOfMemory(DecodeError):
    """A chunk needs more memory than this process may have (``offset`` names the chunk)."""


def _varint(buf, pos, end):
    result = shift = 0
    while True:
        if pos >= end:
            raise DecodeError("varint runs past the end of the message at payload byte %d" % pos)
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result & 0xFFFFFFFFFFFFFFFF, pos
        shift += 7
        if shift >= 70:
            raise DecodeError("varint longer than 10 bytes at payload byte %d" % pos)


def _tag(buf, pos, end):
    key, pos = _varint(buf, pos, end)
    if key >> 32 or key >> 3 == 0:
        raise DecodeError("invalid field tag %d at payload byte %d" % (key, pos))
    return key, pos


def _skip(buf, pos, end, key, depth=0):
    """Skips the field whose tag ``key`` was just read (protobuf rules for unknown fields, groups included)."""
    wt = key & 7
    if wt == 0:
        return _varint(buf, pos, end)[1]
    if wt == 1 or wt == 5:
        n = 8 if wt == 1 else 4
        if end - pos < n:
            raise DecodeError("field runs past the end of the message at payload byte %d" % pos)
        return pos + n
    if wt == 2:
        ln, pos = _varint(buf, pos, end)
        if ln > end - pos:
            raise DecodeError("length-delimited field of %d bytes exceeds the %d bytes left" % (ln, end - pos))
        return pos + ln
    if wt == 3:
        if depth > 64:
            raise DecodeError("groups nested too deeply at payload byte %d" % pos)
        while True:
            if pos >= end:
                raise DecodeError("unterminated group at payload byte %d" % pos)
            k, pos = _tag(buf, pos, end)
            if k & 7 == 4:
                if k >> 3 != key >> 3:
                    raise DecodeError("mismatched end of group at payload byte %d" % pos)
                return pos
            pos = _skip(buf, pos, end, k, depth + 1)
    raise DecodeError("invalid wire type %d at payload byte %d" % (wt, pos))


# the wire type each kind of SCHEMA field has; a field that arrives with another is skipped like an unknown one
# (as the Java reader does)
_WIRE = {"u": 0, "b": 0, "f64": 1, "s": 2, "y": 2}


def decode(buf, msg, pos=0, end=None):
    """Decode protobuf bytes as message `msg` of SCHEMA into a dict (unknown fields are skipped).

    The rules are protobuf's, as the Java reader keeps them: a field with the wrong wire type is skipped like an
    unknown one, the last value of a scalar wins, a repeated message field merges, and of the bodies of an Event
    (a oneof) only the last one counts: a repeated body merges, a different one replaces it.
    """
    if end is None:
        end = len(buf)
    fields = SCHEMA[msg]
    out = {}
    for num, (name, kind) in fields.items():
        if kind.startswith("*"):
            out[name] = []
    while pos < end:
        key, pos = _tag(buf, pos, end)
        num, wt = key >> 3, key & 7
        spec = fields.get(num)
        base = spec[1].lstrip("*") if spec else None
        if spec is None or _WIRE.get(base, 2) != wt:
            pos = _skip(buf, pos, end, key)
            continue
        name, kind = spec
        if wt == 0:
            val, pos = _varint(buf, pos, end)
        elif wt == 1:
            if end - pos < 8:
                raise DecodeError("field runs past the end of the message at payload byte %d" % pos)
            val = struct.unpack_from("<Q", buf, pos)[0]
            pos += 8
        else:
            ln, pos = _varint(buf, pos, end)
            if ln > end - pos:
                raise DecodeError("length-delimited field %d of %d bytes exceeds the %d bytes left" % (num, ln, end - pos))
            start, pos = pos, pos + ln
            if base in SCHEMA:
                val = decode(buf, base, start, pos)
            else:
                val = bytes(buf[start:pos])
        if base == "s":
            val = val.decode("utf-8", "replace")
        elif base == "b":
            val = bool(val)
        if kind.startswith("*"):
            out[name].append(val)
        elif msg == "Event" and name in BODIES:
            for other in BODIES:
                if other != name:
                    out.pop(other, None)
            if name in out:
                merged = dict(out[name])
                merged.update(val)
                val = merged
            out[name] = val
        elif base in SCHEMA and name in out:
            merged = dict(out[name])
            merged.update(val)
            out[name] = merged
        else:
            out[name] = val
    return out


def _zstd_decompress(data, raw_len):
    """Inflates a zstd chunk, never to more than ``raw_len`` bytes: a frame that inflates past what its chunk
    declares is damage, and bounding it keeps an inflation bomb from taking memory."""
    try:
        from compression import zstd  # Python 3.14+
        d = zstd.ZstdDecompressor()
        try:
            out = d.decompress(data, max_length=raw_len + 1)
        except zstd.ZstdError as e:
            raise DecodeError("zstd decompression failed: %s" % e)
        if len(out) > raw_len:
            raise DecodeError("zstd payload inflates past the %d bytes the chunk header declares" % raw_len)
        return out
    except ImportError:
        pass
    try:
        import zstandard
        try:
            out = zstandard.ZstdDecompressor().stream_reader(bytes(data)).read(raw_len + 1)
        except zstandard.ZstdError as e:
            raise DecodeError("zstd decompression failed: %s" % e)
        if len(out) > raw_len:
            raise DecodeError("zstd payload inflates past the %d bytes the chunk header declares" % raw_len)
        return out
    except ImportError:
        pass
    try:  # the C library through ctypes (present wherever the recorder could compress)
        import ctypes
        lib = ctypes.CDLL("libzstd.so.1")
    except OSError:
        lib = None
    if lib is not None:
        lib.ZSTD_decompress.restype = ctypes.c_size_t
        lib.ZSTD_decompress.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t]
        lib.ZSTD_isError.restype = ctypes.c_uint
        lib.ZSTD_isError.argtypes = [ctypes.c_size_t]
        lib.ZSTD_getErrorName.restype = ctypes.c_char_p
        lib.ZSTD_getErrorName.argtypes = [ctypes.c_size_t]
        # the output buffer is what the chunk declares: a frame that inflates past it fails ("Destination buffer
        # is too small") instead of growing
        out = ctypes.create_string_buffer(max(raw_len, 1))
        n = lib.ZSTD_decompress(out, raw_len, bytes(data), len(data))
        if lib.ZSTD_isError(n):
            raise DecodeError("zstd decompression failed: %s" % lib.ZSTD_getErrorName(n).decode("ascii", "replace"))
        return out.raw[:n]
    try:
        p = subprocess.Popen(["zstd", "-d", "-c", "-q"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL)
    except OSError as e:
        raise DecodeError("zstd chunk but no zstd decoder (install zstandard or the zstd tool): %s" % e)
    import threading
    feeder = threading.Thread(target=lambda: (_quiet_write(p.stdin, data)), daemon=True)
    feeder.start()
    out = p.stdout.read(raw_len + 1)
    p.kill()
    p.wait()
    if len(out) > raw_len:
        raise DecodeError("zstd payload inflates past the %d bytes the chunk header declares" % raw_len)
    if p.returncode not in (0, -9) and len(out) != raw_len:
        raise DecodeError("zstd decompression failed")
    return out


def _quiet_write(f, data):
    try:
        f.write(data)
        f.close()
    except OSError:
        pass


class Trace:
    def __init__(self):
        self.header = None
        self.modules = {}
        self.functions = {}
        self.events = []
        self.observed = []
        self.coverage = []   # ObservationCoverage messages (i15-cost)
        self.end = None
        self.warnings = []
        self.chunks = 0
        self.damage_offset = None  # byte offset of the chunk where reading stopped, or None
        # a live attach stream: where the reader joined, the events it does not hold (first, count, reason) and the
        # process's event index of each event it holds (events[i] is event index[i] of the process)
        self.stream_start = None
        self.gaps = []
        self.skipped = 0
        self.observed_missed = 0   # i14-liveacc: launches whose live observations this reader missed (ObservedGap)
        self.index = []


def _read_input(path):
    """The file's bytes. A named pipe (FIFO) is refused before it is opened (opening one with no writer blocks);
    standard input given as /dev/stdin or /proc/self/fd/N is read to its end like any stream."""
    import os
    import stat
    try:
        mode = os.stat(path).st_mode
    except OSError as e:
        raise DecodeError("%s: cannot read: %s" % (path, e.strerror or e))
    if stat.S_ISDIR(mode):
        raise DecodeError("%s: is a directory, not a trace file" % path)
    if stat.S_ISFIFO(mode) and not _is_inherited_pipe(path):
        raise DecodeError("%s: is a named pipe (FIFO); read a regular file, or pipe the trace into /dev/stdin" % path)
    if stat.S_ISCHR(mode) or stat.S_ISSOCK(mode) or stat.S_ISBLK(mode):
        raise DecodeError("%s: is a device or socket, not a trace file" % path)
    with open(path, "rb") as f:
        return f.read()


def _is_inherited_pipe(path):
    """True for a path that names a pipe this process already holds open (/dev/stdin, /dev/fd/N, /proc/self/fd/N):
    it has a writer, so opening it cannot block."""
    import os
    p = path
    for _ in range(40):
        if not os.path.islink(p):
            return False
        target = os.readlink(p)
        if target.startswith("pipe:["):
            return True
        p = os.path.join(os.path.dirname(p), target)
    return False


def read_trace(path, check_crc=True):
    """Reads a trace. Damage after the first chunk ends reading with a warning (the intact prefix is kept, and
    ``trace.damage_offset`` names the chunk); a file that is not a trace raises :class:`DecodeError`."""
    data = _read_input(path)
    return read_bytes(data, path, check_crc)


def read_bytes(data, path="<bytes>", check_crc=True):
    t = Trace()
    if len(data) < 16:
        raise DecodeError("%s: not a .phos trace: the file has %d bytes, fewer than the 16-byte file header" % (path, len(data)))
    if data[:8] != MAGIC:
        raise DecodeError("%s: not a .phos trace (bad magic at offset 0)" % path)
    version = struct.unpack_from("<I", data, 8)[0]
    if version != 1:
        raise DecodeError("%s: format version %d is not the one this reader knows (1)" % (path, version), 8)
    pos = 16
    off = pos
    while pos < len(data):
        off = pos
        name = None
        try:
            if len(data) - pos < 24:
                raise DecodeError("truncated chunk header")
            hdr = data[pos:pos + 24]
            magic, ctype, codec, _r, stored, raw, pcrc, hcrc = struct.unpack("<4sHBBIIII", hdr)
            if magic != CHUNK_MAGIC:
                raise DecodeError("bad chunk magic")
            if check_crc and crc32c(hdr[:20]) != hcrc:
                raise DecodeError("chunk header CRC mismatch")
            if stored > MAX_LEN or raw > MAX_LEN:
                raise DecodeError("chunk length over 256 MiB")
            if pos + 24 + stored > len(data):
                raise DecodeError("truncated chunk payload (%d of %d bytes)" % (len(data) - pos - 24, stored))
            if codec == 0 and stored != raw:
                raise DecodeError("uncompressed chunk with stored length %d != raw length %d" % (stored, raw))
            payload = data[pos + 24:pos + 24 + stored]
            if check_crc and crc32c(payload) != pcrc:
                raise DecodeError("payload CRC mismatch")
            pos += 24 + stored
            if codec == 1:
                try:
                    payload = _zstd_decompress(payload, raw)
                except MemoryError:
                    raise OutOfMemory("%s: chunk at offset %d (%d bytes inflated) needs more memory than this"
                                      " process may have" % (path, off, raw), off)
            elif codec != 0:
                if t.header is None:
                    raise DecodeError("%s: first chunk at offset %d uses unknown codec %d" % (path, off, codec), off)
                t.warnings.append("offset %d: unknown codec %d, chunk skipped" % (off, codec))
                continue
            if len(payload) != raw:
                raise DecodeError("raw length %d != %d" % (len(payload), raw))
            if ctype not in CHUNK_TYPES:
                if t.header is None:
                    raise DecodeError("%s: first chunk at offset %d is type %d, not TraceHeader" % (path, off, ctype), off)
                continue  # unknown chunk type: skipped (forward compatibility)
            name = CHUNK_TYPES[ctype]
            msg = decode(payload, name)
            if name == "EventBatch":
                first = msg.get("first_index", 0)
                if first != len(t.events) + t.skipped:
                    raise DecodeError("batch first_index is %d but %d events precede it" % (first, len(t.events) + t.skipped))
            elif name == "EventGap":
                if msg.get("first_index", 0) != len(t.events) + t.skipped:
                    raise DecodeError("EventGap first_index is %d but %d events precede it" % (msg.get("first_index", 0), len(t.events) + t.skipped))
        except OutOfMemory:
            raise
        except MemoryError:
            raise OutOfMemory("%s: chunk at offset %d needs more memory than this process may have" % (path, off), off)
        except DecodeError as e:
            if t.header is None:
                raise DecodeError("%s: first chunk at offset %d is bad: %s" % (path, off, e), off)
            t.warnings.append("offset %d: %s; stopped reading, kept the chunks before it" % (off, e))
            t.damage_offset = off
            break
        t.chunks += 1
        if t.header is None and name != "TraceHeader":
            raise DecodeError("%s: first chunk at offset %d is %s, not TraceHeader" % (path, off, name), off)
        if name == "TraceHeader":
            if t.header is None:
                t.header = msg
            else:
                t.warnings.append("offset %d: a second TraceHeader chunk was ignored" % off)
        elif name == "Module":
            t.modules[msg.get("id", 0)] = msg
        elif name == "Function":
            t.functions[msg.get("id", 0)] = msg
        elif name == "EventBatch":
            t.index.extend(range(len(t.events) + t.skipped, len(t.events) + t.skipped + len(msg["events"])))
            t.events.extend(msg["events"])
        elif name == "EventGap":
            t.gaps.append((msg.get("first_index", 0), msg.get("count", 0), msg.get("reason", 0)))
            t.skipped += msg.get("count", 0)
        elif name == "StreamStart":
            t.stream_start = msg
        elif name == "ObservedBatch":
            t.observed.extend(msg["accesses"])
            cov = msg.get("coverage")
            if cov is not None:
                raw, at, idx = cov.get("observed", b""), 0, []   # (not `pos`: that is the file position)
                while at < len(raw):
                    v, at = _varint(raw, at, len(raw))
                    idx.append(v)
                cov = dict(cov)
                cov["observed"] = idx
                t.coverage.append(cov)
        elif name == "ObservedGap":
            t.observed_missed += msg.get("launches", 0)
        elif name == "TraceEnd":
            t.end = msg
    if t.header is None:
        raise DecodeError("%s: no TraceHeader chunk: the file ends after its 16-byte header" % path, 16)
    if t.end is None:
        t.warnings.append("trace was not closed cleanly")
    elif t.end.get("event_count", 0) != len(t.events) + t.skipped:
        t.warnings.append("TraceEnd counts %d events, file has %d" % (t.end.get("event_count", 0), len(t.events) + t.skipped))
    behind = sum(c for _, c, r in t.gaps if r != 1)
    if behind:
        t.warnings.append("the live stream missed %d events (the reader fell behind)" % behind)
    if t.observed_missed:
        t.warnings.append("the live stream missed the observations of %d launches (the reader fell behind)" % t.observed_missed)
    return t


def body(ev):
    """(name, dict) of an event's body."""
    for b in BODIES:
        if b in ev:
            return b, ev[b]
    return "unknown", {}  # no body, or one this reader does not know (a newer recorder's)


def enum(name, v):
    vals = ENUMS[name]
    return vals[v] if 0 <= v < len(vals) else str(v)


def _jsonable(o):
    if isinstance(o, bytes):
        return o.hex()
    if isinstance(o, dict):
        return {k: _jsonable(v) for k, v in o.items()}
    if isinstance(o, list):
        return [_jsonable(v) for v in o]
    return o


def describe(ev, functions):
    name, b = body(ev)
    g = lambda k: b.get(k, 0)
    if name == "launch":
        f = functions.get(g("function"), {})
        return "launch %s grid=(%d,%d,%d) block=(%d,%d,%d) smem=%d stream=%#x params=%s %s" % (
            f.get("mangled_name", "?"), g("grid_x"), g("grid_y"), g("grid_z"), g("block_x"), g("block_y"), g("block_z"),
            g("shared_mem"), g("stream"), b.get("params", b"").hex(), enum("LaunchKind", g("kind")))
    if name == "memcpy":
        return "memcpy %s %#x -> %#x %d bytes stream=%#x%s%s" % (enum("CopyKind", g("kind")), g("src"), g("dst"), g("bytes"),
                                                        g("stream"), " async" if b.get("async") else "",
                                                        " payload=%d" % len(b["payload"]) if "payload" in b else "")
    if name == "memset":
        return "memset %#x %d bytes value=%#x stream=%#x" % (g("dst"), g("bytes"), g("value"), g("stream"))
    if name == "alloc":
        return "alloc %s %#x %d bytes" % (enum("AllocKind", g("kind")), g("address"), g("size"))
    if name == "free":
        return "free %s %#x" % (enum("AllocKind", g("kind")), g("address"))
    if name == "sync":
        return "sync %s stream=%#x event=%#x" % (enum("SyncKind", g("kind")), g("stream"), g("event"))
    if name == "graph_launch":
        return "graph_launch exec=%#x stream=%#x nodes=%d" % (g("graph_exec"), g("stream"), g("kernel_nodes"))
    if name == "array":
        return "array %s %#x %d bytes %dx%dx%d format=%#x channels=%d" % (enum("ArrayOp", g("op")), g("handle"), g("bytes"),
                                                                     g("width"), g("height"), g("depth"), g("format"), g("channels"))
    if name == "tensor_map":
        return "tensor_map %s address=%#x extent=%d bytes type=%d dims=%s strides=%s" % (
            enum("TensorMapKind", g("kind")), g("address"), g("extent"), g("data_type"), b.get("dims", []), b.get("strides", []))
    if name == "allocator_block":   # i15-alloc
        return "allocator_block %s %#x %d bytes stream=%#x device=%d" % (enum("BlockAction", g("action")), g("address"),
                                                                        g("size"), g("stream"), g("device"))
    return "unknown (no body this reader knows)"


def timing_policy(h):
    """how the trace's GPU times were taken (TraceHeader.timing_sampling, i15-cost)"""
    if not h.get("gpu_timing"):
        return "off"
    p = h.get("timing_sampling")
    if p is None or not p.get("mode"):
        return "every launch timed"
    return ("sampled: each launch shape's first %d launches, then 1 in N (N %d-%d, adapted to the launch rate, "
            "budget %.1f%%)" % (p.get("first_launches", 0), p.get("min_interval", 0), p.get("max_interval", 0),
                                p.get("budget_permille", 0) / 10.0)) + timing_estimate(p)


def timing_estimate(p):
    """i15-timing: how a sampled trace's GPU times are estimated (TimingSampling fields 20-25); empty for older traces"""
    src = p.get("gpu_time_source")
    if not src:
        return ""
    if not p.get("event_gate"):
        return "; source %s" % src
    c = p.get("event_correction", "none")
    w = p.get("probe_window", 1)
    how = {"in-pair-probe": "gated CUDA events minus %s of an empty probe kernel run behind each timed launch, plus %d ns "
                            "(else %s)" % ("the launch's own probe span" if w <= 1 else "the median span of the last %d probes" % w,
                                           p.get("probe_kernel_ns", 0), p.get("probe_fallback", "setup-bias")),
           "setup-bias": "gated CUDA events minus an event bias measured at setup",
           "fixed-bias": "gated CUDA events minus %d ns" % p.get("event_bias_ns", 0),
           "none": "gated CUDA events, raw spans"}.get(c, c)
    return "; source %s (where CUPTI is not used: %s)" % (src, how) if src == "auto" else "; source %s: %s" % (src, how)


def summary(t, path):
    h = t.header
    lines = ["trace %s" % path,
             "  recorder %s %s, pid %s, argv %s" % (h.get("recorder"), h.get("recorder_version"), h.get("pid"), " ".join(h.get("argv", []))),
             "  device %s (cc %s.%s), driver %s, runtime %s, gpu timing %s, payload limit %s" % (
                 h.get("device_name", "?"), h.get("cc_major", 0), h.get("cc_minor", 0), h.get("driver_version", 0),
                 h.get("runtime_version", 0), h.get("gpu_timing", False), h.get("payload_limit", 0)),
             "  gpu timing policy: %s" % timing_policy(h),
             "  allocator block events: %s" % (h["allocator_events"] if h.get("allocator_events") else "not asked for"),   # i15-alloc
             "  %d chunks, %d modules, %d functions, %d events" % (t.chunks, len(t.modules), len(t.functions), len(t.events))]
    counts = {}
    for e in t.events:
        n, b = body(e)
        if n == "launch":
            n = "launch/" + enum("LaunchKind", b.get("kind", 0))
        elif n == "memcpy":
            n = "memcpy/" + enum("CopyKind", b.get("kind", 0))
        elif n == "array":
            n = "array/" + enum("ArrayOp", b.get("op", 0))
        elif n == "sync":
            n = "sync/" + enum("SyncKind", b.get("kind", 0))
        elif n in ("alloc", "free"):
            n = n + "/" + enum("AllocKind", b.get("kind", 0))
        elif n == "allocator_block":   # i15-alloc
            n = n + "/" + enum("BlockAction", b.get("action", 0))
        counts[n] = counts.get(n, 0) + 1
    for k in sorted(counts):
        lines.append("    %-32s %d" % (k, counts[k]))
    for m in t.modules.values():
        lines.append("  module %d %s %s size %d stored %d hash %016x" % (m.get("id", 0), enum("ModuleKind", m.get("kind", 0)),
                                                                   m.get("origin", ""), m.get("image_size", 0),
                                                                   len(m.get("image", b"")), m.get("hash", 0))
                     + (" ptx %d bytes from %s" % (len(m["ptx"]), m.get("ptx_source", "?")) if m.get("ptx") else ""))
    if t.stream_start is not None:
        ss = t.stream_start
        lines.append("  live stream of pid %d: joined at event %d (%d allocations live then; trace file %s), %d events"
                     " not held in %d gaps" % (ss.get("pid", 0), ss.get("first_live_index", 0), ss.get("live_allocations", 0),
                                                ss.get("trace_path", ""), t.skipped, len(t.gaps)))
    for c in t.coverage:
        lines.append("  coverage (%s): %d launches observed (%s), %d seen" % (c.get("tool", "?"), len(c["observed"]),
                                                                             c.get("policy", ""), c.get("launches_seen", 0)))
    if t.end:
        lines.append("  end: %d events, %d dropped" % (t.end.get("event_count", 0), t.end.get("dropped_events", 0)))
        for u in t.end.get("unrecorded", []):
            lines.append("  trace may be incomplete: %d calls to %s that change memory were not recorded" % (u.get("count", 0), u.get("call", "?")))
    for w in t.warnings:
        lines.append("  WARNING: %s" % w)
    return "\n".join(lines)


def verdict(path):
    """One machine-readable line, the same the Java reader's tests derive from it: ``ok EVENTS`` (read to the
    end), ``damaged EVENTS at OFFSET`` (the intact prefix of EVENTS events; reading stopped at the chunk at OFFSET),
    ``refused at OFFSET`` (not a trace, or its first chunk is bad), ``memory at OFFSET`` (a chunk needs more memory
    than this process may have)."""
    try:
        t = read_trace(path)
    except OutOfMemory as e:
        return "memory at %d" % e.offset, 1
    except DecodeError as e:
        return "refused at %d" % e.offset, 1
    if t.damage_offset is not None:
        return "damaged %d at %d" % (len(t.events), t.damage_offset), 0
    return "ok %d" % len(t.events), 0


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__)
        return 2
    path = argv[1]
    if "--verdict" in argv:
        line, code = verdict(path)
        print(line)
        return code
    try:
        t = read_trace(path)
    except DecodeError as e:
        print("phos_read: %s" % e, file=sys.stderr)
        return 1
    except MemoryError:
        print("phos_read: %s: out of memory" % path, file=sys.stderr)
        return 1
    if "--json" in argv:
        json.dump(_jsonable({"header": t.header, "modules": list(t.modules.values()), "functions": list(t.functions.values()),
                             "events": t.events, "observed": t.observed, "end": t.end, "warnings": t.warnings}), sys.stdout)
        print()
    elif "--events" in argv:
        print(summary(t, path))
        for i, e in enumerate(t.events):
            print("%6d %12d t%d %s" % (i, e.get("host_ns", 0), e.get("thread", 0), describe(e, t.functions)))
    else:
        print(summary(t, path))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except BrokenPipeError:  # phos_read.py t.phos --events | head
        sys.stderr.close()
        sys.exit(0)
    except KeyboardInterrupt:
        sys.exit(130)
