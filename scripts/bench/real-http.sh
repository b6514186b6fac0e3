#!/usr/bin/env bash
# Probe the reference "everything" server from npm over HTTP, in its streamableHttp and sse
# modes, with `mcpl-doctor probe --url`, from a VS Code entry (`.vscode/mcp.json`, `type: http`
# and `type: sse`) and with MCP Inspector's CLI, and print the times and tools seen.
# Installs @modelcontextprotocol/server-everything and @modelcontextprotocol/inspector into
# MCPL_BENCH_NPM (default ${XDG_CACHE_HOME:-~/.cache}/mcpl-doctor-bench), outside the repo.
case "${1:-}" in -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;; esac
set -euo pipefail
cd "$(dirname "$0")/../.."
cache="${MCPL_BENCH_NPM:-${XDG_CACHE_HOME:-$HOME/.cache}/mcpl-doctor-bench}"
mkdir -p "$cache"
if [ ! -x "$cache/node_modules/.bin/mcp-server-everything" ] || [ ! -x "$cache/node_modules/.bin/mcp-inspector" ]; then
  npm install --prefix "$cache" --no-audit --no-fund \
    @modelcontextprotocol/server-everything @modelcontextprotocol/inspector >&2
fi
# MCPL_BENCH_BIN: a binary already built (default: a release build).
bin="${MCPL_BENCH_BIN:-}"
if [ -z "$bin" ]; then
  cargo build --quiet --release
  bin=target/release/mcpl-doctor
fi
port="${MCPL_BENCH_PORT:-3001}"
ms() { date +%s%3N; }
for mode in streamableHttp sse; do
  path=/mcp
  [ "$mode" = sse ] && path=/sse
  PORT=$port "$cache/node_modules/.bin/mcp-server-everything" "$mode" >/dev/null 2>&1 &
  pid=$!
  trap 'kill $pid 2>/dev/null || true' EXIT
  for _ in $(seq 50); do
    curl -s -o /dev/null "http://127.0.0.1:$port$path" -m 1 && break || sleep 0.2
  done
  url="http://127.0.0.1:$port$path"
  t0=$(ms)
  "$bin" probe --url "$url" --launches 1 --watch 500ms --json > "/tmp/real-http-$mode.json" || true
  t1=$(ms)
  tools=$(grep -o '"tool_count": *[0-9]*' "/tmp/real-http-$mode.json" | head -1 || true)
  state=$(grep -o '"counted": *"[^"]*"' "/tmp/real-http-$mode.json" | head -1 || true)
  # The same server from a VS Code entry of type http or sse.
  vtype=http
  [ "$mode" = sse ] && vtype=sse
  ws=$(mktemp -d)
  mkdir -p "$ws/.vscode"
  printf '{"servers": {"everything": {"type": "%s", "url": "%s"}}}\n' "$vtype" "$url" > "$ws/.vscode/mcp.json"
  t4=$(ms)
  "$bin" probe --config "$ws/.vscode/mcp.json" --server everything --launches 1 --watch 500ms --json \
    > "/tmp/real-http-$mode.vscode.json" || true
  t5=$(ms)
  rm -rf "$ws"
  vtools=$(grep -o '"tool_count": *[0-9]*' "/tmp/real-http-$mode.vscode.json" | head -1 || true)
  vstate=$(grep -o '"counted": *"[^"]*"' "/tmp/real-http-$mode.vscode.json" | head -1 || true)
  transport=()
  [ "$mode" = sse ] && transport=(--transport sse)
  t2=$(ms)
  "$cache/node_modules/.bin/mcp-inspector" --cli "$url" "${transport[@]}" --method tools/list \
    > "/tmp/real-http-$mode.inspector.json" 2>/dev/null || true
  t3=$(ms)
  itools=$(grep -c '"name"' "/tmp/real-http-$mode.inspector.json" || true)
  era=$(grep -o '"era": *"[^"]*"' "/tmp/real-http-$mode.json" | head -1 || true)
  printf '%-15s probe --url %5d ms (%s, %s, %s)\n' "$mode" $((t1 - t0)) "$era" "$state" "$tools"
  printf '%-15s vscode %-4s %5d ms (%s, %s)\n' "" "$vtype" $((t5 - t4)) "$vstate" "$vtools"
  printf '%-15s inspector   %5d ms (%s name lines)\n' "" $((t3 - t2)) "$itools"
  kill $pid 2>/dev/null || true
  wait $pid 2>/dev/null || true
  trap - EXIT
done
