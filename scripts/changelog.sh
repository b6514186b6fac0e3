#!/usr/bin/env bash
# Turn the fragments in changelog.d/ into a release section of CHANGELOG.md.
#
#   scripts/changelog.sh --print VERSION [DATE]   print the section, change nothing
#   scripts/changelog.sh VERSION [DATE]           add it at the top of CHANGELOG.md and delete
#                                                 the fragments (commit both)
#
# Fragments are named <issue>-<slug>.<added|changed|fixed|removed|breaking>.md (see
# changelog.d/README.md); a fragment with another name stops the script before it changes
# anything. DATE defaults to today (UTC).
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
    cat <<'USAGE'
usage: scripts/changelog.sh [--print] VERSION [DATE]

Turns the fragments in changelog.d/ into a release section of CHANGELOG.md.
  --print       print the section and change nothing
  VERSION       the release's semantic version, e.g. 0.2.0 (a leading v is refused)
  DATE          YYYY-MM-DD, default today (UTC)
Without --print it writes CHANGELOG.md and deletes the fragments (commit both).
  -h, --help    this text
USAGE
}

print_only=false
case "${1:-}" in
    -h | --help) usage; exit 0 ;;
    --print) print_only=true; shift ;;
esac
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    usage >&2
    exit 2
fi
version=$1
date=${2:-$(date -u +%Y-%m-%d)}
# Semantic versioning 2.0.0: MAJOR.MINOR.PATCH, optional -prerelease and +build.
semver='^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$'
if ! [[ $version =~ $semver ]]; then
    echo "error: \"$version\" is not a semantic version (e.g. 0.2.0); nothing was changed (-h for usage)" >&2
    exit 2
fi
if ! [[ $date =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}$ ]]; then
    echo "error: \"$date\" is not a date (YYYY-MM-DD); nothing was changed" >&2
    exit 2
fi

name_rule='^[0-9]+-[a-z0-9]+(-[a-z0-9]+)*\.(added|changed|fixed|removed|breaking)\.md$'
fragments=()
for path in changelog.d/*.md; do
    name=$(basename "$path")
    [ "$name" = README.md ] && continue
    if ! [[ $name =~ $name_rule ]]; then
        echo "error: changelog.d/$name does not follow <issue>-<slug>.<added|changed|fixed|removed|breaking>.md" >&2
        exit 2
    fi
    fragments+=("$path")
done
if [ ${#fragments[@]} -eq 0 ]; then
    echo "error: no fragments in changelog.d/" >&2
    exit 2
fi

section() {
    printf '## %s (%s)\n' "$version" "$date"
    for kind in breaking added changed fixed removed; do
        local title
        case $kind in
            breaking) title="Breaking changes" ;;
            added) title="Added" ;;
            changed) title="Changed" ;;
            fixed) title="Fixed" ;;
            removed) title="Removed" ;;
        esac
        local first=true
        # Sorted by issue number, then name.
        while IFS= read -r path; do
            [ -n "$path" ] || continue
            if $first; then printf '\n### %s\n\n' "$title"; first=false; fi
            local issue
            issue=$(basename "$path" | cut -d- -f1)
            # One bullet per fragment: its lines joined, continuation lines indented.
            awk -v issue="$issue" '
                NF == 0 { next }
                { sub(/[ \t]+$/, ""); lines[n++] = $0 }
                END {
                    for (i = 0; i < n; i++) {
                        text = lines[i]
                        if (i == n - 1) text = text " (issue " issue ")"
                        print (i == 0 ? "- " : "  ") text
                    }
                }' "$path"
        done < <(printf '%s\n' "${fragments[@]}" | grep "\.$kind\.md$" | sort -V)
    done
}

if $print_only; then
    section
    exit 0
fi

new=$(mktemp)
trap 'rm -f "$new"' EXIT
{
    echo "# Changelog"
    echo
    section
    if [ -f CHANGELOG.md ]; then
        echo
        # Everything after the old title.
        sed '1{/^# Changelog$/d}' CHANGELOG.md | sed '1{/^$/d}'
    fi
} > "$new"
mv "$new" CHANGELOG.md
trap - EXIT
rm -- "${fragments[@]}"
echo "CHANGELOG.md: added $version ($date) from ${#fragments[@]} fragments; the fragments are deleted: commit both" >&2
