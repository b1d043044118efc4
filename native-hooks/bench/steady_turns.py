#!/usr/bin/env python3
"""i15-settle: throughput of recorder configurations measured in turns (standard library).

    steady_turns.py [--sets S] [--windows W] [--iters I] [--warmup N] [--cpus LIST] [--keep DIR] [--keep-sets K]
                    [--player CMD] --config NAME "ENV" [--config NAME "ENV" ...]

One process per configuration (ENV: space-separated NAME=VALUE pairs added to the environment; the first --config
named "plain" is the reference; CPUS=LIST in ENV pins that configuration's process to LIST instead of --cpus), all alive at once but never running at the same time: each runs bench/steady_loop.py
--turns (or --player CMD) pinned with taskset to --cpus, and the processes take turns window by window, in an order
that rotates every window. Machine noise that drifts over seconds (the H100 machine's per-process shares ran 66-126%
in i15-burst) then falls on neighbouring windows of all configurations alike, and each configuration's window is set
against the plain window of the same turn. The warm-ups run one after the other before the first window. S sets of
fresh processes; with --keep, the configurations' traces (PHOS_TRACE_OUT) of the first K sets go to
DIR/NAME.setN.phos, the others are deleted.

Prints one line per window ("set S window W NAME: RATE it/s"), then per configuration the median of its per-turn
shares of plain with a 95% interval of that median (order statistics), the pooled rate, and the warm-up times.

    steady_turns.py --pool [--as RUN:NAME=NEW ...] TURNS.txt ...

pools the per-turn shares of several runs' outputs (--as renames a configuration of run RUN, counted from 1; 0: all)."""
import argparse
import math
import re
import os
import platform
import shlex
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import timing_rounds_pool as trp  # noqa: E402


class Player:
    def __init__(self, name, env_extra, cmd, trace, err_path):
        env = dict(os.environ)
        env.update(env_extra)
        if trace and any(k in env_extra for k in ("LD_PRELOAD", "PHOS_TRACE_OUT")):
            env["PHOS_TRACE_OUT"] = trace
        self.name, self.trace = name, trace if "LD_PRELOAD" in env_extra else None
        self.err = open(err_path, "w")
        self.p = subprocess.Popen(cmd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.err, text=True, bufsize=1)

    def ask(self, cmd):
        if cmd is not None:
            self.p.stdin.write(cmd + "\n")
            self.p.stdin.flush()
        line = self.p.stdout.readline()
        if not line:
            raise RuntimeError("%s: the player ended (exit %s) without answering %r; its standard error is in %s"
                               % (self.name, self.p.wait(), cmd, self.err.name))
        return line.split()

    def close(self):
        try:
            self.ask("end")
        finally:
            self.p.stdin.close()
            self.p.wait(timeout=120)
            self.err.close()


def parse_env(name, text):
    out = {}
    for pair in shlex.split(text):
        if "=" not in pair:
            sys.exit("steady_turns.py: --config %s: %r is not NAME=VALUE" % (name, pair))
        k, v = pair.split("=", 1)
        out[k] = v
    return out


def median_interval(xs):
    """the median of xs and a distribution-free 95% interval for it (ranks n/2 -+ 1.96 sqrt(n)/2)"""
    s = sorted(xs)
    n = len(s)
    h = 1.96 * math.sqrt(n) / 2
    lo, hi = max(0, int(math.floor(n / 2 - h))), min(n - 1, int(math.ceil(n / 2 + h)) - 1)
    return statistics.median(s), s[lo], s[hi]


def turn_row(line):
    m = re.match(r"set (\d+) window (\d+) (\S+): ([0-9.]+) it/s", line)
    return ((int(m.group(1)), int(m.group(2))), m.group(3), float(m.group(4))) if m else None


def pool(argv):
    """--pool: the per-turn shares of several runs' outputs together (each turn against its own plain window)"""
    alias, files = trp.parse_pool_args(argv, "steady_turns.py")
    for name, v in trp.pooled_shares(files, alias, turn_row, "steady_turns.py").items():
        m, lo, hi = median_interval([x for _, x in v])
        print("pooled %s: median %.1f%% of plain (95%% interval %.1f-%.1f, %d turns)" % (name, m, lo, hi, len(v)))


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--pool":
        pool(sys.argv[2:])
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", type=int, default=3)
    ap.add_argument("--windows", type=int, default=40)
    ap.add_argument("--iters", type=int, default=150)
    ap.add_argument("--warmup", type=int, default=40)
    ap.add_argument("--cpus", default="2-5")
    ap.add_argument("--keep", help="folder for the traces of the first --keep-sets sets")
    ap.add_argument("--keep-sets", type=int, default=1)
    ap.add_argument("--player", help="command of a player (default: bench/steady_loop.py --turns)")
    ap.add_argument("--no-aslr", action="store_true",
                    help="i15-base: start the players with address space randomisation off (setarch -R), so that the "
                         "processes lay out their memory alike (a source of the difference between processes?)")
    ap.add_argument("--config", nargs=2, action="append", metavar=("NAME", "ENV"), required=True)
    a = ap.parse_args()
    names = [n for n, _ in a.config]
    if "plain" not in names or len(set(names)) != len(names):
        sys.exit("steady_turns.py: the configurations need distinct names, one of them \"plain\" (got %s)" % names)
    if a.sets < 1 or a.windows < 1 or a.iters < 1:
        sys.exit("steady_turns.py: --sets, --windows and --iters must be >= 1")
    envs = {n: parse_env(n, e) for n, e in a.config}
    cmd = shlex.split(a.player) if a.player else ["python3", os.path.join(HERE, "steady_loop.py"), "--turns",
                                                   "--iters", str(a.iters), "--warmup", str(a.warmup)]
    cpus = {n: envs[n].pop("CPUS", a.cpus) for n in names}
    norand = ["setarch", platform.machine(), "-R"] if a.no_aslr else []
    cmds = {n: norand + (["taskset", "-c", cpus[n]] if cpus[n] else []) + cmd for n in names}
    work = tempfile.mkdtemp(prefix="steady-turns-")
    if a.keep:
        os.makedirs(a.keep, exist_ok=True)
    rates = {n: [] for n in names}      # (set, window, rate)
    threads = {n: [] for n in names}    # i15-base: per window, {"cpu main": us per iteration, ...} when the player says it
    warm = {n: [] for n in names}
    for s in range(1, a.sets + 1):
        keep = a.keep and s <= a.keep_sets
        players = []
        try:
            for n in names:
                trace = os.path.join(a.keep if keep else work, "%s.set%d.phos" % (n, s))
                players.append(Player(n, envs[n], cmds[n], trace, os.path.join(a.keep if keep else work, "%s.set%d.err" % (n, s))))
            for p in players:
                r = p.ask(None)
                if r[:1] != ["ready"]:
                    raise RuntimeError("%s: expected ready, got %s" % (p.name, r))
            for p in players:
                r = p.ask("warm")
                warm[p.name].append(float(r[1]))
                print("set %d warm-up %s: %.3f s" % (s, p.name, float(r[1])), flush=True)
            for w in range(a.windows):
                k = (w + s) % len(players)
                for p in players[k:] + players[:k]:
                    r = p.ask("win")
                    if r[:1] != ["rate"]:
                        raise RuntimeError("%s: expected a rate, got %s" % (p.name, r))
                    rates[p.name].append((s, w, float(r[1])))
                    threads[p.name].append(thread_fields(r[2:]))
                    print("set %d window %d %s: %s it/s %s" % (s, w + 1, p.name, r[1], " ".join(r[2:])), flush=True)
        except RuntimeError as e:
            sys.exit("steady_turns.py: set %d: %s" % (s, e))
        finally:
            for p in players:
                try:
                    p.close()
                except Exception as e:   # a player that already failed: its error is reported above
                    print("steady_turns.py: %s did not end cleanly: %s" % (p.name, e), file=sys.stderr)
                if not keep and p.trace and os.path.exists(p.trace):
                    os.remove(p.trace)
    plain = {(s, w): r for s, w, r in rates["plain"]}
    print("== %d sets x %d windows of %d iterations (warm-up %d), turns rotating per window" % (a.sets, a.windows, a.iters, a.warmup))
    for n in names:
        xs = [r for _, _, r in rates[n]]
        line = "summary %s: pooled %.1f it/s (median window %.1f), warm-up median %.3f s" % (
            n, len(xs) / sum(1 / x for x in xs), statistics.median(xs), statistics.median(warm[n]))
        if n != "plain":
            shares = [100 * r / plain[(s, w)] for s, w, r in rates[n]]
            m, lo, hi = median_interval(shares)
            pooled = sum(1 / x for _, _, x in rates["plain"]) / sum(1 / x for x in xs)
            line += "; share of plain per turn: median %.1f%% (95%% interval %.1f-%.1f, %d turns), pooled %.1f%%" % (
                m, lo, hi, len(shares), 100 * pooled)
        print(line, flush=True)
    thread_summary(names, threads)


def thread_fields(words):
    """i15-base: "cpu main=12.3 autograd=... wait main=..." -> {"cpu main": 12.3, ...}"""
    out, kind = {}, None
    for w in words:
        if "=" not in w:
            kind = w
        elif kind:
            k, v = w.split("=", 1)
            out["%s %s" % (kind, k)] = float(v)
    return out


def thread_summary(names, threads):
    """i15-base: per configuration, the median over its windows of each thread group's CPU time and run-queue wait
    per iteration, and its difference from plain's (where the recorder's cost lands: more CPU in the program's own
    threads, the writer's CPU, or waiting for a CPU)"""
    keys = sorted({k for n in names for d in threads[n] for k in d})
    if not keys:
        return
    med = {n: {k: statistics.median([d[k] for d in threads[n] if k in d]) for k in keys
               if any(k in d for d in threads[n])} for n in names}
    print("== per iteration, median of the windows (us): " + ", ".join(keys))
    for n in names:
        row = " ".join("%s=%.1f" % (k.replace(" ", "."), med[n].get(k, float("nan"))) for k in keys)
        if n != "plain" and "plain" in med:
            row += " | vs plain: " + " ".join("%s%+.1f" % (k.replace(" ", "."), med[n][k] - med["plain"][k])
                                              for k in keys if k in med[n] and k in med["plain"])
        print("threads %s: %s" % (n, row), flush=True)


if __name__ == "__main__":
    main()
