#!/bin/sh
# The lightest legacy MCP server there is, for scripts/bench/probe-all.sh (a shell starts in about a
# millisecond, so 20 of them at once leave the CPU to the probe): it answers initialize (always
# id 0 from a host) with a fixed answer, then
#   up          stays up until its stdin closes
#   flap SECS   exits SECS seconds after notifications/initialized
#   fail        exits with code 1 before answering
case "${1:-}" in -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;; esac
mode="${1:-up}"
[ "$mode" = fail ] && exit 1
read -r _initialize
printf '%s\n' '{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2024-11-05","capabilities":{"experimental":{"mcpl":{"version":"0.5"}}},"serverInfo":{"name":"sh","version":"1"}}}'
read -r _initialized
if [ "$mode" = flap ]; then
  sleep "$2"
  exit 0
fi
while read -r _; do :; done
