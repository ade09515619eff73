#!/usr/bin/env bash
# The speed table of issue 9, measured side by side in one run (ratios, since the machine is
# shared and noisy): builds `notes` in release, makes a vault with Benchmarks/make-vault.py
# (seeded, so every run measures the same files), and times each piece of work next to its anchor.
# Anchors (`rg`, `ls`, `grep`) are used only when installed. Not part of `swift test`.
#
#   Benchmarks/run.sh [SIZE]        SIZE notes (default 100000); RUNS=N repetitions (default 7)
#
# Environment: SCRATCH_PATH (swift --scratch-path), PYTHON (default python3), VAULTS (where the
# generated vaults are kept between runs; default /tmp/notes-bench), RUNS, TMPDIR (where the
# working copies go; the table's first line names its file system).
set -euo pipefail

size=${1:-100000}
runs=${RUNS:-7}
cd "$(dirname "$0")/.."
package=$PWD
python=${PYTHON:-python3}
generator=$package/Benchmarks/make-vault.py

swift_flags=(-c release)
[[ -n ${SCRATCH_PATH:-} ]] && swift_flags+=(--scratch-path "$SCRATCH_PATH")
swift build "${swift_flags[@]}" --product notes >&2
notes=$(swift build "${swift_flags[@]}" --show-bin-path)/notes

vaults=${VAULTS:-/tmp/notes-bench}
vault=$vaults/v$size
if [[ ! -f $vault.done ]]; then
    rm -rf "$vault"
    mkdir -p "$vaults"
    "$python" "$generator" --notes "$size" --seed 1 --out "$vault" --manifest "$vault.manifest" >&2
    touch "$vault.done"
fi
# Work on a copy in a throwaway home (the runs append to notes and add some), so the generated
# vault stays as generated; the copy is a plain folder, so its index lives in the cache folder.
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
export HOME=$home XDG_CACHE_HOME=$home/cache XDG_CONFIG_HOME=$home/config
unset NOTES_VAULT NOTES_CONFIG
cp -a "$vault" "$home/vault"
vault=$home/vault
vault_bytes=$(du -sb "$vault" | cut -f1)
probe=$(find "$vault" -maxdepth 1 -name '*.md' -print -quit)

# pair_ms PREPARE COMMAND... [-- ANCHOR...]: the median wall times of RUNS runs of COMMAND (each
# after PREPARE) and of ANCHOR, run in turns (command, anchor, command, …) after one warm-up of
# each, so that a machine whose load changes during the benchmark weighs on both alike. Prints
# "COMMAND_MS ANCHOR_MS" (the second empty without an anchor). A side that failed in any timed run
# prints "failed" instead (a command that fails early is fast, and its figure would mislead), and
# says so on stderr.
pair_ms() {
    local prepare=$1; shift
    local command=() anchor=() after=0
    for word in "$@"; do
        if [[ $word == -- ]]; then after=1; elif ((after)); then anchor+=("$word"); else command+=("$word"); fi
    done
    local ours=() theirs=() start end our_failures=0 their_failures=0
    # A preparation that fails is said, not fatal: under `set -e` it would end the subshell of
    # `read … < <(pair_ms …)` without a word.
    eval "$prepare" || echo "run.sh: preparing failed: $prepare" >&2
    "${command[@]}" >/dev/null 2>&1 || true
    ((${#anchor[@]})) && { "${anchor[@]}" >/dev/null 2>&1 || true; }
    for _ in $(seq "$runs"); do
        eval "$prepare" || echo "run.sh: preparing failed: $prepare" >&2
        start=$(date +%s%N); "${command[@]}" >/dev/null 2>&1 || our_failures=$((our_failures + 1)); end=$(date +%s%N)
        ours+=($(( (end - start) / 1000000 )))
        if ((${#anchor[@]})); then
            start=$(date +%s%N); "${anchor[@]}" >/dev/null 2>&1 || their_failures=$((their_failures + 1)); end=$(date +%s%N)
            theirs+=($(( (end - start) / 1000000 )))
        fi
    done
    ((our_failures)) && echo "run.sh: '${command[*]}' failed in $our_failures of $runs runs" >&2
    ((their_failures)) && echo "run.sh: '${anchor[*]}' failed in $their_failures of $runs runs" >&2
    local mine theirs_ms=""
    ((our_failures)) && mine=failed || mine=$(median "${ours[@]}")
    if ((${#theirs[@]})); then ((their_failures)) && theirs_ms=failed || theirs_ms=$(median "${theirs[@]}"); fi
    echo "$mine $theirs_ms"
}

# median_ms PREPARE COMMAND...: the median wall time of RUNS runs of COMMAND alone.
median_ms() { local prepare=$1; shift; pair_ms "$prepare" "$@" | cut -d' ' -f1; }

median() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# peak_mb COMMAND...: the peak resident set of one run, in MB.
peak_mb() {
    /usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -1 | awk '{ printf "%d", $1 / 1024 }'
}

anchor_search=(); anchor_name="—"
if command -v rg >/dev/null; then anchor_search=(rg -i -F -l crème "$vault"); anchor_name="rg -i -F -l crème"
elif command -v grep >/dev/null; then anchor_search=(grep -ril crème "$vault"); anchor_name="grep -ril crème"; fi

anchor=(); ((${#anchor_search[@]})) && anchor=(-- "${anchor_search[@]}")
"$notes" --vault "$vault" index >/dev/null 2>&1
read -r search_ms search_rg < <(pair_ms : "$notes" --vault "$vault" search crème "${anchor[@]}")
read -r list_ms ls_ms < <(pair_ms : "$notes" --vault "$vault" list --limit 20 -- sh -c "ls -t '$vault' | head -20")
read -r fresh_ms fresh_rg < <(pair_ms "rm -rf '$XDG_CACHE_HOME'" "$notes" --vault "$vault" search crème "${anchor[@]}")
"$notes" --vault "$vault" index >/dev/null 2>&1
read -r append_ms append_rg < <(pair_ms "echo appended >> '$probe'" "$notes" --vault "$vault" search crème "${anchor[@]}")
read -r add_ms add_rg < <(pair_ms "'$notes' --vault '$vault' add 'Benchmark note' >/dev/null 2>&1" \
    "$notes" --vault "$vault" search crème "${anchor[@]}")
# The same list in a copy of the vault with a 20-line `.gitignore` (issue 21): names, `*.ext`,
# folders, anchored paths and `**`, none of which ignores a note, so both list the same notes;
# the copy is the command, the vault without it the anchor.
ignored=$home/ignored
cp -a "$vault" "$ignored"
printf '%s\n' '# build output and tools' node_modules/ build/ dist/ /out 'coverage/' target/ vendor/ \
    '*.log' '!important.log' '*.swp' '*~' '*.bak' '*.tmp.md' '__pycache__/' '[Tt]emp/' 'docs/_build/' \
    '**/generated/**' '/private/*.md' 'Thumbs.db' >"$ignored/.gitignore"
"$notes" --vault "$ignored" index >/dev/null 2>&1
"$notes" --vault "$vault" index >/dev/null 2>&1
read -r ignore_ms plain_ms < <(pair_ms : "$notes" --vault "$ignored" list --limit 20 -- "$notes" --vault "$vault" list --limit 20)
rss_search=$(peak_mb "$notes" --vault "$vault" search crème)
echo appended >> "$probe"
rss_changed=$(peak_mb "$notes" --vault "$vault" search crème)
rss_list=$(peak_mb "$notes" --vault "$vault" list --limit 20)
vault_mb=$((vault_bytes / 1048576))

# The file system the working copies are on (TMPDIR), for the move row: ext4 without a journal
# checks each new inode against every one freed in the last minute (up to five), so moves that follow
# each other slow down (Benchmarks/HISTORY.md, "a sixth session").
read -r fs_type fs_source < <(findmnt -n -o FSTYPE,SOURCE --target "$home" 2>/dev/null || echo "? ?")
fs_name=$fs_type
if [[ $fs_type == ext4 && -d /proc/fs/ext4/${fs_source##*/} ]]; then
    compgen -G "/proc/fs/jbd2/${fs_source##*/}-*" >/dev/null && fs_name="ext4 with a journal" || fs_name="ext4 without a journal"
fi

# ms FIGURE: "N ms", or the word pair_ms printed instead ("failed").
ms() { [[ $1 =~ ^[0-9]+$ ]] && echo "$1 ms" || echo "$1"; }
ratio() { [[ $1 =~ ^[0-9]+$ && $2 =~ ^[0-9]+$ && $2 != 0 ]] && awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }' || echo "—"; }
echo
echo "$size notes, $vault_mb MB; median of $runs runs, each taking turns with its anchor; $(date -u +%F); $(nproc) cores; $fs_name"
echo
echo "| work | MyNotes | anchor | ratio | target |"
echo "| --- | ---: | ---: | ---: | ---: |"
echo "| \`notes search crème\`, index fresh | $(ms "$search_ms") | \`$anchor_name\` $(ms "$search_rg") | $(ratio "$search_ms" "$search_rg") | ≤ 0.5 |"
echo "| \`notes list --limit 20\`, index fresh | $(ms "$list_ms") | \`ls -t \| head -20\` $(ms "$ls_ms") | $(ratio "$list_ms" "$ls_ms") | ≤ 1.0 |"
echo "| \`notes list --limit 20\` with a 20-line \`.gitignore\` | $(ms "$ignore_ms") | without it $(ms "$plain_ms") | $(ratio "$ignore_ms" "$plain_ms") | ≤ 1.1 |"
echo "| \`notes search crème\`, no index yet | $(ms "$fresh_ms") | $(ms "$fresh_rg") | $(ratio "$fresh_ms" "$fresh_rg") | ≤ 3 |"
echo "| append a line to one note, then search | $(ms "$append_ms") | $(ms "$append_rg") | $(ratio "$append_ms" "$append_rg") | ≤ 0.6 |"
echo "| one \`notes add\`, then search | $(ms "$add_ms") | $(ms "$add_rg") | $(ratio "$add_ms" "$add_rg") | ≤ 0.6 |"
echo "| peak RSS, \`search\`, index fresh | $rss_search MB | vault $vault_mb MB | $(ratio "$rss_search" "$vault_mb")× | ≤ 1.2× |"
echo "| peak RSS, \`search\` after one changed note | $rss_changed MB | vault | $(ratio "$rss_changed" "$vault_mb")× | ≤ 1.2× |"
echo "| peak RSS, \`list --limit 20\` | $rss_list MB | vault | $(ratio "$rss_list" "$vault_mb")× | ≤ 0.25× |"

# The browser (issue 10): how long a keystroke takes to re-filter and draw, replayed without a
# terminal (`notes browse --replay KEYS --timing`), index fresh; its own block, after the table.
browse_keys='creme brulee<BS><BS><BS><BS><BS><BS><BS><C-u>meeting notes<C-w><C-w>tokyo<Down><Down><PgDn><End><Home><C-u>the quick<C-u>東京 旅行<Esc>'
"$notes" --vault "$vault" index >/dev/null 2>&1
"$notes" --vault "$vault" browse --replay "$browse_keys" --timing >/dev/null 2>&1
browse=$("$notes" --vault "$vault" browse --replay "$browse_keys" --timing 2>/dev/null | tail -1)
echo "| browser keystroke, re-filter and draw (${browse%%:*}) | ${browse#*: } | — | — | ≤ 50 ms |"

# Tags, links and moves (issue 12), on a vault of the same size made with --tags-links (tags in
# front matter and text, links between notes, a hub note linked from 1,000 others), index fresh;
# each beside `ls -t` of that vault. Its own block, after the browser's.
tl_source=$vaults/tl$size
if [[ ! -f $tl_source.done ]]; then
    rm -rf "$tl_source"
    "$python" "$generator" --notes "$size" --seed 1 --tags-links --out "$tl_source" --manifest "$tl_source.manifest" >&2
    touch "$tl_source.done"
fi
cp -a "$tl_source" "$home/tl"
tl=$home/tl
manifest_field() { "$python" -c 'import json, sys; print(json.load(open(sys.argv[1]))["tags_links"][sys.argv[2]])' "$tl_source.manifest" "$1"; }
hub=$(manifest_field hub); hub_links=$(manifest_field hub_backlinks); tag=$(manifest_field common_tag)
"$notes" --vault "$tl" index >/dev/null 2>&1
tl_ls_ms=$(median_ms : sh -c "ls -t '$tl' | head -20")
tags_ms=$(median_ms : "$notes" --vault "$tl" tags)
tag_limit_ms=$(median_ms : "$notes" --vault "$tl" list --tag "$tag" --limit 20)
tag_all_ms=$(median_ms : "$notes" --vault "$tl" list --tag "$tag")
tagged=$("$notes" --vault "$tl" list --tag "$tag" 2>/dev/null | wc -l)
backlinks_ms=$(median_ms : "$notes" --vault "$tl" backlinks "$hub")
backlinks=$("$notes" --vault "$tl" backlinks "$hub" 2>/dev/null | wc -l)
# The filters (issue 24): a date span, and the notes no other note links to (every link resolved).
since_ms=$(median_ms : "$notes" --vault "$tl" list --since 7d --limit 20)
orphan_ms=$(median_ms : "$notes" --vault "$tl" list --orphan --limit 20)
orphans=$("$notes" --vault "$tl" list --orphan 2>/dev/null | wc -l)
# The first `--orphan` after a change resolves every link again (what it works out is kept
# beside the index for the index as it is): a line appended to one note before each run.
tl_probe=$(find "$tl" -maxdepth 1 -name '*.md' -print -quit)
orphan_changed_ms=$(median_ms "echo appended >> '$tl_probe'" "$notes" --vault "$tl" list --orphan --limit 20)
# Each move starts from the hub at its place and the index fresh (moving it back, then `index`).
move_back="[[ -f '$tl/moved-hub.md' ]] && '$notes' --vault '$tl' move moved-hub '$hub' >/dev/null 2>&1; '$notes' --vault '$tl' index >/dev/null 2>&1"
move_ms=$(median_ms "$move_back" "$notes" --vault "$tl" move "$hub" moved-hub)
dry_ms=$(median_ms "$move_back" "$notes" --vault "$tl" move --dry-run "$hub" moved-hub)
echo
echo "| tags and links, index fresh | MyNotes | anchor | ratio | target |"
echo "| --- | ---: | ---: | ---: | ---: |"
echo "| \`notes tags\` | $(ms "$tags_ms") | \`ls -t \| head -20\` $(ms "$tl_ls_ms") | $(ratio "$tags_ms" "$tl_ls_ms") | ≤ 1.0 |"
echo "| \`notes list --tag $tag --limit 20\` | $(ms "$tag_limit_ms") | $(ms "$tl_ls_ms") | $(ratio "$tag_limit_ms" "$tl_ls_ms") | ≤ 1.0 |"
echo "| \`notes list --tag $tag\` ($tagged notes) | $(ms "$tag_all_ms") | $(ms "$tl_ls_ms") | $(ratio "$tag_all_ms" "$tl_ls_ms") | ≤ 1.0 |"
echo "| \`notes backlinks\` of the hub ($backlinks links) | $(ms "$backlinks_ms") | $(ms "$tl_ls_ms") | $(ratio "$backlinks_ms" "$tl_ls_ms") | ≤ 1.0 |"
echo "| \`notes list --since 7d --limit 20\` | $(ms "$since_ms") | $(ms "$tl_ls_ms") | $(ratio "$since_ms" "$tl_ls_ms") | ≤ 1.0 |"
echo "| \`notes list --orphan --limit 20\` ($orphans orphans) | $(ms "$orphan_ms") | $(ms "$tl_ls_ms") | $(ratio "$orphan_ms" "$tl_ls_ms") | ≤ 1.0 |"
echo "| the same, one note changed before each run | $(ms "$orphan_changed_ms") | $(ms "$tl_ls_ms") | $(ratio "$orphan_changed_ms" "$tl_ls_ms") | — |"
echo "| \`notes move\` of the hub (linked from $hub_links notes) | $(ms "$move_ms") | — | — | well under 1 s |"
echo "| the same with \`--dry-run\` | $(ms "$dry_ms") | — | — | — |"

# Import: `notes import keep` of a generated Takeout Keep folder of 10,000 notes
# (Benchmarks/make-keep.py; some with a picture) into an empty vault, beside the floor of writing
# the same files durably: `cp -r` of the folder the import made, then `sync`. Needs a build with
# the keep format.
keep_notes=10000
keep_source=$vaults/keep$keep_notes
if [[ ! -f $keep_source.done ]]; then
    rm -rf "$keep_source"
    "$python" "$package/Benchmarks/make-keep.py" --notes "$keep_notes" --seed 1 --out "$keep_source" >&2
    touch "$keep_source.done"
fi
echo
if "$notes" import --help 2>/dev/null | grep -q 'keep'; then
    # Each run imports into a folder of its own, as the anchor copies into one: neither follows a
    # deletion. (On an ext4 without a journal, such as the development machine's, making files right
    # after deleting 10,000 others took 3 to 10 times as long: each new inode is checked against those
    # recently deleted.)
    imports=$home/imports
    copies=$home/copies
    mkdir -p "$imports" "$copies"
    imported=$imports/first
    mkdir -p "$imported"
    if ! import_error=$("$notes" --vault "$imported" import keep "$keep_source" 2>&1 >/dev/null); then
        echo "run.sh: notes import keep failed: ${import_error##*$'\n'}" >&2
    fi
    kept=$(find "$imported" -name '*.md' | wc -l)
    read -r import_ms copy_ms < <(pair_ms : \
        sh -c "d=\$(mktemp -d -p '$imports') && '$notes' --vault \"\$d\" import keep '$keep_source'" \
        -- sh -c "d=\$(mktemp -d -p '$copies') && cp -r '$imported/.' \"\$d\" && sync")
    echo "| import | MyNotes | anchor | ratio | target |"
    echo "| --- | ---: | ---: | ---: | ---: |"
    echo "| \`notes import keep\`, $keep_notes Takeout notes ($kept imported) | $(ms "$import_ms") | \`cp -r\` of the result + \`sync\` $(ms "$copy_ms") | $(ratio "$import_ms" "$copy_ms") | ≤ 3 |"
else
    echo "(import keep: this build has no keep format; the row needs it)"
fi

# The language server's rows, in a block of their own (Benchmarks/lsp.sh, which can run alone).
"$package/Benchmarks/lsp.sh" "$size"
