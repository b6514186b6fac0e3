# A minimal legacy MCP server for scripts/bench/probe.sh: answers initialize, logs its handshake, and
# 300 ms later logs its exit and leaves with os._exit (no interpreter teardown), so the gap
# between its log and the probe's figure is the probe's own latency plus the kernel's.
import sys as _sys

if any(a in ("-h", "--help") for a in _sys.argv[1:]):
    print("A minimal legacy MCP server for scripts/bench/probe.sh: answers initialize, logs its handshake, and\n300 ms later logs its exit and leaves with os._exit (no interpreter teardown), so the gap\nbetween its log and the probe's figure is the probe's own latency plus the kernel's.")
    _sys.exit(0)
import json, os, sys, time

log = open(os.environ["FIXTURE_LOG"], "a")


def w(event, **kw):
    log.write(json.dumps({"event": event, "pid": os.getpid(), "t": time.time() * 1000, **kw}) + "\n")
    log.flush()


w("launch")  # no "origin": Python logs this after its own start-up
for line in sys.stdin:
    m = json.loads(line)
    if m.get("method") == "initialize":
        answer = {"protocolVersion": "2024-11-05", "capabilities": {}, "serverInfo": {"name": "light", "version": "1"}}
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": m["id"], "result": answer}) + "\n")
        sys.stdout.flush()
    elif m.get("method") == "notifications/initialized":
        w("handshake")
        time.sleep(0.3)
        w("exit")
        os._exit(0)
