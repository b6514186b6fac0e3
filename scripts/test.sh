#!/usr/bin/env bash
# The project's test command: installs what the tests need, then runs them.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --locked
