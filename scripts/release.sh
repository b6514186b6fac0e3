#!/usr/bin/env bash
# Package a release archive of mcpl-doctor for one target, with its checksum:
#   dist/mcpl-doctor-VERSION-TARGET.tar.gz         the archive, one top folder of the same name:
#       mcpl-doctor  README.md  LICENSE  completions/  man/
#   dist/mcpl-doctor-VERSION-TARGET.tar.gz.sha256  `sha256sum` format
#
# Usage: scripts/release.sh [--target TRIPLE] [--binary PATH] [--out DIR] VERSION
#   --target  the Rust target triple (default: this machine's, from `rustc -vV`)
#   --binary  package this binary instead of building one (the tests use their own build)
#   --out     where to write (default: dist/)
# Without --binary it builds `cargo build --locked --profile release-lto --target TRIPLE`
# ($CARGO_BUILD, e.g. "cargo zigbuild", replaces "cargo build" for cross builds).
# VERSION must be the version in Cargo.toml (a tag v0.2.0 releases 0.2.0).
# The release workflow (.github/workflows/release.yml) runs this for every target on a tag.
case "${1:-}" in -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;; esac
set -euo pipefail
cd "$(dirname "$0")/.."

target=""
binary=""
out="dist"
while [ $# -gt 1 ]; do
    case "$1" in
        --target) target=$2; shift 2 ;;
        --binary) binary=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        *) echo "error: unknown option $1 (-h for usage)" >&2; exit 2 ;;
    esac
done
if [ $# -ne 1 ]; then
    echo "error: give the VERSION to package (-h for usage)" >&2
    exit 2
fi
version=$1
crate_version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -1)
if [ "$version" != "$crate_version" ]; then
    echo "error: VERSION $version is not Cargo.toml's version ($crate_version)" >&2
    exit 2
fi
if [ -z "$target" ]; then
    target=$(rustc -vV | sed -n 's/^host: //p')
fi
# A target triple is words of letters, digits, `_` and `.` joined by `-` (x86_64-unknown-linux-gnu):
# no `/`, no `..`, so the names made from it stay in their folders.
if ! [[ "$target" =~ ^[A-Za-z0-9_]+(-[A-Za-z0-9_.]+)+$ ]] || [[ "$target" == *..* ]]; then
    echo "error: --target $target is not a target triple (such as x86_64-unknown-linux-gnu)" >&2
    exit 2
fi

if [ -z "$binary" ]; then
    ${CARGO_BUILD:-cargo build} --locked --profile release-lto --target "$target"
    binary="target/$target/release-lto/mcpl-doctor"
fi
if [ ! -x "$binary" ]; then
    echo "error: $binary is not an executable file" >&2
    exit 2
fi

name="mcpl-doctor-$version-$target"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/$name/completions" "$stage/$name/man"
cp "$binary" "$stage/$name/mcpl-doctor"
cp README.md LICENSE "$stage/$name/"
cp completions/* "$stage/$name/completions/"
cp man/*.1 "$stage/$name/man/"
mkdir -p "$out"
# Every file is written under a new name mktemp made (created exclusively: a link planted at a
# name cannot be written through), then renamed into place; a link at the final name is
# replaced, never followed (a link to a folder would make `mv` move the file into it).
tmp=$(mktemp "$out/.$name.tar.gz.XXXXXX")
sum_tmp=$(mktemp "$out/.$name.tar.gz.sha256.XXXXXX")
trap 'rm -rf "$stage"; rm -f "$tmp" "$sum_tmp"' EXIT
place() {
    if [ -d "$2" ] && [ ! -L "$2" ]; then
        echo "error: $2 is a folder" >&2
        exit 2
    fi
    if [ -L "$2" ]; then rm -f "$2"; fi
    mv -f "$1" "$2"
}
# Reproducible: sorted names, fixed owner and times (the commit's time when in git).
mtime=$(git log -1 --format=%ct 2>/dev/null || echo 0)
# GNU tar for the reproducible flags (macOS runners have it as gtar).
tar_cmd=$(command -v gtar || command -v tar)
"$tar_cmd" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$mtime" \
    -C "$stage" -czf "$tmp" "$name"
chmod 644 "$tmp"
place "$tmp" "$out/$name.tar.gz"
sha256() { if command -v sha256sum >/dev/null 2>&1; then sha256sum "$@"; else shasum -a 256 "$@"; fi; }
(cd "$out" && sha256 "$name.tar.gz") > "$sum_tmp"
chmod 644 "$sum_tmp"
place "$sum_tmp" "$out/$name.tar.gz.sha256"
echo "$out/$name.tar.gz"
