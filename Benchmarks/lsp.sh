#!/usr/bin/env bash
# The language server's rows (`notes lsp`), on the vault made with --tags-links (a hub note
# linked from 1,000 others), index fresh: Benchmarks/lsp-bench.py starts the release server and
# speaks framed JSON-RPC to it as an editor would. Run by Benchmarks/run.sh after its tables, or
# alone. Not part of `swift test`.
#
#   Benchmarks/lsp.sh [SIZE]        SIZE notes (default 100000)
#
# Environment: as run.sh (SCRATCH_PATH, PYTHON, VAULTS), plus LSP_RUNS (requests per median,
# default 21) and IDLE (seconds of the idle-CPU row, default 60; shorter for a quick run).
set -euo pipefail

size=${1:-100000}
cd "$(dirname "$0")/.."
package=$PWD
python=${PYTHON:-python3}
generator=$package/Benchmarks/make-vault.py

swift_flags=(-c release)
[[ -n ${SCRATCH_PATH:-} ]] && swift_flags+=(--scratch-path "$SCRATCH_PATH")
swift build "${swift_flags[@]}" --product notes >&2
notes=$(swift build "${swift_flags[@]}" --show-bin-path)/notes

vaults=${VAULTS:-/tmp/notes-bench}
source=$vaults/tl$size
if [[ ! -f $source.done ]]; then
    rm -rf "$source"
    mkdir -p "$vaults"
    "$python" "$generator" --notes "$size" --seed 1 --tags-links --out "$source" --manifest "$source.manifest" >&2
    touch "$source.done"
fi
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
export HOME=$home XDG_CACHE_HOME=$home/cache XDG_CONFIG_HOME=$home/config
unset NOTES_VAULT NOTES_CONFIG
cp -a "$source" "$home/tl"
tl=$home/tl
hub=$("$python" -c 'import json, sys; print(json.load(open(sys.argv[1]))["tags_links"]["hub"])' "$source.manifest")
"$notes" --vault "$tl" index >/dev/null 2>&1
# The vault's bytes (its index is in the cache folder, outside it).
vault_bytes=$(du -sb "$tl" | cut -f1)
idle=${IDLE:-60}
lsp=$("$python" "$package/Benchmarks/lsp-bench.py" "$notes" "$tl" "$hub" --runs "${LSP_RUNS:-21}" --idle "$idle")
field() { awk -v k="$1" '$1 == k { print $2 }' <<<"$lsp"; }
ms() { local v; v=$(field "$1"); [[ $v == n/a ]] && echo "n/a" || echo "$v ms"; }
rss_mb=$(( $(field rss_kb) / 1024 ))
vault_mb=$((vault_bytes / 1048576))
rss_ratio=$(awk -v a="$(field rss_kb)" -v b="$vault_bytes" 'BEGIN { printf "%.2f", a * 1024 / b }')

echo
echo "| language server, $size notes ($vault_mb MB), index fresh | MyNotes | target |"
echo "| --- | ---: | ---: |"
echo "| \`initialize\` answered, from the process's start | $(ms initialize) | ≤ 300 ms |"
echo "| first request answered (the catalog read) | $(ms first) | — |"
echo "| completion after \`[[\` and three letters (median) | $(ms completion) | ≤ 30 ms |"
echo "| definition (median) | $(ms definition) | ≤ 10 ms |"
echo "| hover (median) | $(ms hover) | ≤ 10 ms |"
echo "| references of the hub ($(field references_count) links) (median) | $(ms references) | ≤ 50 ms |"
echo "| diagnostics of a note with $(field diagnostics_links) links, change to notification (median) | $(ms diagnostics) | ≤ 50 ms |"
echo "| server RSS | $rss_mb MB (${rss_ratio}× the vault) | ≤ 0.5× |"
echo "| idle CPU over $(field idle_seconds) s | $(field idle_cpu) % of a core | ≤ 1 % |"
