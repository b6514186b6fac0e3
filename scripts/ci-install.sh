#!/usr/bin/env bash
# Put a released mcpl-doctor on PATH for the composite action (action.yml), without compiling:
# downloads mcpl-doctor-VERSION-TARGET.tar.gz and its .sha256 from the repository's releases,
# checks the checksum, and unpacks the binary into INSTALL_DIR.
#
# Environment:
#   INPUT_VERSION   a released version (0.2.0), or "latest" (default)
#   RELEASE_BASE    where releases live (default https://github.com/$GITHUB_ACTION_REPOSITORY/releases);
#                   a file:// folder holding the archives works too (the tests use one)
#   TARGET          the target triple to fetch (default: this runner's, musl on Linux)
#   INSTALL_DIR     where the binary goes (default $RUNNER_TEMP/mcpl-doctor/bin, else ~/.local/bin);
#                   appended to $GITHUB_PATH when set
# Exits 2 when the release or its checksum cannot be had or does not match.
case "${1:-}" in -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;; esac
set -euo pipefail

version=${INPUT_VERSION:-latest}
base=${RELEASE_BASE:-https://github.com/${GITHUB_ACTION_REPOSITORY:-}/releases}
dir=${INSTALL_DIR:-${RUNNER_TEMP:-$HOME/.local}/mcpl-doctor/bin}

# TARGET overrides the triple (for a glibc build, or the tests).
case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) target=x86_64-unknown-linux-musl ;;
    Linux-aarch64 | Linux-arm64) target=aarch64-unknown-linux-musl ;;
    Darwin-x86_64) target=x86_64-apple-darwin ;;
    Darwin-arm64) target=aarch64-apple-darwin ;;
    *) target="" ;;
esac
target=${TARGET:-$target}
if [ -z "$target" ]; then
    echo "error: no release binary for $(uname -s) $(uname -m); set compile: true" >&2
    exit 2
fi

if [ "$version" = latest ]; then
    # The latest release's tag, from where GitHub redirects /releases/latest.
    tag=$(curl -fsSI "$base/latest" | sed -n 's|^[Ll]ocation: .*/tag/\(v[^[:space:]]*\).*|\1|p' | tail -1)
    if [ -z "$tag" ]; then
        echo "error: could not find the latest release at $base/latest" >&2
        exit 2
    fi
    version=${tag#v}
fi
name="mcpl-doctor-$version-$target"
case "$base" in
    file://*) url="$base/$name.tar.gz" ;;
    *) url="$base/download/v$version/$name.tar.gz" ;;
esac

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if ! curl -fsSL -o "$work/$name.tar.gz" "$url" || ! curl -fsSL -o "$work/$name.tar.gz.sha256" "$url.sha256"; then
    echo "error: could not download $url (and its .sha256)" >&2
    exit 2
fi
sha256check() { if command -v sha256sum >/dev/null 2>&1; then sha256sum -c --quiet "$@"; else shasum -a 256 -c --quiet "$@"; fi; }
if ! (cd "$work" && sha256check "$name.tar.gz.sha256"); then
    echo "error: $name.tar.gz does not match its published checksum" >&2
    exit 2
fi
tar -xzf "$work/$name.tar.gz" -C "$work"
mkdir -p "$dir"
install -m 0755 "$work/$name/mcpl-doctor" "$dir/mcpl-doctor"
if [ -n "${GITHUB_PATH:-}" ]; then
    echo "$dir" >> "$GITHUB_PATH"
fi
echo "mcpl-doctor $version ($target) installed in $dir" >&2
