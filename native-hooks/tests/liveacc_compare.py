#!/usr/bin/env python3
"""compare.py STREAM SIDE TRACE: the live stream's observed accesses (handed over by the tool as it read them back)
against the side file the tool wrote at exit, launch for launch; prints one line per finding, exit 1 on a mismatch."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import phos_read as pr
st, side, tr = (pr.read_trace(p) for p in sys.argv[1:4])
def key(a):
    r = tuple((x["begin"], x["end"]) for x in a.get("read", []))
    w = tuple((x["begin"], x["end"]) for x in a.get("written", []))
    return (a.get("allocation", 0), r, w, a.get("read_count", 0), a.get("write_count", 0), a.get("tool", ""))
def per_launch(t):
    m = {}
    for a in t.observed:
        m.setdefault(a.get("launch_index", 0), []).append(key(a))
    return {k: sorted(v) for k, v in m.items()}
first_live = (st.stream_start or {}).get("first_live_index", 0)
held = set(st.index)
launches = [i for i, e in zip(st.index, st.events) if e.get("launch")]
ps, pf = per_launch(st), per_launch(side)
pf_held = {k: v for k, v in pf.items() if k in held}
cov_s = sorted(set(i for c in st.coverage for i in c["observed"]))
cov_f = sorted(set(i for c in side.coverage for i in c["observed"] if i in held))
print("stream: %d events held (first live %d, %d gaps, %s), %d launches; %d observed records of %d launches; "
      "coverage %d launches in %d hand-overs; TraceEnd observed_live_launches %s dropped %s; warnings %s"
      % (len(st.events), first_live, len(st.gaps), st.gaps[:2], len(launches), len(st.observed), len(ps), len(cov_s),
         len(st.coverage), (st.end or {}).get("observed_live_launches"), (st.end or {}).get("observed_live_dropped"),
         st.warnings))
print("side file: %d observed records of %d launches (%d of them held by the stream); coverage %d launches"
      % (len(side.observed), len(pf), len(pf_held), len(sorted(set(i for c in side.coverage for i in c["observed"])))))
print("trace file: %d events, observed records in it: %d (the file gets none)" % (len(tr.events), len(tr.observed)))
same = ps == pf_held
diff = [k for k in sorted(set(ps) | set(pf_held)) if ps.get(k) != pf_held.get(k)]
print("launch for launch: %s (%d launches compared, %d differ%s)" % ("EQUAL" if same else "DIFFERENT", len(pf_held),
      len(diff), "" if not diff else ": first " + str([(k, ps.get(k), pf_held.get(k)) for k in diff[:3]])))
print("coverage: %s (%d vs %d)" % ("EQUAL" if cov_s == cov_f else "DIFFERENT", len(cov_s), len(cov_f)))
named = all(st.events[st.index.index(k)].get("launch") for k in list(ps)[:2000] if k in held)
print("every observed record names a launch event of the stream: %s" % named)
sys.exit(0 if same and cov_s == cov_f and not tr.observed else 1)
