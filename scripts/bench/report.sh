#!/usr/bin/env bash
# The HTML report's size and how long Chromium takes to open it, for 10,000 launches (simulate's
# report: the same renderer as probe's). Needs a build (cargo build --release) and chromium.
# Prints: the file sizes, the launch marks drawn (and the launches they stand for), then per run
# the time from navigation to the second frame after `load` (measured in the page by a copy with
# a one-line script; the report itself has none) for a blank page and both reports.
case "${1:-}" in -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;; esac
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${BIN:-target/release/mcpl-doctor}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$bin" simulate --preset handshake --interval 100ms --server dies-after=0 --attempts 10000 --seed 1 \
    --report "$dir/a.html" --svg "$dir/a.svg" >/dev/null
"$bin" simulate --preset lasting --interval 100ms --server lives=50ms,2s --attempts 10000 --seed 1 \
    --report "$dir/b.html" >/dev/null
echo '<!DOCTYPE html><html><body><p>blank</p></body></html>' >"$dir/blank.html"
ls -l "$dir"/a.html "$dir"/a.svg "$dir"/b.html | awk '{print $5, $NF}'
python3 - "$dir" <<'PY'
import re, sys
d = sys.argv[1]
for f in ["a.html", "b.html"]:
    s = open(f"{d}/{f}").read()
    marks = re.findall(r'data-mark="(\d+)"', s)
    print(f, "launch marks:", len(marks), "standing for", sum(map(int, marks)), "launches")
    s = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", s)
    s = s.replace("</body>", '<script>addEventListener("load",()=>requestAnimationFrame(()=>'
                  'requestAnimationFrame(()=>console.log("LOADMS "+performance.now().toFixed(0)))))'
                  "</script></body>")
    open(f"{d}/t-{f}", "w").write(s)
s = open(f"{d}/blank.html").read().replace("</body>", '<script>addEventListener("load",()=>'
    'requestAnimationFrame(()=>requestAnimationFrame(()=>console.log("LOADMS "+'
    'performance.now().toFixed(0)))))</script></body>')
open(f"{d}/t-blank.html", "w").write(s)
PY
for run in 1 2 3; do
    for f in blank a b; do
        rm -rf "$dir/profile"
        ms=$(chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
            --disable-background-networking --disable-component-update --disable-sync \
            --hide-scrollbars --window-size=1100,1400 --enable-logging=stderr --v=0 \
            --user-data-dir="$dir/profile" --screenshot="$dir/shot.png" "file://$dir/t-$f.html" 2>&1 |
            grep -o 'LOADMS [0-9]*' | cut -d' ' -f2)
        echo "run $run: $f.html opened in $ms ms"
    done
done
