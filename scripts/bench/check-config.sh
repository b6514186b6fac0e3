#!/usr/bin/env bash
# Benchmark for `mcpl-doctor check-config` on a large file (release build), issue 12's figures:
#   1. a generated 10,000-server registry where every entry but one has a misspelt field
#      (`reconectMaxIntervalMs`: an `unknown-field` warning with "did you mean"), so 9,999
#      warnings are rendered; wall time and peak RSS for every format (human, json, github,
#      sarif) and for all four from one run (`--output FORMAT=FILE` x3);
#   2. for scale: Node's own `JSON.parse` of the same file, Node's start-up included (what the
#      host does before it reads one field).
# Usage: scripts/bench/check-config.sh [SERVERS] [RUNS]   (defaults 10000 and 5). Needs node, python3.
case "${1:-}" in -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;; esac
set -euo pipefail
cd "$(dirname "$0")/../.."
servers="${1:-10000}"
runs="${2:-5}"
cargo build --release --quiet
bin="$PWD/target/release/mcpl-doctor"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python3 - "$servers" "$work/mcpl-servers.json" <<'EOF'
import json, sys
n, path = int(sys.argv[1]), sys.argv[2]
entries = {}
for i in range(n):
    e = {"command": "node", "args": [f"./servers/s{i}.js"], "reconnect": True,
         "reconnectIntervalMs": 1000}
    if i:
        e["reconectMaxIntervalMs"] = 60000
    entries[f"server-{i}"] = e
with open(path, "w") as f:
    json.dump({"mcplServers": entries}, f, indent=2)
EOF
size=$(wc -c <"$work/mcpl-servers.json")
echo "file: $servers servers, $size bytes"

# Wall seconds and peak RSS (KB) of one command, the best of $runs.
measure() {
  local best_wall="" best_rss=""
  for _ in $(seq "$runs"); do
    /usr/bin/time -o "$work/time" -f '%e %M' "$@" >/dev/null 2>&1 || true
    local out
    out=$(tail -1 "$work/time")
    local wall=${out% *} rss=${out#* }
    if [ -z "$best_wall" ] || awk "BEGIN{exit !($wall < $best_wall)}"; then best_wall=$wall; fi
    if [ -z "$best_rss" ] || [ "$rss" -gt "$best_rss" ]; then best_rss=$rss; fi
  done
  printf '%-34s %6s s  peak %6.1f MB\n' "$LABEL" "$best_wall" "$(awk "BEGIN{print $best_rss/1024}")"
}

warnings=$("$bin" check-config "$work/mcpl-servers.json" --format json | python3 -c \
  'import json,sys; d=json.load(sys.stdin); print(d["summary"]["warnings"])' || true)
echo "warnings rendered: $warnings"
for format in human json github sarif; do
  LABEL="check-config --format $format" measure "$bin" check-config "$work/mcpl-servers.json" \
    --format "$format"
done
LABEL="all four from one run" measure "$bin" check-config "$work/mcpl-servers.json" \
  --output "json=$work/o.json" --output "github=$work/o.txt" --output "sarif=$work/o.sarif"
LABEL="node: JSON.parse (start included)" measure node -e \
  'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))' "$work/mcpl-servers.json"
LABEL="node: start alone" measure node -e '0'
