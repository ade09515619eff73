// fold-bench: how fast NotesKit folds and matches text, next to what Foundation offers.
//
//   swift run -c release fold-bench [--mb N] [--reps N] [FILE]
//
// Builds a deterministic mixed-script text (or reads FILE), then times, in one run so that the
// ratios hold on a noisy machine, the best of N repetitions of:
//   * TextFolder.foldedBytes over the whole text (search folding),
//   * TextFolding.contains of a folded needle in the already-folded bytes,
//   * both together (what a search does per note),
//   * String.localizedStandardContains of the needle, over the whole text and line by line,
//   * Foundation's folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).
// The same runs on a pure-ASCII text of the same size, and on a text in scripts whose marks are
// part of the letter (Thai, Indic, kana, Hangul, some of it decomposed). The needle sits only on
// the last line, in another case and accent spelling, so every method has to read everything and
// must find it. It starts with "e", the commonest letter, so the memchr-based matcher cannot skip
// ahead cheaply.

import Foundation
import NotesKit

/// A small, fast, deterministic random number generator (SplitMix64).
struct SplitMix64 {
    var state: UInt64

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// A random element of a non-empty array.
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}

/// Deterministic text: Latin prose with accented words, and (for `mixed`) lines in other scripts.
enum Corpus {
    static let english = """
        the of and to in is it you that was for on are with as his they be at one have this from \
        or had by word but what some we can out other were all there when up use your how said an \
        each she which do their time if will way about many then them write would like so these \
        meeting server latency deploy release budget invoice agenda review sprint backlog design \
        notes vault search index cache query folder garden coffee recipe travel music river \
        mountain city morning evening project draft idea list plan week month year friend family
        """.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)

    static let accented = """
        café cafés résumé Zürich naïve Straße Ærø Œuvre Ñandú façade jalapeño über Müller Köln \
        Málaga Reykjavík Kraków Łódź Ångström fiancée Brontë crème brûlée tête smörgåsbord Dvořák \
        Gdańsk İstanbul Þórshöfn Ørsted garçon cliché entrée soufflé Noël Genève Tromsø Øresund
        """.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)

    static let foreign = [
        "Γειά σου Κόσμε — σημειώσεις για τη συνάντηση στην Αθήνα.",
        "ΣΟΦΟΣ ο άνθρωπος· σοφός και σοφὸς είναι το ίδιο;",
        "Привет, мир! Заметки о встрече в Москве во вторник.",
        "Ёлка, щётка и объём — проверка буквы ё и Ё.",
        "東京の会議メモ：来週の予定を確認する。",
        "北京欢迎你，今天的笔记很长，需要整理。",
        "서울에서 회의가 있었습니다. 다음 주에 다시 만납시다.",
        "שלום עולם — הערות מהפגישה.",
    ]

    /// Lines in scripts whose marks are part of the letter (folding keeps them): the text where
    /// recomposition can join a scalar to the one before it, some of it written decomposed.
    static let letterMarks = [
        "ไม้บรรทัดยาวสามสิบเซนติเมตร ไม่ใช่ของฉัน ขอบคุณครับ",
        "कुत्ता और किताब — आज की बैठक के नोट्स, ज़रूरी काम।",
        "বাংলা কুকুর আর কোকিল, আজকের মিটিং-এর নোট।",
        "தமிழ் கொண்டாட்டம் — இன்றைய கூட்டக் குறிப்புகள்.",
        "データベースのバックアップ、ぱんとごはん、ガイドブック。",
        "ﾃﾞｰﾀﾍﾞｰｽのﾊﾞｯｸｱｯﾌﾟ、ﾊﾟｽﾜｰﾄﾞを変更する。",
        "\u{30C6}\u{3099}\u{30FC}\u{30BF}\u{30D8}\u{3099}\u{30FC}\u{30B9} written decomposed",
        "등산 계획: 주말에 산에 갑니다. 서울에서 만납시다.",
        "\u{1103}\u{1173}\u{11BC}\u{1109}\u{1161}\u{11AB} 계획 (jamo written decomposed)",
        "שָׁלוֹם עוֹלָם — مَرْحَبًا بِالْعَالَمِ",
    ]

    /// About `bytes` UTF-8 bytes of lines from `letterMarks`.
    static func makeLetterMarks(bytes: Int, seed: UInt64 = 11) -> String {
        var random = SplitMix64(state: seed)
        var text = ""
        text.reserveCapacity(bytes + 200)
        while text.utf8.count < bytes { text += random.pick(letterMarks) + "\n" }
        return text
    }

    /// About `bytes` UTF-8 bytes of text; `mixed` adds accented words and other scripts.
    static func make(bytes: Int, mixed: Bool, seed: UInt64 = 7) -> String {
        var random = SplitMix64(state: seed)
        var text = ""
        text.reserveCapacity(bytes + 200)
        while text.utf8.count < bytes {
            if mixed, random.below(12) == 0 {
                text += random.pick(foreign) + "\n"
                continue
            }
            var line: [String] = []
            for _ in 0..<(6 + random.below(11)) {
                line.append(mixed && random.below(20) == 0 ? random.pick(accented) : random.pick(english))
            }
            line[0] = line[0].prefix(1).uppercased() + line[0].dropFirst()
            text += line.joined(separator: " ") + ".\n"
        }
        return text
    }
}

/// Times closures and keeps the best of several runs.
struct Stopwatch {
    let repetitions: Int
    /// Keeps results alive so the optimizer cannot drop the work.
    var sink = 0

    /// The best wall time of `body` over the repetitions, in seconds.
    mutating func best(_ body: () -> Int) -> Double {
        var best = Double.infinity
        let clock = ContinuousClock()
        for _ in 0..<repetitions {
            var result = 0
            let elapsed = clock.measure { result = body() }
            sink &+= result
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            best = min(best, seconds)
        }
        return best
    }
}

/// One row of the report.
struct Row {
    var name: String
    var seconds: Double
    var found: Bool?
}

/// Runs every method over `text` and prints a table; returns the rows.
func benchmark(_ label: String, text: String, needle: String, stopwatch: inout Stopwatch) -> [Row] {
    let bytes = text.utf8.count
    let lines = text.split(separator: "\n").map(String.init)
    var folder = TextFolder()
    let folded = folder.foldedBytes(text)
    let foldedNeedle = folder.foldedBytes(needle)
    var rows: [Row] = []

    rows.append(
        Row(
            name: "TextFolder.foldedBytes",
            seconds: stopwatch.best {
                var fresh = TextFolder()  // a new cache each time, as in a fresh `notes` process
                return fresh.foldedBytes(text).count
            }))
    var found = false
    rows.append(
        Row(
            name: "TextFolding.contains (pre-folded)",
            seconds: stopwatch.best {
                found = TextFolding.contains(folded, foldedNeedle)
                return found ? 1 : 0
            }, found: found))
    rows.append(
        Row(
            name: "fold + contains",
            seconds: stopwatch.best {
                var fresh = TextFolder()
                found = TextFolding.contains(fresh.foldedBytes(text), fresh.foldedBytes(needle))
                return found ? 1 : 0
            }, found: found))
    rows.append(
        Row(
            name: "localizedStandardContains (whole)",
            seconds: stopwatch.best {
                found = text.localizedStandardContains(needle)
                return found ? 1 : 0
            }, found: found))
    rows.append(
        Row(
            name: "localizedStandardContains (per line)",
            seconds: stopwatch.best {
                found = lines.contains { $0.localizedStandardContains(needle) }
                return found ? 1 : 0
            }, found: found))
    rows.append(
        Row(
            name: "Foundation folding(case+diacritic)",
            seconds: stopwatch.best {
                text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).utf8.count
            }))

    let megabytes = Double(bytes) / 1_000_000
    print(
        "\n\(label): \(String(format: "%.2f", megabytes)) MB, \(lines.count) lines, "
            + "needle \"\(needle)\", best of \(stopwatch.repetitions)")
    print(pad("method", 38) + pad("MB/s", 10, right: true) + pad("ms", 10, right: true) + "  found")
    for row in rows {
        let found = row.found.map { $0 ? "yes" : "NO" } ?? ""
        print(
            pad(row.name, 38) + pad(String(format: "%.1f", megabytes / row.seconds), 10, right: true)
                + pad(String(format: "%.2f", row.seconds * 1000), 10, right: true) + "  " + found)
    }
    func seconds(_ name: String) -> Double { rows.first { $0.name == name }?.seconds ?? .nan }
    let ours = seconds("fold + contains")
    print(
        String(
            format: "ratio: localizedStandardContains (whole) / fold+contains = %.1fx; per line = %.1fx",
            seconds("localizedStandardContains (whole)") / ours,
            seconds("localizedStandardContains (per line)") / ours))
    print(
        String(
            format: "ratio: Foundation folding / TextFolder.foldedBytes = %.1fx",
            seconds("Foundation folding(case+diacritic)") / seconds("TextFolder.foldedBytes")))
    return rows
}

/// `text` padded with spaces to `width` columns (counting Characters), on the left when `right`.
func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
    let fill = String(repeating: " ", count: max(0, width - text.count))
    return right ? fill + text : text + fill
}

// MARK: Command line

var megabytes = 4.0
var repetitions = 5
var file: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--mb":
        guard let value = arguments.popFirst().flatMap(Double.init), value > 0 else {
            FileHandle.standardError.write(Data("fold-bench: --mb needs a positive number\n".utf8))
            exit(64)
        }
        megabytes = value
    case "--reps":
        guard let value = arguments.popFirst().flatMap(Int.init), value > 0 else {
            FileHandle.standardError.write(Data("fold-bench: --reps needs a positive whole number\n".utf8))
            exit(64)
        }
        repetitions = value
    case "-h", "--help":
        print("USAGE: fold-bench [--mb <n>] [--reps <n>] [<file>]")
        exit(0)
    default:
        file = argument
    }
}

let size = Int(megabytes * 1_000_000)
var mixed: String
if let file {
    guard let data = FileManager.default.contents(atPath: file),
        let text = String(data: data, encoding: .utf8)
    else {
        FileHandle.standardError.write(Data("fold-bench: cannot read '\(file)' as UTF-8\n".utf8))
        exit(1)
    }
    mixed = text
} else {
    mixed = Corpus.make(bytes: size, mixed: true)
}
// The needle is found only on the last line, spelled differently from the query.
mixed += "Last line: ENSEMBLE ANGSTROM.\n"
let ascii = Corpus.make(bytes: mixed.utf8.count, mixed: false) + "Last line: ENSEMBLE ANGSTROM.\n"

var stopwatch = Stopwatch(repetitions: repetitions)
print(
    "fold-bench: \(ProcessInfo.processInfo.activeProcessorCount) cores; "
        + "one thread; MB = 10^6 bytes of UTF-8 input")
_ = benchmark(
    file ?? "mixed-script text", text: mixed, needle: "ensemble Ångström",
    stopwatch: &stopwatch)
_ = benchmark("pure-ASCII text", text: ascii, needle: "ensemble angstrom", stopwatch: &stopwatch)
let letterMarks = Corpus.makeLetterMarks(bytes: mixed.utf8.count) + "Last line: ENSEMBLE ANGSTROM.\n"
_ = benchmark(
    "letter-mark scripts (Thai, Indic, kana, Hangul; some decomposed)", text: letterMarks,
    needle: "ensemble Ångström", stopwatch: &stopwatch)
print("\n(checksum \(stopwatch.sink))")
