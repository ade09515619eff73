#!/usr/bin/env bash
# Runs the benchmarks of MyNotes (not part of `swift test`):
#   1. fold-bench: NotesKit folding and matching next to Foundation, in MB/s (release build);
#   2. when python3 and ../shared/bench are there: `notes search` on a generated vault, timed
#      next to `rg -i` and `grep -ri` when present, with the number of notes each one finds and
#      whether `notes` agrees with ../shared/bench/ref-search.py.
#
#   Benchmarks/run-benchmarks.sh [--notes N] [--reps N] [--fold-only] [-- FOLD-BENCH-ARGS...]
#
# Environment: SCRATCH_PATH (passed to swift as --scratch-path, to keep off another build's
# .build folder), PYTHON (default python3).
set -euo pipefail

notes_count=10000
reps=5
fold_only=0
fold_args=()
while [[ $# -gt 0 ]]; do
    case $1 in
        --notes) notes_count=$2; shift 2 ;;
        --reps) reps=$2; shift 2 ;;
        --fold-only) fold_only=1; shift ;;
        --) shift; fold_args=("$@"); break ;;
        -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "run-benchmarks.sh: unknown argument '$1' (see --help)" >&2; exit 64 ;;
    esac
done

cd "$(dirname "$0")/.."
package=$PWD
swift_flags=(-c release)
if [[ -n ${SCRATCH_PATH:-} ]]; then swift_flags+=(--scratch-path "$SCRATCH_PATH"); fi

echo "== fold-bench (swift run ${swift_flags[*]} fold-bench ${fold_args[*]:-})"
swift run "${swift_flags[@]}" fold-bench "${fold_args[@]}"
[[ $fold_only == 1 ]] && exit 0

python=${PYTHON:-python3}
bench=$package/../shared/bench
if ! command -v "$python" >/dev/null || [[ ! -f $bench/ref-search.py ]]; then
    echo "== search benchmark skipped: needs $python and $bench/ref-search.py"
    exit 0
fi

swift build "${swift_flags[@]}" --product notes >/dev/null
notes=$(swift build "${swift_flags[@]}" --show-bin-path)/notes

work=$(mktemp -d "${TMPDIR:-/tmp}/notes-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
vault=$work/vault
"$python" "$package/Benchmarks/make-vault.py" --notes "$notes_count" --out "$vault" --seed 1 \
    --manifest "$work/manifest.json" --needle "Crème Brûlée" --needle-count 25 --decoys 6
mkdir -p "$work/home" "$vault/.notes"
export TZ=UTC HOME=$work/home XDG_CONFIG_HOME=$work/home NOTES_VAULT=$vault
bytes=$(find "$vault" -name "*.md" -type f -exec cat {} + | wc -c | tr -d " ")

# Nanoseconds since the epoch: bash 5 has EPOCHREALTIME; GNU date has %N.
now_ns() {
    if [[ -n ${EPOCHREALTIME:-} ]]; then local t=${EPOCHREALTIME/[.,]/}; echo "${t}000"; else date +%s%N; fi
}

# best_ms N CMD...: the best wall time of N runs of CMD, in milliseconds (output discarded).
best_ms() {
    local n=$1 best=0 start elapsed
    shift
    for ((i = 0; i < n; i++)); do
        start=$(now_ns)
        "$@" >/dev/null 2>&1 || true
        elapsed=$(( ($(now_ns) - start) / 1000 ))
        if (( i == 0 || elapsed < best )); then best=$elapsed; fi
    done
    printf '%d.%03d' $((best / 1000)) $((best % 1000))
}

# row NAME CMD...: one line of the table: the first run, the best of the next $reps runs, the
# throughput over the vault's bytes, and how many lines (notes or files) CMD prints.
row() {
    local name=$1
    shift
    local first hits best mbs
    first=$(best_ms 1 "$@")
    hits=$("$@" 2>/dev/null | wc -l | tr -d ' ')
    best=$(best_ms "$reps" "$@")
    mbs=$(awk -v b="$bytes" -v ms="$best" \
        'BEGIN { if (ms > 0) printf "%.0f", b / 1e6 / (ms / 1000); else print "-" }')
    printf '%-46s %9s %9s %7s %6s\n' "$name" "$first" "$best" "$mbs" "$hits"
}

echo
echo "== search: $notes_count notes, $((bytes / 1000)) kB (needle 'Crème Brûlée' planted in 25 notes"
echo "   in varied case/accent/NFD spellings; <accented needle> is 'Crème Brûlée', <one CJK term>"
echo "   is '東京'; best of $reps after a first run; hits = lines printed: notes or files)"
printf '%-46s %9s %9s %7s %6s\n' "command" "first ms" "best ms" "MB/s" "hits"
row "notes search '\"creme brulee\"' (phrase)" "$notes" search '"creme brulee"'
row "notes search <accented needle, 2 terms>" "$notes" search 'Crème Brûlée'
row "notes search <one CJK term>" "$notes" search '東京'
row "notes list" "$notes" list
if command -v rg >/dev/null; then
    row "rg -i -l <accented needle> (case only)" rg -i -l 'crème brûlée' "$vault"
fi
row "grep -ril <accented needle> (case only)" grep -ril 'crème brûlée' "$vault"
row "LC_ALL=C grep -ril 'creme brulee' (ASCII)" env LC_ALL=C grep -ril 'creme brulee' "$vault"
row "ref-search.py '\"creme brulee\"' (yardstick)" "$python" "$bench/ref-search.py" "$vault" '"creme brulee"'

ours=$("$notes" search '"creme brulee"' | cut -f1)
theirs=$("$python" "$bench/ref-search.py" "$vault" '"creme brulee"')
if [[ $ours == "$theirs" ]]; then
    echo "notes and ref-search.py agree (same IDs, same order)"
else
    echo "notes and ref-search.py DISAGREE:"
    diff <(echo "$ours") <(echo "$theirs") || true
fi
