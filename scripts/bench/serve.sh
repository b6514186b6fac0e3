#!/usr/bin/env bash
# Benchmark for `mcpl-doctor serve` (release build):
#   1. memory over a long run: one flapping server (scripts/bench/sh-server.sh, exiting at its
#      handshake) relaunched every 100 ms (`--interval 100ms --cap 100ms`) for SECONDS; serve's
#      resident memory (VmRSS) and launches sampled every 10 s, then the growth per hour of the
#      second half extrapolated to an hour and a week of the same (an upper bound: the growth
#      in each third of the run is printed too, and it shrinks);
#   2. CPU while idle: serve with 10 servers that stay up (no pings), CPU seconds (utime+stime
#      from /proc) over 60 s after they connected;
#   3. scrape time: 200 scrapes of /metrics (10 servers, then 100), median and p99 from curl.
# Usage: scripts/bench/serve.sh [SECONDS]   (default 600; 0 skips part 1). BIN=PATH runs that
# binary instead of building the release one. Needs curl; Linux.
case "${1:-}" in -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;; esac
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-600}"
[ -n "${BIN:-}" ] || cargo build --release --quiet
bin="${BIN:-$PWD/target/release/mcpl-doctor}"
sh_server="$PWD/scripts/bench/sh-server.sh"
work="$(mktemp -d)"
pid=""
cleanup() {
    [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

# Start serve with ARGS on a free port; sets pid and port.
start() {
    "$bin" serve --listen 127.0.0.1:0 "$@" 2>"$work/serve.err" &
    pid=$!
    for _ in $(seq 100); do
        port="$(sed -n 's|.*http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$work/serve.err" | head -1)"
        [ -n "$port" ] && return 0
        sleep 0.1
    done
    echo "serve did not start: $(cat "$work/serve.err")" >&2
    exit 1
}
stop() { kill "$pid"; wait "$pid" 2>/dev/null || true; pid=""; }
rss_kib() { awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status"; }
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$pid/stat"; }
launches() { curl -s "http://127.0.0.1:$port/metrics" | awk '/^mcpl_doctor_launches_total/ { n += $2 } END { print n + 0 }'; }

# A configuration of N entries running sh-server.sh MODE.
config() {
    local n="$1" mode="$2" file="$work/servers-$1-$2.json"
    {
        echo '{"mcplServers": {'
        for i in $(seq "$n"); do
            [ "$i" -gt 1 ] && echo ','
            printf '"s%d": {"command": "sh", "args": ["%s", "%s"]}' "$i" "$sh_server" "$mode"
        done
        echo '}}'
    } > "$file"
    echo "$file"
}

if [ "$seconds" -gt 0 ]; then
echo "== 1. memory: a flapping server relaunched every 100 ms, ${seconds} s"
start --interval 100ms --cap 100ms -- sh "$sh_server" flap 0
echo "t_s rss_kib launches" > "$work/memory.txt"
start_s=$(date +%s)
while :; do
    now=$(( $(date +%s) - start_s ))
    echo "$now $(rss_kib) $(launches)" >> "$work/memory.txt"
    [ "$now" -ge "$seconds" ] && break
    sleep 10
done
hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status")
stop
cat "$work/memory.txt"
awk -v hwm="$hwm" 'NR == 1 { next }
    { t[NR] = $1; r[NR] = $2; l[NR] = $3; n = NR }
    END {
        mid = int((n + 2) / 2)
        slope = (r[n] - r[mid]) / ((t[n] - t[mid]) / 3600)
        if (slope < 0) slope = 0
        printf "launches: %d in %d s (%.1f a second)\n", l[n], t[n], l[n] / t[n]
        printf "rss: %d KiB after 10 s, %d KiB at the end, peak %d KiB\n", r[3], r[n], hwm
        printf "growth over the second half: %.0f KiB an hour\n", slope
        # A leak grows alike in each third; an allocator settling grows less in each.
        a = int(n / 3) + 1; b = int(2 * n / 3) + 1
        printf "growth by thirds after 10 s: %d, %d, %d KiB\n", r[a] - r[3], r[b] - r[a], r[n] - r[b]
        printf "extrapolated: %.1f MiB after an hour, %.1f MiB after a week\n", (r[n] + slope * (3600 - t[n]) / 3600) / 1024, (r[n] + slope * (604800 - t[n]) / 3600) / 1024
    }' "$work/memory.txt"
fi

echo "== 2. CPU while idle: 10 servers up, 60 s"
start --config "$(config 10 up)"
sleep 5
c0=$(cpu_ticks)
sleep 60
c1=$(cpu_ticks)
hz=$(getconf CLK_TCK)
awk -v a="$c0" -v b="$c1" -v hz="$hz" 'BEGIN { printf "cpu: %.2f s in 60 s (%.2f%% of one core)\n", (b - a) / hz, (b - a) / hz / 60 * 100 }'
echo "rss: $(rss_kib) KiB"

echo "== 3. scrape time"
for n in 10 100; do
    [ "$n" -ne 10 ] && { stop; start --config "$(config "$n" up)"; sleep 10; }
    for _ in $(seq 200); do
        curl -s -o /dev/null -w '%{time_total}\n' "http://127.0.0.1:$port/metrics"
    done | sort -n | awk -v n="$n" '{ v[NR] = $1 } END { printf "%d servers: median %.1f ms, p99 %.1f ms\n", n, v[int(NR / 2)] * 1000, v[int(NR * 0.99)] * 1000 }'
    echo "  size: $(curl -s "http://127.0.0.1:$port/metrics" | wc -c) bytes"
done
stop
