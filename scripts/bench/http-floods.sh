#!/usr/bin/env bash
# Peak memory and the watch's end under a flood on every HTTP event stream: the tests' flood
# server (fixtures/servers/http_flood.py: the GET stream, a legacy SSE stream, an answer's
# event stream, and a GET stream that closes at once) against `probe --url URL --launches 1
# --watch 3s --json`, its VmHWM sampled every 10 ms. Prints one Markdown row a kind: the
# lowest and highest peak and wall time over the runs (the figures in docs/benchmarks.md).
#
# Usage: scripts/bench/http-floods.sh [RUNS]   (default 3 runs a kind)
# MCPL_DOCTOR=path/to/binary measures that binary instead of target/release/mcpl-doctor.
case "${1:-}" in -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;; esac
set -euo pipefail
cd "$(dirname "$0")/../.."
bin="${MCPL_DOCTOR:-target/release/mcpl-doctor}"
if [ ! -x "$bin" ]; then
  cargo build --release --quiet
fi
export MCPL_FLOODS_BIN="$bin" MCPL_FLOODS_RUNS="${1:-3}"
exec python3 - <<'EOF'
import os, subprocess, time

BIN = os.environ["MCPL_FLOODS_BIN"]
RUNS = int(os.environ["MCPL_FLOODS_RUNS"])
KINDS = [("get", "/mcp", "the GET stream"), ("sse", "/sse", "a legacy SSE stream"),
         ("answer", "/mcp", "an answer's event stream"), ("get-close", "/mcp", "a GET stream closing at once")]


def peak_kb(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for l in f:
                if l.startswith("VmHWM:"):
                    return int(l.split()[1])
    except OSError:
        return None
    return None


def once(kind, path):
    srv = subprocess.Popen(["python3", "fixtures/servers/http_flood.py", "--kind", kind],
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    port = int(srv.stdout.readline().split()[1])
    t0 = time.monotonic()
    p = subprocess.Popen([BIN, "probe", "--launches", "1", "--watch", "3s", "--json", "--url",
                          f"http://127.0.0.1:{port}{path}"],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak = 0
    while p.poll() is None and time.monotonic() - t0 < 60:
        kb = peak_kb(p.pid)
        if kb:
            peak = max(peak, kb)
        time.sleep(0.01)
    if p.poll() is None:
        p.kill()
    p.wait()
    took = time.monotonic() - t0
    srv.stdin.close()
    srv.wait()
    return peak / 1024, took


print(f"| stream flooded | peak memory (MiB, {RUNS} runs) | `--watch 3s` ends after |")
print("|---|---|---|")
for kind, path, what in KINDS:
    got = [once(kind, path) for _ in range(RUNS)]
    mem = [m for m, _ in got]
    t = [s for _, s in got]
    print(f"| {what} (`{kind}`) | {min(mem):.1f}-{max(mem):.1f} | {min(t):.1f}-{max(t):.1f} s |", flush=True)
EOF
