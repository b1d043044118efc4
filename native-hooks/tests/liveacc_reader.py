#!/usr/bin/env python3
"""Connects to a recording process's live attach socket as soon as it appears and saves everything it sends.
Usage: reader.py SOCKET_DIR OUT.phos [TIMEOUT_S]; the process is the first NNN.sock that appears in SOCKET_DIR."""
import os, socket, sys, time
d, out = sys.argv[1], sys.argv[2]
limit = float(sys.argv[3]) if len(sys.argv) > 3 else 120
t0 = time.time()
path = None
while time.time() - t0 < limit:
    socks = [f for f in os.listdir(d) if f.endswith(".sock")] if os.path.isdir(d) else []
    if socks:
        path = os.path.join(d, socks[0])
        break
    time.sleep(0.0005)
if not path:
    print("reader: no socket in %s" % d); sys.exit(1)
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
for _ in range(2000):
    try:
        s.connect(path); break
    except OSError:
        time.sleep(0.001)
print("reader: connected to %s after %.3f s" % (path, time.time() - t0), flush=True)
n = 0
with open(out, "wb") as f:
    while True:
        b = s.recv(1 << 20)
        if not b:
            break
        f.write(b); n += len(b)
print("reader: %d bytes, stream ended after %.3f s" % (n, time.time() - t0), flush=True)
