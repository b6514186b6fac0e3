#!/usr/bin/env bash
# The diagnosis on real, unmodified MCP servers from npm and PyPI, each with a fault users
# really hit and healthy: for every case the verdict, the top cause, whether its next step
# names the fix (the argument, variable, path, folder, version or limit to change), the time,
# and what MCP Inspector's CLI prints for the same case. Then the totals, and a check that no
# planted secret appears in any output (text, JSON, events, the HTML report). A server that
# stays up but cannot work (`--call` failed) counts by its opening's finding.
# Usage: scripts/bench/real-servers.sh [CASE-SUBSTRING]   (default: every case)
# Installs the servers into MCPL_BENCH_CACHE (default ${XDG_CACHE_HOME:-~/.cache}/mcpl-doctor-real),
# outside the repository: npm packages, a Python venv, an npx cache. Needs node/npm/npx,
# python3 (and a python3.9 for the "too old" case: pyenv's, or set MCPL_BENCH_PY39), git.
# MCPL_DOCTOR=path/to/binary measures that binary instead of a release build.
# MCPL_BENCH_INSPECTOR=0 skips the MCP Inspector column (about 3 s a case).
case "${1:-}" in -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;; esac
set -euo pipefail
cd "$(dirname "$0")/../.."
cache="${MCPL_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mcpl-doctor-real}"
mkdir -p "$cache"
cache="$(realpath "$cache")"

npm_pkgs=(@modelcontextprotocol/server-memory @modelcontextprotocol/server-filesystem
  @modelcontextprotocol/server-sequential-thinking @modelcontextprotocol/server-github
  @modelcontextprotocol/server-gitlab @modelcontextprotocol/server-slack
  @modelcontextprotocol/server-brave-search @modelcontextprotocol/server-postgres
  @modelcontextprotocol/server-everything @modelcontextprotocol/inspector)
if [ ! -x "$cache/npm/node_modules/.bin/mcp-inspector" ]; then
  npm install --prefix "$cache/npm" --no-audit --no-fund "${npm_pkgs[@]}" >&2
fi
if [ ! -x "$cache/venv/bin/mcp-server-sqlite" ]; then
  python3 -m venv "$cache/venv"
  "$cache/venv/bin/pip" install -q mcp-server-git mcp-server-fetch mcp-server-time mcp-server-sqlite >&2
fi
# A warm npx cache holding one package, and a copy of it with a file of the package removed
# (an npx cache left broken by an interrupted install).
if [ ! -d "$cache/npx-warm/_npx" ]; then
  (sleep 3) | npm_config_cache="$cache/npx-warm" timeout 120 npx -y @modelcontextprotocol/server-sequential-thinking >/dev/null 2>&1 || true
fi
if [ ! -d "$cache/npx-broken/_npx" ]; then
  cp -a "$cache/npx-warm" "$cache/npx-broken"
  find "$cache/npx-broken/_npx" -path '*@modelcontextprotocol/sdk/dist/esm/server/stdio.js' -delete
fi
py39="${MCPL_BENCH_PY39:-$(ls -d "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.9*/bin/python3 2>/dev/null | head -1 || true)}"

if [ -n "${MCPL_DOCTOR:-}" ]; then
  bin="$(realpath "$MCPL_DOCTOR")"
else
  cargo build --release --quiet
  bin="$PWD/target/release/mcpl-doctor"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export MCPL_BENCH_BIN="$bin" MCPL_BENCH_CACHE="$cache" MCPL_BENCH_WORK="$work" MCPL_BENCH_PY39="$py39"
exec python3 - "${1:-}" <<'EOF'
import json, os, re, shutil, socket, subprocess, sys, time

BIN = os.environ["MCPL_BENCH_BIN"]
CACHE = os.environ["MCPL_BENCH_CACHE"]
WORK = os.environ["MCPL_BENCH_WORK"]
PY39 = os.environ.get("MCPL_BENCH_PY39", "")
N = f"{CACHE}/npm/node_modules/.bin"
V = f"{CACHE}/venv/bin"
SITE = next((f"{CACHE}/venv/lib/{d}/site-packages" for d in os.listdir(f"{CACHE}/venv/lib")), "")
INSPECTOR = os.environ.get("MCPL_BENCH_INSPECTOR", "1") != "0"
only = sys.argv[1] if len(sys.argv) > 1 else ""

# Planted secrets: none may appear in any output.
PG_PASSWORD = "pgS3cretPw41"
SECRETS = {
    "GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
    "BRAVE_API_KEY": "BSAfakeBraveKey9876543210",
    "SLACK_BOT_TOKEN": "xoxb-1111111111-2222222222-fakeSlackSecret",
    "SLACK_TEAM_ID": "T0FAKETEAM",
}
PLANTED = [PG_PASSWORD] + [v for k, v in SECRETS.items() if k != "SLACK_TEAM_ID"]

os.makedirs(f"{WORK}/files", exist_ok=True)
subprocess.run(["git", "init", "-q", f"{WORK}/repo"], check=True)
with open(f"{WORK}/crlf-server", "w") as f:
    f.write(f"#!/bin/sh\r\nexec {N}/mcp-server-memory\r\n")
os.chmod(f"{WORK}/crlf-server", 0o755)
with open(f"{WORK}/background-server", "w") as f:
    f.write(f"#!/bin/sh\n# starts the server in the background and exits\n{N}/mcp-server-memory > /dev/null 2>&1 &\nexit 0\n")
os.chmod(f"{WORK}/background-server", 0o755)
mem = {"MEMORY_FILE_PATH": f"{WORK}/memory.json"}
npx_env = lambda c: {"npm_config_cache": f"{CACHE}/{c}", "npm_config_update_notifier": "false"}
base = ["--launches", "2", "--interval", "200ms", "--watch", "3s", "--handshake-timeout", "20s"]

# (case, runtime, kind, fault, env, command, probe args, words of the fix (any, in the top
# cause's next step), cwd)
C = []
def case(name, rt, kind, fault, env, cmd, fix=(), args=None, cwd=None, before=None):
    C.append(dict(name=name, rt=rt, kind=kind, fault=fault, env=env, cmd=cmd, fix=fix,
                  args=base if args is None else args, cwd=cwd or WORK, before=before))

H = "healthy"
case("memory", "node", H, "none", mem, [f"{N}/mcp-server-memory"])
case("filesystem", "node", H, "none", {}, [f"{N}/mcp-server-filesystem", f"{WORK}/files"])
case("sequential-thinking", "node", H, "none", {}, [f"{N}/mcp-server-sequential-thinking"])
case("everything", "node", H, "none", {}, [f"{N}/mcp-server-everything"])
case("github", "node", H, "none (token set)", {"GITHUB_PERSONAL_ACCESS_TOKEN": SECRETS["GITHUB_PERSONAL_ACCESS_TOKEN"]}, [f"{N}/mcp-server-github"])
case("brave-search", "node", H, "none (key set)", {"BRAVE_API_KEY": SECRETS["BRAVE_API_KEY"]}, [f"{N}/mcp-server-brave-search"])
case("slack", "node", H, "none (both set)", {"SLACK_BOT_TOKEN": SECRETS["SLACK_BOT_TOKEN"], "SLACK_TEAM_ID": SECRETS["SLACK_TEAM_ID"]}, [f"{N}/mcp-server-slack"])
case("npx sequential-thinking", "node", H, "none (warm npx cache)", npx_env("npx-warm"), ["npx", "-y", "@modelcontextprotocol/server-sequential-thinking"])
case("git", "python", H, "none", {}, [f"{V}/mcp-server-git", "--repository", f"{WORK}/repo"])
case("time", "python", H, "none", {}, [f"{V}/mcp-server-time"])
case("fetch", "python", H, "none", {}, [f"{V}/mcp-server-fetch"])
case("time", "python", H, "none, --call get_current_time", {}, [f"{V}/mcp-server-time"], args=base + ["--call", 'get_current_time={"timezone": "UTC"}'])
case("memory", "node", H, "none, --call read_graph", mem, [f"{N}/mcp-server-memory"], args=base + ["--call", "read_graph"])

F = "fault"
case("filesystem", "node", F, "allowed folder does not exist", {}, [f"{N}/mcp-server-filesystem", "/nonexistent/dir"], fix=["/nonexistent/dir"])
case("filesystem", "node", F, "allowed folder is a file", {}, [f"{N}/mcp-server-filesystem", "/etc/hostname"], fix=["/etc/hostname"])
case("filesystem", "node", F, "relative folder, wrong cwd", {}, [f"{N}/mcp-server-filesystem", "./docs"], fix=["./docs", "cwd", "working folder", "absolute"])
case("git", "python", F, "--repository is not a git repo", {}, [f"{V}/mcp-server-git", "--repository", "/tmp"], fix=["--repository"])
case("git", "python", F, "--repository does not exist", {}, [f"{V}/mcp-server-git", "--repository", "/nonexistent/repo"], fix=["--repository", "/nonexistent/repo"])
case("time", "python", F, "bad --local-timezone", {}, [f"{V}/mcp-server-time", "--local-timezone", "PST"], fix=["--local-timezone", "PST"])
case("postgres", "node", F, "database URL argument missing", {}, [f"{N}/mcp-server-postgres"], fix=["argument", "database URL"])
case("postgres", "node", F, "database unreachable (URL with password), --call query", {}, [f"{N}/mcp-server-postgres", f"postgresql://app:{PG_PASSWORD}@127.0.0.1:1/app"], fix=["127.0.0.1:1"],
     args=base + ["--call", 'query={"sql": "SELECT 1"}'])
case("gitlab", "node", F, "token not set", {}, [f"{N}/mcp-server-gitlab"], fix=["GITLAB_PERSONAL_ACCESS_TOKEN"])
case("slack", "node", F, "one of two variables not set", {"SLACK_BOT_TOKEN": SECRETS["SLACK_BOT_TOKEN"]}, [f"{N}/mcp-server-slack"], fix=["SLACK_TEAM_ID"])
case("slack", "node", F, "neither variable set", {}, [f"{N}/mcp-server-slack"], fix=["SLACK_BOT_TOKEN"])
case("brave-search", "node", F, "key not set", {}, [f"{N}/mcp-server-brave-search"], fix=["BRAVE_API_KEY"])
case("fetch", "python", F, "python -m outside the venv", {}, ["python3", "-m", "mcp_server_fetch"], fix=["mcp_server_fetch", "venv", "interpreter"])
case("time", "python", F, "python -m outside the venv", {}, ["python3", "-m", "mcp_server_time"], fix=["mcp_server_time", "venv", "interpreter"])
if PY39:
    case("time", "python", F, "interpreter too old (3.9)", {"PYTHONPATH": SITE}, [PY39, "-m", "mcp_server_time"], fix=["3.10", "Python >="])
case("sqlite", "python", F, "dependency drift (mcp API)", {}, [f"{V}/mcp-server-sqlite", "--db-path", f"{WORK}/x.db"], fix=["pin", "mcp"])
case("npx memory", "node", F, "misspelt package (E404)", npx_env("npx-warm"), ["npx", "-y", "@modelcontextprotocol/server-memroy"], fix=["server-memroy"])
case("npx sequential-thinking", "node", F, "broken npx cache", npx_env("npx-broken"), ["npx", "-y", "@modelcontextprotocol/server-sequential-thinking"], fix=["_npx"])
case("npx memory", "node", F, "cold npx install, host's start budget 3 s", npx_env("npx-cold"), ["npx", "-y", "@modelcontextprotocol/server-memory"], fix=["_npx"],
     args=["--launches", "1", "--watch", "3s", "--handshake-timeout", "3s", "--start-budget", "3s"],
     before=lambda: shutil.rmtree(f"{CACHE}/npx-cold", ignore_errors=True))
case("memory", "node", F, "address-space limit (ulimit -v)", mem, ["sh", "-c", f"ulimit -v 400000; exec {N}/mcp-server-memory"], fix=["ulimit", "address-space", "address space"])
case("time", "python", F, "address-space limit (ulimit -v)", {}, ["sh", "-c", f"ulimit -v 60000; exec {V}/mcp-server-time"], fix=["ulimit", "address-space", "address space"])
case("memory", "node", F, "heap limit too small", mem, ["node", "--max-old-space-size=4", f"{N}/mcp-server-memory"], fix=["max-old-space-size"])
case("memory", "node", F, "wall-clock limit (timeout 2)", mem, ["timeout", "2", f"{N}/mcp-server-memory"], fix=["timeout", "124"],
     args=["--launches", "3", "--interval", "200ms", "--watch", "4s", "--handshake-timeout", "20s"])
case("memory", "node", F, "CRLF in the #! line", mem, [f"{WORK}/crlf-server"], fix=["CRLF", "line ending"])
case("memory", "node", F, "stdin is /dev/null (docker without -i)", mem, ["sh", "-c", f"exec {N}/mcp-server-memory < /dev/null"], fix=["-i", "stdin", "/dev/null"])
case("memory", "node", F, "wrapper backgrounds the server", mem, [f"{WORK}/background-server"], fix=["background", "exec"])
case("everything", "node", F, "started in HTTP mode under stdio", {"PORT": "3977"}, [f"{N}/mcp-server-everything", "streamableHttp"], fix=["--url", "HTTP"])
case("everything", "node", F, "HTTP mode, port in use", {"PORT": "3978"}, [f"{N}/mcp-server-everything", "streamableHttp"], fix=["3978", "port"], before="listen:3978")
case("time", "python", F, "uvx not installed", {"PATH": "/usr/bin:/bin"}, ["uvx", "mcp-server-time"], fix=["uvx", "PATH"])

def inspector(c):
    if not INSPECTOR:
        return ""
    cmd = [f"{CACHE}/npm/node_modules/.bin/mcp-inspector", "--cli"]
    for k, v in c["env"].items():
        cmd += ["-e", f"{k}={v}"]
    cmd += c["cmd"] + ["--method", "tools/list"]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=40, cwd=c["cwd"])
        out = (p.stdout + "\n" + p.stderr).strip()
    except subprocess.TimeoutExpired:
        return "(no answer in 40 s)"
    if p.returncode == 0 and '"tools"' in out:
        try:
            return f"{len(json.loads(p.stdout)['tools'])} tools listed"
        except (ValueError, KeyError, TypeError):
            return "tools listed"
    lines = [l for l in out.splitlines() if l.strip() and not l.startswith("    at ")]
    last = next((l for l in lines if "Failed" in l or "Error" in l), lines[-1] if lines else "")
    return last.strip()[:70]

def probe(c, fmt, extra=()):
    env = dict(os.environ)
    for k in list(env):
        if k in SECRETS or k.startswith("MCPL_"):
            del env[k]
    env.update(c["env"])
    # The probe takes PATH from its own environment for the spawn: give it the case's PATH.
    cmd = [BIN, "probe", "--format", fmt] + list(extra) + c["args"] + ["--"] + c["cmd"]
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=c["cwd"], timeout=300)
    return p, time.monotonic() - t0

rows, leaks, checked = [], [], []
for c in C:
    label = f"{c['name']}: {c['fault']}"
    if only and only not in label:
        continue
    holder = None
    if callable(c["before"]):
        c["before"]()
    elif c["before"] and c["before"].startswith("listen:"):
        holder = socket.socket()
        holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        holder.bind(("127.0.0.1", int(c["before"].split(":")[1])))
        holder.listen()
    p, secs = probe(c, "json")
    outputs = [p.stdout, p.stderr]
    try:
        doc = json.loads(p.stdout)
    except ValueError:
        doc = {}
    diags = doc.get("diagnoses") or []
    top = diags[0] if diags else None
    # A server that stayed up but cannot do its work: its opening's finding.
    findings = (doc.get("opening") or {}).get("findings") or []
    if top is None and findings:
        top = {"id": findings[0]["id"], "next_step": findings[0]["text"]}
    verdict = (doc.get("verdict") or {}).get("pattern", "(error)" if not doc else "?")
    if not doc:
        # A launch error: the Why is on stderr.
        m = re.search(r"Why:\s*\n\s*([a-z-]+)", p.stderr)
        # The next step, with its wrapped lines (indented deeper) joined.
        nxt = re.search(r"next: (.*(?:\n {5,}\S.*)*)", p.stderr)
        step = " ".join(x.strip() for x in nxt.group(1).splitlines()) if nxt else ""
        top = {"id": m.group(1), "next_step": step} if m else None
        verdict = f"exit {p.returncode}"
    if any(k in c["env"].values() for k in PLANTED) or PG_PASSWORD in " ".join(c["cmd"]):
        html = f"{WORK}/report.html"
        for fmt, extra in (("human", ()), ("events", ()), ("human", ("--report", html))):
            t, _ = probe(c, fmt, extra)
            outputs += [t.stdout, t.stderr]
            if extra:
                with open(html, encoding="utf-8", errors="replace") as f:
                    outputs.append(f.read())
        checked.append(label)
    for s in PLANTED:
        for o in outputs:
            if s in o:
                leaks.append(f"{label}: {s[:6]}...")
    if c["kind"] == F:
        if callable(c["before"]):
            c["before"]()
        insp = inspector(c)
    else:
        insp = inspector(c)
    if holder:
        holder.close()
    cause = top["id"] if top else "(none)"
    nxt = top.get("next_step", "") if top else ""
    fixed = bool(top) and any(w.lower() in nxt.lower() for w in c["fix"])
    rows.append(dict(label=label, kind=c["kind"], rt=c["rt"], verdict=verdict, cause=cause,
                     fixed=fixed, nxt=nxt, secs=secs, insp=insp))
    mark = "" if c["kind"] == H else ("fix named" if fixed else "FIX NOT NAMED")
    print(f"{c['kind']:7} {c['rt']:6} {label}\n        verdict {verdict}; cause {cause}; {secs:.1f} s  {mark}\n"
          f"        next: {nxt[:200]}\n        inspector: {insp}", flush=True)

faults = [r for r in rows if r["kind"] == F]
healthy = [r for r in rows if r["kind"] == H]
named = sum(r["fixed"] for r in faults)
cause_named = sum(r["cause"] not in ("(none)", "cause-unknown") for r in faults)
quiet = sum(r["cause"] == "(none)" for r in healthy)
print()
cell = lambda t, n=220: (t if len(t) <= n else t[: n - 1] + "…").replace("|", "\\|")
print("| case | fault | verdict | cause | next step | right | time | MCP Inspector CLI |")
print("|---|---|---|---|---|---|---|---|")
for r in rows:
    name, _, fault = r["label"].partition(": ")
    right = ("yes" if r["cause"] == "(none)" else "NO") if r["kind"] == H else ("yes" if r["fixed"] else "NO")
    print(f"| {name} ({r['rt']}) | {cell(fault)} | {r['verdict']} | {r['cause']} | {cell(r['nxt']) or '-'} | {right} | {r['secs']:.1f} s | {cell(r['insp'], 70) or '-'} |")
print()
if faults:
    print(f"faults: {len(faults)}; a cause named in {cause_named}; the fix named in {named} ({100 * named // len(faults)}%)")
if healthy:
    print(f"healthy: {len(healthy)}; no cause on {quiet}")
print(f"secrets printed: {len(leaks)} (planted in {len(checked)} cases, each read in text, --format json, --format events and --report html)" + "".join(f"\n  {l}" for l in leaks))
EOF
