#!/usr/bin/env python3
"""What live attach adds to the recorder's cost per launch (docs/benchmarks.md, block i14-attach).

On the CPU with the fake libcuda of native-hooks/tests (no GPU): attach_bench.c launches one kernel N times per
round and reports host ns per launch. Three processes run side by side, their rounds interleaved: no recorder,
the recorder writing its file only (PHOS_ATTACH=0), and the recorder with its attach socket, whose rounds rotate
between no reader, one reader that reads everything, and one reader that never reads. GPU timing is off
(PHOS_TIMING=0) so that only the recorder's own work is measured. Prints the median of the rounds of each setting
and the differences. Run it under the benchmark lock:

    make -C native-hooks all build/attach_bench
    flock /tmp/phos-bench.lock python3 native-hooks/bench/attach_bench.py [--launches 200000] [--rounds 21]
"""
import argparse
import os
import socket
import statistics
import subprocess
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = os.path.join(HERE, "..", "build")


class Proc:
    def __init__(self, name, env):
        self.name = name
        self.p = subprocess.Popen([os.path.join(BUILD, "attach_bench")], env=env, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.p.stdout.readline().split()
        if len(line) != 2 or line[0] != "ready":
            raise SystemExit("attach_bench (%s) did not start: %s" % (name, self.p.stderr.read()))
        self.pid = int(line[1])

    def round(self, n):
        self.p.stdin.write("round %d\n" % n)
        self.p.stdin.flush()
        return float(self.p.stdout.readline().split()[1])

    def close(self):
        self.p.communicate("exit\n", timeout=60)


class Reader:
    """connects to a recording process; reads everything on a thread, or nothing at all"""

    def __init__(self, path, read):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.s.connect(path)
        self.bytes = 0
        self.t = None
        if read:
            self.t = threading.Thread(target=self._run, daemon=True)
            self.t.start()
        time.sleep(0.05)  # accepted at the writer's next turn (2 ms)

    def _run(self):
        try:
            while True:
                b = self.s.recv(1 << 20)
                if not b:
                    return
                self.bytes += len(b)
        except OSError:
            return

    def close(self):
        try:
            self.s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.s.close()
        if self.t:
            self.t.join(5)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--launches", type=int, default=200000)
    ap.add_argument("--rounds", type=int, default=21)
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="phos-attach-bench-")
    xdg = os.path.join(tmp, "xdg")
    os.makedirs(xdg, mode=0o700)
    base = dict(os.environ)
    base.pop("LD_PRELOAD", None)
    for k in list(base):
        if k.startswith("PHOS_"):
            del base[k]
    base.update({"LD_LIBRARY_PATH": os.path.join(BUILD, "fake"), "XDG_RUNTIME_DIR": xdg, "PHOS_TIMING": "0"})
    rec = dict(base, LD_PRELOAD=os.path.abspath(os.path.join(BUILD, "libphos_recorder.so")))
    plain = Proc("no recorder", base)
    fileonly = Proc("file only", dict(rec, PHOS_ATTACH="0", PHOS_TRACE_OUT=os.path.join(tmp, "file-only.phos")))
    attach = Proc("attach", dict(rec, PHOS_TRACE_OUT=os.path.join(tmp, "attach.phos")))
    sock = os.path.join(xdg, "phos", "%d.sock" % attach.pid)
    for _ in range(100):
        if os.path.exists(sock):
            break
        time.sleep(0.01)
    res = {k: [] for k in ("no recorder", "file only", "attach, no reader", "attach, 1 reader reading",
                           "attach, 1 reader never reading")}
    received = 0
    for p in (plain, fileonly, attach):   # warm-up round (first launch creates the function record)
        p.round(a.launches)
    for r in range(a.rounds):
        res["no recorder"].append(plain.round(a.launches))
        res["file only"].append(fileonly.round(a.launches))
        res["attach, no reader"].append(attach.round(a.launches))
        rd = Reader(sock, True)
        res["attach, 1 reader reading"].append(attach.round(a.launches))
        time.sleep(0.2)   # what the writer still had is read before the reader leaves
        received += rd.bytes
        rd.close()
        st = Reader(sock, False)
        res["attach, 1 reader never reading"].append(attach.round(a.launches))
        st.close()
    for p in (plain, fileonly, attach):
        p.close()
    med = {k: statistics.median(v) for k, v in res.items()}
    print("attach_bench: %d rounds of %d launches, host ns per launch (median; p10..p90)" % (a.rounds, a.launches))
    for k, v in res.items():
        s = sorted(v)
        print("  %-32s %7.1f   (%.1f .. %.1f)" % (k, med[k], s[len(s) // 10], s[len(s) * 9 // 10]))
    print("  recorder, file only, over no recorder: %+.1f ns" % (med["file only"] - med["no recorder"]))
    for k in ("attach, no reader", "attach, 1 reader reading", "attach, 1 reader never reading"):
        print("  %-32s over file only: %+.1f ns" % (k, med[k] - med["file only"]))
    print("  the reading readers received %d bytes in all" % received)


if __name__ == "__main__":
    main()
