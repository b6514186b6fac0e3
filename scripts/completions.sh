#!/usr/bin/env bash
# Regenerate completions/ and man/ from the binary's clap definition.
case "${1:-}" in -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;; esac
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --quiet
bin=target/debug/mcpl-doctor
"$bin" completions bash > completions/mcpl-doctor.bash
"$bin" completions zsh > completions/_mcpl-doctor
"$bin" completions fish > completions/mcpl-doctor.fish
"$bin" completions powershell > completions/_mcpl-doctor.ps1
"$bin" completions elvish > completions/mcpl-doctor.elv
# The man pages, one per subcommand.
rm -f man/*.1
"$bin" man --out man
# The JSON Schemas under schema/.
for which in config check-config simulate probe events; do
  "$bin" schema "$which" > "schema/$which.schema.json"
done
