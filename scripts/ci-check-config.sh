#!/usr/bin/env bash
# The body of the composite action (action.yml): check host configuration files, annotate the
# pull request's diff, and write a SARIF file for code scanning, from one run.
#
# Inputs come as environment variables (the action sets them from its `with:`):
#   INPUT_PATHS          files, folders or globs, separated by spaces (default: .)
#   INPUT_PRESET         the host rule (default: lasting)
#   INPUT_SARIF          where to write the SARIF file (default: mcpl-doctor.sarif)
#   INPUT_DENY_WARNINGS  "true": warnings fail the check too
#   INPUT_SOURCE         folder to `cargo install --locked --path` from when mcpl-doctor is not
#                        on PATH (the action passes its own checkout)
# Outputs (appended to $GITHUB_OUTPUT when set): sarif=PATH, status=EXIT_STATUS.
# Exits 0 after writing the outputs: the action's last step fails the job on `status`, so the
# SARIF upload between them always runs.
case "${1:-}" in -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;; esac
set -uo pipefail

paths=${INPUT_PATHS:-.}
preset=${INPUT_PRESET:-lasting}
sarif=${INPUT_SARIF:-mcpl-doctor.sarif}

if ! command -v mcpl-doctor >/dev/null 2>&1; then
  if [ -z "${INPUT_SOURCE:-}" ]; then
    echo "error: mcpl-doctor is not on PATH and INPUT_SOURCE names no source to install from" >&2
    exit 2
  fi
  echo "Installing mcpl-doctor from ${INPUT_SOURCE}..." >&2
  cargo install --locked --quiet --path "${INPUT_SOURCE}" || exit 2
fi

args=(check-config --format github --output "sarif=${sarif}" --preset "${preset}")
if [ "${INPUT_DENY_WARNINGS:-false}" = "true" ]; then
  args+=(--deny-warnings)
fi
# Word-split the paths on purpose (several paths in one input); globs reach the tool unexpanded.
set -f
# shellcheck disable=SC2206
args+=(${paths})
set +f

mcpl-doctor "${args[@]}"
status=$?

if [ -n "${GITHUB_OUTPUT:-}" ]; then
  {
    echo "sarif=${sarif}"
    echo "status=${status}"
  } >> "${GITHUB_OUTPUT}"
fi
if [ "${status}" -gt 1 ] && [ ! -s "${sarif}" ]; then
  exit "${status}"
fi
exit 0
