#!/usr/bin/env bash
# The project's test command (what CI runs): checks the tools the tests need, then runs every
# unit and integration test. The fixture servers are plain Node scripts (no npm packages).
case "${1:-}" in -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;; esac
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v node >/dev/null 2>&1; then
    echo "error: the probe's fixture servers need Node.js (20 or newer) on PATH" >&2
    exit 2
fi
if ! command -v python3 >/dev/null 2>&1; then
    echo "error: the hostile fixture servers (fixtures/servers/hostile_*.py) need python3 on PATH" >&2
    exit 2
fi
if ! command -v promtool >/dev/null 2>&1 || ! command -v prometheus >/dev/null 2>&1; then
    echo "error: serve's monitoring tests need prometheus and promtool on PATH (Debian: apt-get install prometheus)" >&2
    exit 2
fi
if ! command -v man >/dev/null 2>&1 || ! command -v groff >/dev/null 2>&1; then
    echo "error: the man-page test renders man/ with man -l at 80 columns: it needs man-db and groff (Debian: apt-get install man-db groff-base)" >&2
    exit 2
fi
# The bridge test (tests/cli/remote_bridges.rs) runs the real mcp-remote, pinned, installed
# once into target/test-tools.
if [ ! -x target/test-tools/node_modules/.bin/mcp-remote ]; then
    if ! npm install --no-audit --no-fund --silent --prefix target/test-tools mcp-remote@0.15.1 >/dev/null; then
        echo "error: could not install mcp-remote@0.15.1 (npm) for the bridge test" >&2
        exit 2
    fi
fi
# The real supergateway (npm) and the Python mcp-proxy (PyPI), pinned, for the same test.
if [ ! -x target/test-tools/node_modules/.bin/supergateway ]; then
    if ! npm install --no-audit --no-fund --silent --prefix target/test-tools supergateway@4.0.0 >/dev/null; then
        echo "error: could not install supergateway@4.0.0 (npm) for the bridge test" >&2
        exit 2
    fi
fi
if [ ! -x target/test-tools/py/bin/mcp-proxy ]; then
    if ! python3 -m pip install --quiet --disable-pip-version-check --no-warn-conflicts --target target/test-tools/py mcp-proxy==0.13.0 >/dev/null; then
        echo "error: could not install mcp-proxy==0.13.0 (pip, into target/test-tools/py) for the bridge test" >&2
        exit 2
    fi
fi
# Four tests at a time by default on any machine: the integration tests mostly wait on child
# processes and timers (a whole run used 228 s of CPU in 343 s at four, under load; 535 s at the
# two a 2-core machine gets by default). RUST_TEST_THREADS set by the caller wins.
export RUST_TEST_THREADS="${RUST_TEST_THREADS:-4}"
# --lib --bins --tests: unit tests, then the integration-test binary last (no doc tests: the
# crate has none, and benches run with `cargo bench`).
cargo test --locked --lib --bins --tests "$@"
