#!/usr/bin/env bash
# Benchmark for `mcpl-doctor probe --config FILE --all` (release build): generated
# configurations of 50 servers probed at once.
#   1. wall time of the whole run vs the slowest server (in the run, and probed alone) and vs
#      the sum of every server's own run time (what probing them one after another would take)
#   2. the probe's own relaunch delay beyond the chosen wait, over every server
#   3. reported lifetimes vs the servers' own logs (Node fixtures and WebSocket servers)
#   4. peak memory (VmHWM) of the probe itself, for 50 servers and for one
# Two configurations, every entry reconnecting at 200 ms:
#   mixed: Node fixtures (8 staying up, 8 exiting 300 ms after their handshake, 4 exiting before
#          answering), shell servers (scripts/bench/sh-server.sh, the same 8/8/4), WebSocket servers
#          (scripts/bench/ws-server.py: 5 staying up, 5 closing with 4000 idle 300 ms after their
#          handshake). Twenty Node start-ups at once saturate both cores for about a second: the
#          probe shares the CPU with its servers.
#   light: shell servers (20 staying up, 20 exiting 300 ms after their handshake) and the same
#          10 WebSocket servers: the probe's own cost, with the CPU mostly free.
# Usage: scripts/bench/probe-all.sh [LAUNCHES] [WATCH]   (defaults 3 and 2s). Needs node, python3; Linux.
# KEEP=DIR keeps the generated configurations, outputs and logs in DIR.
case "${1:-}" in -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;; esac
set -euo pipefail
cd "$(dirname "$0")/../.."
launches="${1:-3}"
watch="${2:-2s}"
cargo build --release --quiet
bin="$PWD/target/release/mcpl-doctor"
node_server="$PWD/fixtures/servers/server.mjs"
sh_server="$PWD/scripts/bench/sh-server.sh"
work="$(mktemp -d)"
ws_pid=""
cleanup() {
  [ -n "$ws_pid" ] && kill "$ws_pid" 2>/dev/null
  [ -n "${KEEP:-}" ] && cp -r "$work" "$KEEP"
  rm -rf "$work"
}
trap cleanup EXIT

python3 scripts/bench/ws-server.py "$work/ws.log" > "$work/port" &
ws_pid=$!
for _ in $(seq 50); do [ -s "$work/port" ] && break; sleep 0.1; done
port="$(cat "$work/port")"

python3 - "$node_server" "$sh_server" "$port" "$work" <<'PY'
import json, sys
node, sh, port, work = sys.argv[1:]
def config(name, plan):
    entries = {}
    for prefix, count, kind, args in plan:
        for i in range(count):
            key = f"{prefix}-{i}"
            if kind == "ws":
                entries[key] = {"url": f"ws://127.0.0.1:{port}{args[0]}/{name}-{key}",
                                "token": "bench-token-not-shown"}
            elif kind == "node":
                entries[key] = {"command": "node", "args": [node, *args],
                                "env": {"FIXTURE_LOG": f"{work}/{name}-node.log"}}
            else:
                entries[key] = {"command": sh, "args": list(args)}
            entries[key].update({"reconnect": True, "reconnectIntervalMs": 200})
    json.dump({"mcplServers": entries}, open(f"{work}/{name}.json", "w"), indent=1)
ws = [("ws-up", 5, "ws", ["/up"]), ("ws-close", 5, "ws", ["/close/300"])]
config("mixed", [("node-up", 8, "node", []),
                 ("node-flap", 8, "node", ["--exit-after-handshake", "300"]),
                 ("node-fail", 4, "node", ["--exit-before-answer", "1"]),
                 ("sh-up", 8, "sh", ["up"]), ("sh-flap", 8, "sh", ["flap", "0.3"]),
                 ("sh-fail", 4, "sh", ["fail"])] + ws)
config("light", [("sh-up", 20, "sh", ["up"]), ("sh-flap", 20, "sh", ["flap", "0.3"])] + ws)
PY

# Run the probe, polling its peak RSS (VmHWM) until it exits; prints the peak in KiB.
peak_run() {
  local out="$1"; shift
  "$bin" probe "$@" > "$out" 2>> "$work/stderr" &
  local p=$! hwm=0 v
  while kill -0 "$p" 2>/dev/null; do
    v=$(awk '/VmHWM/ {print $2}' "/proc/$p/status" 2>/dev/null || true)
    [ -n "$v" ] && [ "$v" -gt "$hwm" ] && hwm=$v
    sleep 0.01
  done
  wait "$p" || true
  echo "$hwm"
}
ms_now() { echo $(( $(date +%s%N) / 1000000 )); }

bench() {
  local name="$1" t0 hwm hwm_one wall_all wall_one slowest
  echo "== $name: 50 servers at once, --all --launches $launches --watch $watch"
  t0=$(ms_now)
  hwm=$(peak_run "$work/$name-all.json" --config "$work/$name.json" --all \
    --launches "$launches" --watch "$watch" --seed 1 --json)
  wall_all=$(( $(ms_now) - t0 ))
  slowest=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(max(d["servers"], key=lambda s: s["elapsed_ms"])["id"])' "$work/$name-all.json")
  t0=$(ms_now)
  hwm_one=$(peak_run "$work/$name-one.json" --config "$work/$name.json" --server "$slowest" \
    --launches "$launches" --watch "$watch" --seed 1 --json)
  wall_one=$(( $(ms_now) - t0 ))
  python3 - "$work" "$name" "$wall_all" "$wall_one" "$hwm" "$hwm_one" <<'PY'
import json, os, sys
work, name = sys.argv[1], sys.argv[2]
wall_all, wall_one, hwm, hwm_one = map(int, sys.argv[3:])
d = json.load(open(f"{work}/{name}-all.json"))
one = json.load(open(f"{work}/{name}-one.json"))
servers, summary = d["servers"], d["summary"]
def stats(xs):
    if not xs:
        return "n=0"
    s = sorted(xs)
    q = lambda p: s[min(len(s) - 1, int(p * len(s)))]
    return f"median {q(0.5):.1f} ms, p95 {q(0.95):.1f} ms, max {s[-1]:.1f} ms (n={len(s)})"
slowest = max(servers, key=lambda s: s["elapsed_ms"])
print(f"servers probed: {summary['probed']} ({summary['stayed_up']} stayed up, "
      f"{summary['did_not_stay_up']} did not), launches: {sum(len(s['launches']) for s in servers)}")
print(f"whole run:                        {d['elapsed_ms']:.0f} ms (process {wall_all} ms)")
print(f"slowest server in the run:        {slowest['elapsed_ms']:.0f} ms ({slowest['id']})")
print(f"the same server probed alone:     {one['elapsed_ms']:.0f} ms (process {wall_one} ms)")
print(f"every server one after another:   {summary['servers_one_after_another_ms']:.0f} ms "
      f"(the sum of their run times)")
print(f"  whole run / slowest in the run: {d['elapsed_ms'] / slowest['elapsed_ms']:.2f}; "
      f"sum / whole run: {summary['servers_one_after_another_ms'] / d['elapsed_ms']:.1f}x")
gaps = []
for s in servers:
    L = s["launches"]
    gaps += [b["launched_at_ms"] - a["ended_at_ms"] - a["wait"]["ms"] for a, b in zip(L, L[1:])]
print(f"relaunch delay beyond the wait, every server: {stats(gaps)}")
log = f"{work}/{name}-node.log"
node = [json.loads(l) for l in open(log)] if os.path.exists(log) else []
at = lambda pid, ev: next((e["t"] for e in node if e["pid"] == pid and e["event"] == ev), None)
node_err = []
for s in servers:
    for l in s["launches"]:
        if s["id"].startswith("node-flap") and l["outcome"]["kind"] == "connected-then-closed":
            hs, ex = at(l["pid"], "handshake"), at(l["pid"], "exit")
            if hs and ex:
                node_err.append(l["outcome"]["lived_ms"] - (ex - hs))
if node_err:
    print(f"Node lifetime, probe minus the server's own log: {stats(node_err)}")
ws = [json.loads(l) for l in open(f"{work}/ws.log")]
ws_err = []
for s in servers:
    if not s["id"].startswith("ws-close"):
        continue
    mine = [e for e in ws if e["name"] == f"{name}-{s['id']}"]
    inits = [e["t"] for e in mine if e["event"] == "initialized"]
    closes = [e["t"] for e in mine if e["event"] == "close"]
    lived = [l["outcome"]["lived_ms"] for l in s["launches"]
             if l["outcome"]["kind"] == "connected-then-closed"]
    ws_err += [p - (c - i) for p, i, c in zip(lived, inits, closes)]
print(f"WebSocket lifetime, probe minus the server's own: {stats(ws_err)}")
for kind in ("node", "sh", "ws"):
    hs = [l["handshake_ms"] for s in servers if s["id"].startswith(kind)
          for l in s["launches"] if l["handshake_ms"] is not None]
    if hs:
        print(f"time to handshake, {kind:4}: {stats(hs)}")
print(f"peak memory of the probe (VmHWM): {hwm} KiB probing 50 servers, {hwm_one} KiB probing one")
PY
  echo
}

bench mixed
bench light
if grep -q bench-token-not-shown "$work"/*-all.json "$work"/*-one.json "$work/stderr"; then
  echo "the token appears in the output" >&2
  exit 1
fi
