#!/usr/bin/env bash
# Benchmarks for `mcpl-doctor probe` (release build) against the fixture server:
#   1. reported lifetime and time to handshake vs the server's own log (goal: within 10 ms)
#   2. the probe's own delay between a server's exit and the relaunch, beyond the chosen wait
#      (goal: under 5 ms median)
#   3. CPU used while waiting between launches (goal: near zero)
#   4. peak memory (VmHWM), idle and under a stderr flood and a huge stdout line
# Usage: scripts/bench/probe.sh [LAUNCHES]   (default 30). Needs node; Linux (/proc).
case "${1:-}" in -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;; esac
set -euo pipefail
cd "$(dirname "$0")/../.."
launches="${1:-30}"
cargo build --release --quiet
bin="$PWD/target/release/mcpl-doctor"
server="$PWD/fixtures/servers/server.mjs"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

measure() {
FIXTURE_LOG="$work/loop.log" "$bin" probe --preset handshake --interval 200ms --launches "$launches" \
  --seed 1 --json -- "$@" > "$work/loop.json" || true
node - "$work/loop.json" "$work/loop.log" <<'EOF'
const fs = require("fs");
const doc = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const log = fs.readFileSync(process.argv[3], "utf8").trim().split("\n").map(JSON.parse);
const at = (pid, ev) => log.find((e) => e.pid === pid && e.event === ev)?.t;
const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return `median ${q(0.5).toFixed(2)} ms, p95 ${q(0.95).toFixed(2)} ms, max ${s[s.length - 1].toFixed(2)} ms (n=${s.length})`;
};
const life = [], hs = [], inner = [], outer = [];
const L = doc.launches;
for (let i = 0; i < L.length; i++) {
  const l = L[i];
  const serverHs = at(l.pid, "handshake"), serverExit = at(l.pid, "exit");
  const launched = l.launched_at_unix_ms;
  if (l.outcome.kind === "connected-then-closed") life.push(l.outcome.lived_ms - (serverExit - serverHs));
  hs.push(launched + l.handshake_ms - serverHs);
  if (i + 1 < L.length) {
    const next = L[i + 1];
    inner.push(next.launched_at_ms - l.ended_at_ms - l.wait.ms);
    // From the server's own exit (its log) to the next server's process start (its timeOrigin).
      const nextOrigin = log.find((e) => e.pid === next.pid && e.event === "launch").origin;
    if (nextOrigin !== undefined) outer.push(nextOrigin - serverExit - l.wait.ms);
  }
}
console.log(`reported lifetime minus the server's own (exit - handshake): ${stats(life)}`);
console.log(`probe's handshake moment minus the server's (wall clock):     ${stats(hs)}`);
console.log(`relaunch delay beyond the wait, probe's clock (end seen -> spawn): ${stats(inner)}`);
if (outer.length) console.log(`relaunch delay beyond the wait, server's exit -> next process start: ${stats(outer)}`);
EOF
rm -f "$work/loop.log"
}
echo "== 1-2. lifetimes and relaunch delays: $launches launches, server exits 300 ms after its handshake"
echo "-- Node fixture, process.exit(0) (includes Node's own exit teardown after its log line)"
measure node "$server" --exit-after-handshake 300
echo "-- Node fixture, SIGKILL to itself (no exit path; the kernel still frees Node's heap)"
measure node "$server" --exit-after-handshake 300 --signal-after-handshake SIGKILL
if command -v python3 > /dev/null; then
  echo "-- scripts/bench/light-server.py, os._exit (the probe's own latency, nearly nothing else)"
  measure python3 scripts/bench/light-server.py
fi

echo
echo "== 3. CPU while waiting: a server that fails at once, then a 10 s wait"
FIXTURE_LOG="$work/wait.log" "$bin" probe --interval 10s --launches 2 --seed 1 -- node "$server" \
  --exit-before-answer 1 > /dev/null 2>&1 &
pid=$!
ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
hz=$(getconf CLK_TCK)
sleep 2
a=$(ticks); sleep 6; b=$(ticks)
echo "probe's own CPU over 6 s of waiting: $(( (b - a) * 1000 / hz )) ms (clock ticks of $(( 1000 / hz )) ms: $a -> $b)"
kill -INT "$pid"; wait "$pid" || true

echo
echo "== 4. peak memory (VmHWM of the probe itself)"
peak() {
  local log="$1"; shift
  FIXTURE_LOG="$log" "$bin" probe --watch 100ms --launches 1 --json -- node "$server" "$@" > "$work/peak.json" 2>/dev/null &
  local p=$! hwm=0 v
  while kill -0 "$p" 2>/dev/null; do
    v=$(awk '/VmHWM/ {print $2}' "/proc/$p/status" 2>/dev/null || true)
    [ -n "$v" ] && [ "$v" -gt "$hwm" ] && hwm=$v
    sleep 0.02
  done
  wait "$p" || true
  echo "$hwm"
}
echo "idle server:                        $(peak "$work/p1.log") KiB"
echo "1 GiB on stderr:                    $(peak "$work/p2.log" --flood-stderr 1024) KiB"
echo "1 GiB stdout line without newline:  $(peak "$work/p3.log" --huge-line 1024) KiB"
