#!/usr/bin/env bash
# Builds the libFuzzer binary of the fuzz targets and runs one of them (Tests/Fuzz/README.md).
#
#   Tests/Fuzz/fuzz.sh TARGET [libFuzzer options…]
#   Tests/Fuzz/fuzz.sh frontmatter -max_total_time=600
#   Tests/Fuzz/fuzz.sh index -jobs=2 -workers=2 -max_total_time=600
#   Tests/Fuzz/fuzz.sh fold crash-…            # replay a crash file
#
# TARGET: frontmatter, dates, fold, query, index, args. The corpus grows in .build/fuzz/corpus/TARGET
# (seeded with 200 generated inputs when empty); crashes are written to the current folder.
# NOTES_FUZZ_SANITIZE overrides the sanitizers (default fuzzer,address). Nothing here touches the
# package build: `swift build` and `swift test` never see these flags.
set -euo pipefail
cd "$(dirname "$0")/../.."

target=${1:?"usage: $0 frontmatter|dates|fold|query|index|args [libFuzzer options…]"}
shift
out=.build/fuzz
sanitize=${NOTES_FUZZ_SANITIZE:-fuzzer,address}
mkdir -p "$out/corpus/$target"

kit_sources=$(find Sources/NotesKit -name '*.swift' | sort)
cli_sources=$(find Sources/notes -name '*.swift' ! -name main.swift | sort)
support_sources=Tests/TestSupport/SplitMix.swift
fuzz_sources="Tests/Fuzz/FuzzMain.swift $(find Tests/NotesKitTests/Fuzz Tests/notesTests/Fuzz -name '*.swift' | sort)"
flags=(-sanitize="$sanitize" -O -g -swift-version 6 -parse-as-library -enable-testing -module-cache-path "$out/cache")

# Rebuilt when a source is newer than the binary (or the sanitizers changed).
stamp="$out/notes-fuzz.$sanitize"
if [[ ! -x "$stamp" ]] || [[ -n "$(find Sources Tests/Fuzz Tests/NotesKitTests/Fuzz Tests/notesTests/Fuzz $support_sources -name '*.swift' -newer "$stamp" | head -1)" ]]; then
    echo "== building the fuzz targets ($sanitize) in $out" >&2
    # shellcheck disable=SC2086
    swiftc "${flags[@]}" -module-name NotesKit -wmo -emit-module -emit-module-path "$out/NotesKit.swiftmodule" \
        -c -o "$out/NotesKit.o" $kit_sources
    # shellcheck disable=SC2086
    swiftc "${flags[@]}" -module-name notes -wmo -I "$out" -emit-module -emit-module-path "$out/notes.swiftmodule" \
        -c -o "$out/notes.o" $cli_sources
    # The fuzz files use the tests' one seeded generator, which stands alone in its file.
    swiftc "${flags[@]}" -module-name TestSupport -wmo -emit-module -emit-module-path "$out/TestSupport.swiftmodule" \
        -c -o "$out/TestSupport.o" $support_sources
    # shellcheck disable=SC2086
    # (gold warns about every sanitizer helper it cannot export: noise.)
    swiftc "${flags[@]}" -module-name NotesFuzz -I "$out" $fuzz_sources "$out/NotesKit.o" "$out/notes.o" "$out/TestSupport.o" -o "$stamp" \
        2> >(grep -v "Cannot export local symbol" >&2)
fi

# Files named on the command line are inputs to replay; else the target's corpus is fuzzed.
corpus=("$out/corpus/$target")
for argument in "$@"; do
    if [[ "$argument" != -* && -f "$argument" ]]; then corpus=(); fi
done
NOTES_FUZZ_TARGET="$target" exec "$stamp" -dict=Tests/Fuzz/notes.dict "$@" "${corpus[@]}"
