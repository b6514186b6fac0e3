#!/usr/bin/env bash
# The diagnosis ("Why") over the whole fixture corpus (release build): every failure mode, the
# diagnosis expected, the one given (the surest), and the time to it (the probe's wall time from
# start to its report). Then a one-shot probe of a healthy Node server against the server's own
# time to handshake (goal: within about 10 ms).
# Usage: scripts/bench/diagnosis.sh [RUNS]   (default 5 runs of the one-shot probe). Needs node, python3;
# Linux (/proc). MCPL_DOCTOR=path/to/binary measures that binary instead of a release build.
case "${1:-}" in -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;; esac
set -euo pipefail
cd "$(dirname "$0")/../.."
runs="${1:-5}"
if [ -n "${MCPL_DOCTOR:-}" ]; then
  bin="$(realpath "$MCPL_DOCTOR")"
else
  cargo build --release --quiet
  bin="$PWD/target/release/mcpl-doctor"
fi
srv="$PWD/fixtures/servers"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
unset FIXTURE_API_KEY

rows="$work/rows.tsv"
: > "$rows"
# case MODE EXPECTED PROBE-ARGS... -- COMMAND...
case_() {
  local mode="$1" expected="$2"
  shift 2
  local t0 t1 given
  t0=$(date +%s%N)
  "$bin" probe --json "$@" > "$work/out.json" 2> "$work/err.txt" || true
  t1=$(date +%s%N)
  given=$(python3 - "$work/out.json" "$work/err.txt" <<'EOF'
import json, sys
try:
    d = json.load(open(sys.argv[1])).get("diagnoses", [])
    print(d[0]["id"] if d else "(none)")
except ValueError:
    # A launch error: no report, the Why is on stderr.
    err = open(sys.argv[2]).read().split("Why:\n  ", 1)
    print(err[1].split(" ", 1)[0] if len(err) > 1 else "(none)")
EOF
)
  printf '%s\t%s\t%s\t%s\n' "$mode" "$expected" "$given" "$(( (t1 - t0) / 1000000 ))" >> "$rows"
}

one=(--launches 1 --watch 5s)
case_ "healthy Node server (stays up 1 s)" "(none)" --launches 1 --watch 1s -- node "$srv/server.mjs"
case_ "healthy Python server (stays up 1 s)" "(none)" --launches 1 --watch 1s -- python3 "$srv/ailing.py"
case_ "missing module (Node ESM)" missing-dependency "${one[@]}" -- node "$srv/ailing.mjs" --mode missing-module
case_ "missing module (Python)" missing-dependency "${one[@]}" -- python3 "$srv/ailing.py" --mode missing-module
case_ "missing env variable (Node)" missing-env-var "${one[@]}" -- node "$srv/ailing.mjs" --mode missing-env
case_ "missing env variable (Python KeyError)" missing-env-var "${one[@]}" -- python3 "$srv/ailing.py" --mode missing-env
case_ "port in use (Node EADDRINUSE)" port-in-use "${one[@]}" -- node "$srv/ailing.mjs" --mode port-in-use
case_ "port in use (Python)" port-in-use "${one[@]}" -- python3 "$srv/ailing.py" --mode port-in-use
case_ "uncaught exception (Node)" crash "${one[@]}" -- node "$srv/ailing.mjs" --mode crash
case_ "unhandled rejection (Node)" crash "${one[@]}" -- node "$srv/ailing.mjs" --mode reject
case_ "traceback (Python)" crash "${one[@]}" -- python3 "$srv/ailing.py" --mode crash
case_ "panic (Rust text)" crash "${one[@]}" -- node "$srv/ailing.mjs" --mode crash-text --runtime rust
case_ "panic (Go text)" crash "${one[@]}" -- node "$srv/ailing.mjs" --mode crash-text --runtime go
case_ "Node heap limit" out-of-memory "${one[@]}" -- node --max-old-space-size=16 "$srv/ailing.mjs" --mode heap
case_ "memory growth, then SIGKILL" out-of-memory "${one[@]}" -- node "$srv/ailing.mjs" --mode memory
case_ "SIGTERM from a supervisor" killed-from-outside "${one[@]}" -- node "$srv/ailing.mjs" --mode external-kill --ms 300
case_ "idle timeout 1.5 s (3 launches)" timer --preset handshake --interval 100ms --launches 3 -- node "$srv/ailing.mjs" --mode idle-timeout --ms 1500
case_ "logs on stdout glued to the answer" stdout-logging --launches 1 --handshake-timeout 2s -- node "$srv/ailing.mjs" --mode stdout-logs
case_ "exit 0 5 ms after the handshake (2 launches)" exits-after-handshake --preset handshake --interval 100ms --launches 2 -- node "$srv/server.mjs" --exit-after-handshake 5
case_ "version refusal (-32022)" wrong-protocol "${one[@]}" -- node "$srv/server.mjs" --answer refuse
case_ "exit 127 (a shell cannot find it)" command-not-found "${one[@]}" -- sh -c "exec mcp-server-not-installed-x1"
case_ "command not found (spawn)" command-not-found "${one[@]}" -- mcp-server-not-installed-x1
printf '#!/bin/sh\nexit 0\n' > "$work/not-executable.sh"
case_ "not executable (spawn)" not-executable "${one[@]}" -- "$work/not-executable.sh"
if grep -q -- "--crash-on" "$srv/README.md"; then
  case_ "crashes on tools/list" dies-on-request "${one[@]}" -- node "$srv/server.mjs" --crash-on tools/list
fi

python3 - "$rows" <<'EOF'
import sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
w = max(len(r[0]) for r in rows)
print(f"{'failure mode':<{w}}  {'expected':<22} {'given':<22} {'time to diagnosis':>17}")
right = 0
for mode, exp, got, ms in rows:
    ok = exp == got
    right += ok
    print(f"{mode:<{w}}  {exp:<22} {got:<22} {ms + ' ms':>17}{'' if ok else '  WRONG'}")
print(f"\n{right} of {len(rows)} right")
EOF

echo
echo "== one-shot probe of a healthy Node server ($runs runs): the probe's wall time vs the"
echo "   server's own time to handshake (spawn -> it reads notifications/initialized)"
for i in $(seq "$runs"); do
  log="$work/oneshot-$i.log"
  t0=$(date +%s%N)
  FIXTURE_LOG="$log" "$bin" probe --launches 1 --watch 1ms --json -- node "$srv/server.mjs" > "$work/oneshot.json" || true
  t1=$(date +%s%N)
  python3 - "$log" "$t0" "$t1" "$work/oneshot.json" <<'EOF'
import json, sys
log = [json.loads(l) for l in open(sys.argv[1])]
t0, t1 = int(sys.argv[2]) / 1e6, int(sys.argv[3]) / 1e6
launch = next(e for e in log if e["event"] == "launch")["origin"]
hs = next(e["t"] for e in log if e["event"] == "handshake")
doc = json.load(open(sys.argv[4]))
print(f"probe wall {t1 - t0:7.1f} ms; server handshake at {hs - t0:7.1f} ms after the probe started "
      f"(process start {launch - t0:5.1f} ms); probe done {t1 - hs:5.1f} ms after the server's handshake; "
      f"diagnoses: {len(doc['diagnoses'])}")
EOF
done
