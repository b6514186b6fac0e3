#!/usr/bin/env python3
"""A descendant that leaves the group and keeps re-forking (issue 21 item 5), Linux.

    scripts/bench/hopper.py BINARY [RUNS]

Runs `probe --launches 1 --watch 1s` on `fixtures/servers/hostile.py --hopper` under
`fixtures/servers/subreaper.py` (so what the probe leaves lives on, as under a desktop's
`systemd --user`, instead of going to a PID 1 that may kill it), RUNS times (default 20) with the
normal stop and RUNS times with a SIGKILL of the probe at a random moment 0.3-0.8 s after the
handshake; prints in how many runs the re-forking process was still running 0.5 s after the
probe ended, and how long the stop took.
"""

import os
import random
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SERVERS = os.path.join(ROOT, "fixtures", "servers")


def marked(marker):
    needle = ("H4_BENCH=" + marker).encode()
    out = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open("/proc/%s/environ" % d, "rb") as f:
                if needle not in f.read().split(b"\0"):
                    continue
            with open("/proc/%s/stat" % d) as f:
                stat = f.read()
            with open("/proc/%s/cmdline" % d, "rb") as f:
                cmd = f.read()
        except OSError:
            continue
        state = stat.rsplit(")", 1)[1].split()[0]
        if state not in "ZX" and b"subreaper.py" not in cmd:
            out.append(int(d))
    return out


def freeze_and_kill(marker):
    """What the probe should have done: stop everything marked, then kill it."""
    for _ in range(1000):
        if not marked(marker):
            return
        for sig in (signal.SIGSTOP, signal.SIGSTOP, signal.SIGKILL):
            for pid in marked(marker):
                try:
                    os.kill(pid, sig)
                except OSError:
                    pass
        time.sleep(0.01)


def run(binary, mode, i):
    marker = "hop%d-%s-%d" % (os.getpid(), mode, i)
    env = dict(os.environ, H4_BENCH=marker)
    wrapper = subprocess.Popen(
        [sys.executable, os.path.join(SERVERS, "subreaper.py"), binary, "probe", "--launches", "1",
         "--watch", "1s", "--", sys.executable, os.path.join(SERVERS, "hostile.py"), "--hopper"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    probe = int(wrapper.stdout.readline())
    if mode == "sigkill":
        time.sleep(0.3 + random.uniform(0.3, 0.8))
        os.kill(probe, signal.SIGKILL)
    start = time.monotonic()
    wrapper.stdout.readline()  # "exit N"
    took = time.monotonic() - start
    time.sleep(0.5)
    left = marked(marker)
    if left and os.environ.get("HOPPER_DEBUG"):
        for pid in left:
            try:
                with open("/proc/%d/stat" % pid) as f:
                    print("  left:", " ".join(f.read().split()[:8]), file=sys.stderr)
            except OSError:
                pass
    left = bool(left)
    freeze_and_kill(marker)
    wrapper.stdin.close()
    wrapper.wait()
    return left, took


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        sys.exit(0 if len(sys.argv) > 1 else 2)
    binary = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    for mode in ("stop", "sigkill"):
        results = [run(binary, mode, i) for i in range(runs)]
        left = sum(1 for l, _ in results if l)
        print("re-forking descendant, %-7s: left running in %d of %d runs" % (mode, left, runs),
              flush=True)


if __name__ == "__main__":
    main()
