#!/usr/bin/env bash
# Processes a hostile server leaves behind (issue 8 items 11-12), release build, Linux (/proc):
#   1. SIGKILL to the probe at a random moment, RUNS times, with a server that forks an in-group
#      grandchild and a setsid one: processes left afterwards (goal: 0)
#   2. the same with `--all` (two such servers)
#   3. zombies under the probe 5 s into a run whose server starts 9 short-lived orphans every
#      launch (goal: 0)
#   4. a descendant that leaves the group and keeps re-forking (a new pid every 2 ms): runs
#      that left it alive after the probe's normal stop, and after a SIGKILL of the probe
#      (goal: 0 of RUNS each)
#   5. CPU the probe uses over 10 s of watching a quiet server (the reaper's cost)
# Usage: scripts/bench/hostile-proc.sh [RUNS]   (default 25; BIN=path to use another build). Needs python3.
case "${1:-}" in -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;; esac
set -euo pipefail
cd "$(dirname "$0")/../.."
runs="${1:-25}"
: "${BIN:=}"; [ -n "$BIN" ] || cargo build --release --quiet
bin="${BIN:-$PWD/target/release/mcpl-doctor}"
server="$PWD/fixtures/servers/hostile.py"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

marked() { { grep -l "H4_BENCH=$1" /proc/[0-9]*/environ 2>/dev/null || true; } | wc -l; }
cleanup() {
  for f in $(grep -l "H4_BENCH=$1" /proc/[0-9]*/environ 2>/dev/null); do
    p="${f#/proc/}"; kill -9 "${p%/environ}" 2>/dev/null || true
  done
}

sigkill_runs() {
  local mode="$1" left_total=0 runs_with_left=0
  for i in $(seq "$runs"); do
    local m="b$$-$mode-$i"
    if [ "$mode" = all ]; then
      cat > "$work/c.json" <<EOF
{"mcpServers": {
  "a": {"command": "python3", "args": ["$server", "--grandchild", "--escape", "setsid"], "env": {"H4_BENCH": "$m"}},
  "b": {"command": "python3", "args": ["$server", "--grandchild", "--escape", "double-fork"], "env": {"H4_BENCH": "$m"}}}}
EOF
      H4_BENCH="$m" "$bin" probe --config "$work/c.json" --all --launches 1 --watch 30s >/dev/null 2>&1 &
    else
      H4_BENCH="$m" "$bin" probe --launches 1 --watch 30s -- python3 "$server" --grandchild --escape setsid >/dev/null 2>&1 &
    fi
    local pid=$!
    # A random moment between 0 and 1.5 s (python starts in about 50 ms; the escape follows the
    # handshake; the probe's scan for it runs every 500 ms).
    sleep "$(python3 -c "import random; print(random.uniform(0, 1.5))")"
    kill -9 "$pid"; wait "$pid" 2>/dev/null || true
    sleep 0.5
    local left; left="$(marked "$m")"
    if [ "$left" -gt 0 ]; then runs_with_left=$((runs_with_left + 1)); left_total=$((left_total + left)); fi
    cleanup "$m"
  done
  echo "SIGKILL to the probe ($mode): $runs_with_left of $runs runs left processes ($left_total in all)"
}

sigkill_runs one
sigkill_runs all

# 3. Zombies under the probe while it runs.
H4_BENCH="z$$" "$bin" probe --preset handshake --interval 100ms --for 8s -- python3 "$server" --orphans 9 --exit-after-handshake 300 >/dev/null 2>&1 &
pid=$!
sleep 5
zombies=$(for s in /proc/[0-9]*/stat; do awk -v P="$pid" '$4==P && $3=="Z"' "$s" 2>/dev/null; done | wc -l)
wait "$pid" || true
echo "zombies under the probe 5 s into a run (9 orphans per launch, relaunched every ~0.4 s): $zombies"
sleep 0.5; echo "processes left after the run: $(marked "z$$")"; cleanup "z$$"

# 4. A re-forking descendant outside the group.
hopper_runs() {
  local mode="$1" runs_with_left=0
  for i in $(seq "$runs"); do
    local m="h$$-$mode-$i"
    H4_BENCH="$m" "$bin" probe --launches 1 --watch 1s -- python3 "$server" --hopper >/dev/null 2>&1 &
    local pid=$!
    if [ "$mode" = sigkill ]; then
      sleep "$(python3 -c "import random; print(random.uniform(0.5, 1.0))")"
      kill -9 "$pid"
    fi
    wait "$pid" 2>/dev/null || true
    sleep 0.5
    if [ "$(marked "$m")" -gt 0 ]; then runs_with_left=$((runs_with_left + 1)); fi
    for _ in 1 2 3 4 5; do cleanup "$m"; sleep 0.05; done
  done
  echo "re-forking descendant, $mode: $runs_with_left of $runs runs left it running"
}
hopper_runs stop
hopper_runs sigkill

# 5. CPU over 10 s of watching a quiet server.
H4_BENCH="c$$" "$bin" probe --launches 1 --watch 10s -- python3 "$server" >/dev/null 2>&1 &
pid=$!
sleep 9.5
ticks=$(awk '{print $14 + $15}' "/proc/$pid/stat")
hz=$(getconf CLK_TCK)
wait "$pid" || true
echo "probe CPU over 9.5 s of a 10 s watch: $((ticks * 1000 / hz)) ms"
