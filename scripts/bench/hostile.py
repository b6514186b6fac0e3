#!/usr/bin/env python3
"""Peak memory and time of `mcpl-doctor probe` against the hostile fixture servers.

    scripts/bench/hostile.py BINARY [CASE...]

Each case runs the probe for at most LIMIT seconds (then SIGKILL), sampling VmHWM (peak
resident memory) from /proc/PID/status every 20 ms, and prints: case, peak MB, seconds, exit
status ("killed" when the limit ended it), and for the cases that print `--json`, its size.
The figures are in docs/benchmarks.md.
"""

import os
import signal
import subprocess
import sys
import time

if any(a in ("-h", "--help") for a in sys.argv[1:]):
    print(__doc__ or "")
    sys.exit(0)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SERVERS = os.path.join(ROOT, "fixtures", "servers")


def ws_server(mode, *args):
    p = subprocess.Popen(
        [sys.executable, os.path.join(SERVERS, "hostile_ws.py"), mode, *args],
        stdout=subprocess.PIPE,
    )
    port = int(p.stdout.readline())
    return p, "ws://127.0.0.1:%d/mcpl" % port


def peak_kb(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def cpu_ticks(pid):
    """utime + stime of a process, in clock ticks."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])
    except (OSError, IndexError, ValueError):
        return 0


def measure(binary, args, limit, signal_at=None, stdin=None, cwd=None, out=None):
    """Run; with `signal_at`, Ctrl-C twice (100 ms apart) that many seconds in, and report the
    time from the second Ctrl-C to the exit instead of the whole run's."""
    start = time.monotonic()
    p = subprocess.Popen([binary, *args], stdout=out if out is not None else subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL,
                         stdin=stdin if stdin is not None else subprocess.DEVNULL, cwd=cwd)
    peak = 0
    status = None
    second = None
    while True:
        peak = max(peak, peak_kb(p.pid))
        status = p.poll()
        if status is not None:
            break
        elapsed = time.monotonic() - start
        if signal_at is not None and second is None and elapsed >= signal_at:
            p.send_signal(signal.SIGINT)
            time.sleep(0.1)
            p.send_signal(signal.SIGINT)
            second = time.monotonic()
        if elapsed > limit:
            p.kill()
            p.wait()
            status = "killed"
            break
        time.sleep(0.005 if second is not None else 0.02)
    end = time.monotonic()
    return peak / 1024.0, end - (second if second is not None else start), status


def main():
    binary = sys.argv[1]
    wanted = set(sys.argv[2:])
    py = sys.executable
    stdio = os.path.join(SERVERS, "hostile_stdio.py")
    cases = [
        ("stdio-flood-requests", None, ["probe", "--launches", "1", "--watch", "10s", "--", py, stdio, "flood-requests"], 30),
        # A notification far over the 4 MiB line before the answer (issue 21, item 10): skipped.
        ("stdio-big-notification-500MiB", None, ["probe", "--launches", "1", "--watch", "1s", "--handshake-timeout", "60s", "--", py, stdio, "big-notification", str(500 << 20)], 90),
        ("stdio-big-answer-2MiB", None, ["probe", "--launches", "1", "--watch", "1s", "--handshake-timeout", "10s", "--", py, stdio, "big-answer", str(2 << 20)], 30),
        ("ws-flood-requests", ("flood-requests",), ["--launches", "1", "--watch", "10s"], 30),
        ("ws-ping-flood", ("ping-flood",), ["--launches", "1", "--watch", "8s"], 30),
        # Seconds from the second Ctrl-C to the exit (the goal: within 1 s).
        ("ws-second-ctrl-c", ("flood-requests",), ["--launches", "1", "--watch", "120s"], 60, 4),
        ("ws-big-message-64MiB", ("big-message", str(64 << 20)), ["--launches", "1", "--watch", "10s"], 30),
        # One whole message within the host's 100 MiB, before the answer (issue 21, item 9).
        ("ws-big-notification-99MiB", ("big-notification", str(99 << 20)), ["--launches", "1", "--watch", "2s", "--handshake-timeout", "60s"], 90),
        ("ws-big-message-200MiB", ("big-message", str(200 << 20)), ["--launches", "1", "--watch", "10s"], 30),
        # A fast-flapping server with an 8 KiB stderr tail per launch: the end-of-run report.
        # What the opening records (issue 21, item 1): 10 s floods, then the JSON.
        ("stdio-content-flood", None, ["probe", "--launches", "1", "--watch", "30s", "--json", "--", py, stdio, "content-flood", "10", "1024"], 60),
        ("stdio-register-flood", None, ["probe", "--launches", "1", "--watch", "30s", "--json", "--", py, stdio, "register-flood", "10", "1024"], 60),
        ("stdio-method-flood", None, ["probe", "--launches", "1", "--watch", "30s", "--json", "--", py, stdio, "method-flood", "10", "1024"], 60),
        ("stdio-tool-flood", None, ["probe", "--launches", "1", "--watch", "120s", "--json", "--", py, stdio, "tool-flood", str(1 << 20), "1", "250"], 150),
        # 1,000 tools/list pages, each with a new 128 KiB cursor (issue 21, item 1).
        ("stdio-huge-cursors-128KiB", None, ["probe", "--launches", "1", "--watch", "120s", "--json", "--", py, stdio, "huge-cursors", str(128 << 10)], 150),
        # One tools/list page over the 4 MiB line kept whole (issue 21, item 10): 11 MiB.
        ("stdio-tools-page-11MiB", None, ["probe", "--launches", "1", "--watch", "60s", "--json", "--", py, stdio, "tool-flood", "8", "120000", "1"], 90),
        ("stdio-big-names-30", None, ["probe", "--preset", "handshake", "--interval", "1ms", "--launches", "30", "--json", "--", py, stdio, "big-names", str(1 << 20)], 120),
        ("report-3000-launches", None, ["probe", "--preset", "handshake", "--interval", "1ms", "--launches", "3000", "--", "sh", "-c",
          "head -c 9000 /dev/zero | tr '\\0' x >&2; echo >&2; exec sh " + os.path.join(ROOT, "scripts", "bench", "sh-server.sh") + " flap 0"], 900),
    ]
    for name, ws, args, limit, *signal_at in cases:
        if wanted and name not in wanted:
            continue
        server = None
        if ws is not None:
            server, url = ws_server(*ws)
            args = ["probe", "--url", url, *args]
        import tempfile
        with tempfile.TemporaryFile() as out:
            try:
                mb, secs, status = measure(binary, args, limit, *signal_at, out=out)
            finally:
                if server is not None:
                    server.kill()
                    server.wait()
            size = out.tell()
        json_size = "  json %d KB" % (size // 1024) if "--json" in args else ""
        print("%-29s %8.1f MB %7.1f s  exit %s%s" % (name, mb, secs, status, json_size), flush=True)
    # check-config's inputs (issue 21 items 4 and 6): an endless standard input under
    # --stdin-filename; a glob through two symlink loops.
    if not wanted or "stdin-filename-zero" in wanted:
        with open("/dev/zero", "rb") as zero:
            mb, secs, status = measure(binary, ["check-config", "--stdin-filename", "mcp.json", "-"], 60, stdin=zero)
        print("%-29s %8.1f MB %7.1f s  exit %s" % ("stdin-filename-zero", mb, secs, status), flush=True)
    # The /proc scans of an idle probe (issue 21, item 10): CPU over 10 s of watching a quiet
    # stdio server, with 2,000 sleeping processes on the machine (each lives 60 s at most).
    if not wanted or "idle-scan-2000-processes" in wanted:
        sleepers = [subprocess.Popen(["sleep", "60"]) for _ in range(2000)]
        try:
            p = subprocess.Popen([binary, "probe", "--launches", "1", "--watch", "20s", "--", py,
                                  os.path.join(SERVERS, "hostile.py")],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                 stdin=subprocess.DEVNULL)
            time.sleep(4)
            t0, c0 = time.monotonic(), cpu_ticks(p.pid)
            time.sleep(10)
            t1, c1 = time.monotonic(), cpu_ticks(p.pid)
            p.kill()
            p.wait()
            share = (c1 - c0) / os.sysconf("SC_CLK_TCK") / (t1 - t0) * 100
            print("%-29s %8.2f %% of a core over %.0f s" % ("idle-scan-2000-processes", share, t1 - t0), flush=True)
        finally:
            for s in sleepers:
                s.kill()
            for s in sleepers:
                s.wait()
    if not wanted or "glob-two-symlink-loops" in wanted:
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "a", "b"))
            with open(os.path.join(d, "a", "b", "mcp.json"), "w") as f:
                f.write('{"mcpServers": {}}')
            os.symlink("..", os.path.join(d, "a", "b", "up"))
            os.symlink("../..", os.path.join(d, "a", "b", "upup"))
            mb, secs, status = measure(binary, ["check-config", "**/mcp.json"], 20, cwd=d)
        print("%-29s %8.1f MB %7.1f s  exit %s" % ("glob-two-symlink-loops", mb, secs, status), flush=True)


if __name__ == "__main__":
    main()
