import Foundation
import NotesKit
import TestSupport

// Inputs for the fuzz targets (`FuzzTests`, and `Tests/Fuzz/fuzz.sh` for libFuzzer, which compiles
// this file too): valid seeds — notes, front matters, dates, queries, text in many scripts —
// mutated the way real files go wrong (a line cut, a quote left open, CRLF and a BOM pasted in,
// invalid UTF-8), rather than uniform random bytes, which almost never get past a first line `---`.

/// Text inputs: note files, content, dates, queries.
enum FuzzText {
    /// Notes as people and other tools write them: each front-matter form, CRLF, a BOM,
    /// no front matter, an unclosed one, Obsidian/Jekyll/Hugo keys, tags, links, code, conflicts.
    static let noteSeeds: [String] = [
        "---\ncreatedAt: 2026-11-29T12:38:16Z\nupdatedAt: 2026-11-30T08:00:00Z\ntags: [groceries, home]\n---\n# Shopping list\n\n- milk\n",
        "# Just a heading\n\nNo front matter at all.\n",
        "plain text, one line, no newline",
        "",
        "\n\n\n",
        "---\ntitle: 'Shopping  list'   # kept as typed\ncreatedAt: 2026-11-29T12:38:16Z\n# a comment\nupdatedAt: 2026-11-30 08:00\ntags: [groceries,home]\nx-custom:\n  nested: map\nsummary: |\n  a block scalar\n---\nold body\n",
        "---\r\ncreated: 2026-11-29 12:38\r\ntitle: \"Crème \\\"brûlée\\\" \\u00e9\\t\\n\"\r\n---\r\nBody with CRLF\r\nsecond line\r\n",
        "\u{FEFF}---\ndate: 2026-11-29\ntags:\n  - a\n  - 'b c'\n  - \"d\"\n---\n\u{FEFF}body after a BOM\n",
        "---\nno closing line\ntitle: x\n",
        "---\ntitle: x\n...\nYAML document end as the closing line\n",
        "---   \ntitle: trailing blanks on the delimiters\n---\t\nbody\n",
        "---\nlayout: post\ntitle: \"Jekyll post\"\ndate: 2015-11-17 16:16:01 -0600\ncategories: jekyll update\n---\nWelcome\n",
        "+++\ntitle = \"Hugo TOML is not front matter\"\n+++\nbody\n",
        "---\ndate: 2026-02-30\ncreatedAt: not a date\nupdatedAt: [a, b]\n---\nbad dates\n",
        "---\ntags: work, home #comment\naliases: [one, \"two, three\", 'it''s']\ncssclass: wide\n---\n# Title #tag\n",
        "---\nkey: [unclosed, list\n  continued]\nother: \"unclosed\n  quote\"\n---\nbody\n",
        "---\n- a list item outside of any key\n  indented outside of any key\nnot a key value line\n:\n: empty key\n---\nbody\n",
        "---\ncreatedAt: 2026-11-29T12:38:16.123456789+05:30\nupdatedAt: 2026-11-29t12:38:16z\n---\nfractions and offsets\n",
        "Title line\n#tag #another/nested #123 #a-b_c\n[[Target]] [[Other|shown]] [[Note#Heading]] ![[Embed]]\n[md](folder/note.md) [x](https://example.com) ![img](a.png)\n`[[not a link]] #notatag`\n```\n[[fenced]] #fenced\n```\n",
        "<<<<<<< HEAD\nmine\n=======\ntheirs\n>>>>>>> branch\n",
        "---\ntitle:\n---\n\n\n   \n\t\n# \n",
        "---\n---\n",
        "---\n",
        "---\r\n---\r\n\r\n",
        "---\ntitle: \"\\x41\\U0001F600\\u12\\q\"\ncreatedAt: '2026-11-29T12:38:16Z'\n---\n",
        "\r\n\r\nbody starting with CRLF blank lines\r\n",
        "a\rb\rc lone carriage returns\r",
        "---\nnested:\n  map:\n    deeper: 1\nflow: {a: 1, b: [2]}\nanchor: &x 1\nalias: *x\ntagged: !!str 1\nfolded: >\n  text\n---\n",
        "---\ntitle: データ 東京 메모 שָׁלוֹם مَرْحَبًا नमस्ते สวัสดี\n---\nΣίσυφος İstanbul Straße ﬁle ｆｕｌｌ ﾃﾞｰﾀ\n",
        "---\ncreatedAt: 2026-11-29T12:38:16Z\n---\n---\nsecond front matter in the body\n---\n",
    ]

    /// Pieces that matter to the parsers: delimiters, keys, quotes, escapes, line endings, marks.
    static let atoms: [String] = [
        "---", "...", "---\n", "...\n", "---\r\n", "\n", "\r\n", "\r", "\u{FEFF}", "\0", ":", ": ", " :",
        "- ",
        "-", "  - ", "\t", "  ", "#", " #", " # c", "'", "''", "\"", "\\", "\\\"", "\\u00e9", "\\u12",
        "\\U0001F600",
        "\\x4", "\\n", "[", "]", "[]", ", ", ",", "|", ">", "{", "}", "&a", "*a", "!", "title: ",
        "createdAt: ",
        "updatedAt: ", "created: ", "date: ", "tags: ", "tags:\n", "CreatedAt: ", "createdAt:", "updatedAt:",
        "2026-11-29T12:38:16Z", "2026-11-29", "2026-11-29 12:38", "2026-02-29", "9999-12-31T23:59:59Z",
        "0000-01-01", "[[", "]]", "](", ")", "![[", "`", "```\n", "<<<<<<< ", "=======", ">>>>>>> ", "#tag",
        "\u{1B}[31m", "\u{7F}", "\u{85}", "\u{2028}", "\u{2029}", "\u{A0}", "\u{3000}", "\u{200D}", "\u{301}",
    ]

    /// Words in many scripts, with combining marks, joiners and letters that fold specially.
    static let words: [String] = [
        "crème", "brûlée", "Crème Brûlée à Łódź", "Straße", "STRASSE", "ẞ", "İstanbul", "ı", "Σίσυφος", "ς",
        "ΐ", "\u{345}", "ﬁle", "ﬃ", "ǅ", "ŉ", "ｆｕｌｌ", "①", "㍿", "ﷺ", "\u{FDFA}", "データ", "ﾃﾞｰﾀ", "テータ",
        "\u{30C6}\u{3099}\u{30FC}\u{30BF}", "東京", "한국어", "\u{1112}\u{1161}\u{11AB}", "사", "산", "\u{1109}",
        "שָׁלוֹם", "שלום", "مَرْحَبًا", "مرحبا", "नमस्ते", "कि", "ไม่", "สวัสดี", "কো", "\u{995}\u{9C7}\u{9BE}",
        "e\u{301}", "e\u{301}\u{323}", "\u{301}", "a\u{20DD}", "Ø", "æ", "œ", "þ", "ð", "đ", "ħ", "ŧ",
        "😀", "👩‍👩‍👧", "🇫🇷", "\u{1F3FB}", "\u{E0041}", "\u{10FFFF}", "\u{FFFF}", "\u{D7FF}", "\u{E000}",
        "\u{1D400}", "\u{0CBC}", "\u{093C}", "\u{F71}\u{F72}", "\u{11099}\u{110BA}", "Ω", "Å", "\u{212B}",
        "milk", "note", "Title", "a", "", "work/meetings",
    ]

    /// Scalars from ranges that matter to folding and parsing, or any valid scalar.
    static func scalar(_ r: inout SplitMix) -> Unicode.Scalar {
        let ranges: [ClosedRange<UInt32>] = [
            0x00...0x1F, 0x20...0x7E, 0x7F...0x9F, 0xA0...0x24F, 0x300...0x36F, 0x370...0x3FF, 0x400...0x4FF,
            0x591...0x5C7, 0x610...0x6FF, 0x900...0x97F, 0x980...0x9FF, 0xE00...0xE7F, 0x1100...0x11FF,
            0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x1E00...0x1FFF, 0x2000...0x206F, 0x20D0...0x20FF,
            0x3040...0x30FF, 0xAC00...0xD7A3, 0xD7B0...0xD7FF, 0xFB00...0xFB4F, 0xFE00...0xFE2F,
            0xFF00...0xFFEF,
            0xFFF0...0xFFFF, 0x10000...0x1FFFF, 0xE0000...0xE01EF, 0x0...0x10FFFF,
        ]
        let range = r.pick(ranges)
        let value = range.lowerBound + UInt32(r.below(Int(range.upperBound - range.lowerBound) + 1))
        return Unicode.Scalar(value) ?? "\u{FFFD}"
    }

    /// A short run of text: an atom, a word, or a few scalars.
    static func piece(_ r: inout SplitMix) -> String {
        switch r.below(4) {
        case 0: return r.pick(atoms)
        case 1: return r.pick(words)
        case 2: return String(String.UnicodeScalarView((0..<r.within(1...4)).map { _ in scalar(&r) }))
        default: return r.pick(atoms) + r.pick(words)
        }
    }

    /// A note file's text: a seed, a spliced pair of seeds, or pieces, mutated a few times.
    static func note(_ r: inout SplitMix) -> String {
        var text: String
        switch r.below(10) {
        case 0: text = (0..<r.within(0...25)).map { _ in piece(&r) }.joined()
        case 1: text = splice(r.pick(noteSeeds), r.pick(noteSeeds), &r)
        default: text = r.pick(noteSeeds)
        }
        for _ in 0..<r.within(0...6) { text = mutate(text, &r) }
        return text
    }

    /// New content as the content rules make it (`Content.normalize`: LF line endings, trimmed,
    /// one final newline), never empty.
    static func content(_ r: inout SplitMix) -> String {
        var text = r.chance(30) ? r.pick(noteSeeds) : (0..<r.within(1...8)).map { _ in piece(&r) }.joined()
        if r.chance(50) { text = mutate(text, &r) }
        return (try? Content.normalize(text)) ?? "x\n"
    }

    /// One mutation of `text`, at a scalar boundary (the result is valid text).
    static func mutate(_ text: String, _ r: inout SplitMix) -> String {
        var s = Array(text.unicodeScalars)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        func at() -> Int { r.below(s.count + 1) }
        func joined() -> String { lines.joined(separator: "\n") }
        switch r.below(16) {
        case 0, 1:  // insert a piece anywhere
            let i = at()
            s.insert(contentsOf: piece(&r).unicodeScalars, at: i)
        case 2:  // insert a piece at the start or end of a line
            guard !lines.isEmpty else { return piece(&r) }
            let k = r.below(lines.count)
            lines[k] = r.chance(50) ? piece(&r) + lines[k] : lines[k] + piece(&r)
            return joined()
        case 3:  // delete a run
            let i = at()
            let n = min(r.within(1...8), s.count - i)
            s.removeSubrange(i..<(i + n))
        case 4:  // duplicate a run
            let i = at()
            let n = min(r.within(1...20), s.count - i)
            s.insert(contentsOf: s[i..<(i + n)], at: r.below(s.count + 1))
        case 5:  // replace a line
            guard !lines.isEmpty else { return piece(&r) }
            let seedLines = r.pick(noteSeeds).split(separator: "\n", omittingEmptySubsequences: false)
            lines[r.below(lines.count)] = r.chance(50) ? String(r.pick(seedLines)) : piece(&r)
            return joined()
        case 6:  // swap two lines
            guard lines.count > 1 else { return text }
            lines.swapAt(r.below(lines.count), r.below(lines.count))
            return joined()
        case 7:  // line endings: all CRLF, one CRLF, no CR, a lone CR
            switch r.below(4) {
            case 0:
                return text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(
                    of: "\n", with: "\r\n")
            case 1:
                guard !lines.isEmpty else { return text }
                let k = r.below(lines.count)
                lines[k] += "\r"
                return joined()
            case 2: return text.replacingOccurrences(of: "\r", with: "")
            default: s.insert("\r", at: at())
            }
        case 8:  // a byte order mark at the start, or in the middle
            s.insert("\u{FEFF}", at: r.chance(60) ? 0 : at())
        case 9:  // indent or unindent a line
            guard !lines.isEmpty else { return text }
            let k = r.below(lines.count)
            if r.chance(50) {
                lines[k] = r.pick([" ", "  ", "\t", " \t"]) + lines[k]
            } else {
                lines[k] = String(lines[k].drop { $0 == " " || $0 == "\t" })
            }
            return joined()
        case 10:  // repeat a line
            guard !lines.isEmpty else { return text }
            let k = r.below(lines.count)
            lines.insert(contentsOf: repeatElement(lines[k], count: r.within(1...30)), at: k)
            return joined()
        case 11:  // truncate
            s.removeSubrange(at()...)
        case 12:  // a date value mutated
            let keyed = lines.indices.filter { lines[$0].contains(": ") }
            guard !keyed.isEmpty else { return text }
            let k = r.pick(keyed)
            lines[k] = String(lines[k].prefix { $0 != ":" }) + ": " + FuzzText.date(&r)
            return joined()
        case 13:  // splice with another seed
            return splice(text, r.pick(noteSeeds), &r)
        case 14:  // scalars from interesting ranges
            for _ in 0..<r.within(1...3) { s.insert(scalar(&r), at: at()) }
        default:  // a key's case changed, or a known key written in
            guard !lines.isEmpty else { return text }
            let k = r.below(lines.count)
            let key = r.pick(["createdAt", "updatedAt", "created", "date", "title", "tags"])
            lines[k] = r.chance(50) ? lines[k].uppercased() : key + ": " + lines[k]
            return joined()
        }
        return String(String.UnicodeScalarView(s))
    }

    /// The head of one text followed by the tail of another, cut at line starts or anywhere.
    static func splice(_ a: String, _ b: String, _ r: inout SplitMix) -> String {
        let x = Array(a.unicodeScalars)
        let y = Array(b.unicodeScalars)
        return String(String.UnicodeScalarView(x[..<r.below(x.count + 1)] + y[r.below(y.count + 1)...]))
    }

    /// Date texts: the accepted forms with random parts (some out of range), mutated forms, pieces.
    static func date(_ r: inout SplitMix) -> String {
        func digits(_ value: Int, _ width: Int) -> String {
            let s = String(value)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        let year = r.chance(80) ? r.within(1900...2100) : r.within(0...9999)
        let month = r.chance(90) ? r.within(1...12) : r.within(0...99)
        let day = r.chance(85) ? r.within(1...28) : r.within(0...39)
        var text = digits(year, 4) + "-" + digits(month, 2) + "-" + digits(day, 2)
        if r.chance(75) {
            text += r.pick(["T", "t", " ", "T", "_"])
            text += digits(r.chance(90) ? r.within(0...23) : r.within(0...99), 2) + ":"
            text += digits(r.chance(90) ? r.within(0...59) : r.within(0...99), 2)
            if r.chance(70) {
                text += ":" + digits(r.chance(90) ? r.within(0...59) : r.within(0...99), 2)
                if r.chance(30) {
                    text +=
                        r.pick([".", ","]) + (0..<r.within(0...12)).map { _ in String(r.below(10)) }.joined()
                }
            }
            if r.chance(70) {
                if r.chance(20) { text += " " }
                switch r.below(5) {
                case 0: text += r.pick(["Z", "z"])
                case 1: text += r.pick(["+", "-"]) + digits(r.within(0...25), 2)
                case 2:
                    text += r.pick(["+", "-"]) + digits(r.within(0...25), 2) + digits(r.within(0...61), 2)
                case 3:
                    text +=
                        r.pick(["+", "-"]) + digits(r.within(0...25), 2) + ":" + digits(r.within(0...61), 2)
                default: text += r.pick(["+", "-", "+1", "+123", "UTC", "Z ", "+05:3"])
                }
            }
        }
        if r.chance(20) {
            var scalars = Array(text.unicodeScalars)
            for _ in 0..<r.within(1...3) {
                let i = r.below(scalars.count + 1)
                switch r.below(4) {
                case 0:
                    scalars.insert(
                        r.pick(["0", "9", "-", ":", "T", " ", "Z", "+", "\u{0660}", "٣", "\0", "\n"]), at: i)
                case 1: if i < scalars.count { scalars.remove(at: i) }
                case 2: if i < scalars.count { scalars[i] = r.pick(["0", "9", "-", ":", "x", "１"]) }
                default: scalars.removeSubrange(i...)
                }
            }
            text = String(String.UnicodeScalarView(scalars))
        }
        return text
    }

    /// Times as the tool writes them (now-ish), and odd ones: far past and future, fractions,
    /// beyond the years 1–9999, not a number.
    static func seconds(_ r: inout SplitMix) -> Double {
        switch r.below(10) {
        case 0: return Double(bitPattern: r.next())
        case 1: return r.pick([-1e300, 1e300, -62_135_596_801, 253_402_300_800, .nan, .infinity, -0.5, 0])
        case 2: return Double(Int64(bitPattern: r.next()) % 400_000_000_000)
        default: return Double(r.within(1_500_000_000...2_000_000_000)) + Double(r.below(1000)) / 1000
        }
    }

    /// A search query: words, quoted phrases (some unbalanced), tag terms, odd blanks.
    static func query(_ r: inout SplitMix) -> String {
        var parts: [String] = []
        for _ in 0..<r.within(0...6) {
            var word = r.chance(70) ? r.pick(words) : piece(&r)
            if r.chance(15) { word = "#" + word }
            if r.chance(15) { word = "\"" + word + (r.chance(80) ? "\"" : "") }
            parts.append(word)
        }
        let blanks = [" ", " ", "  ", "\t", "\n", "\u{3000}", "\u{A0}", "\u{2028}", "\u{85}", " \u{301}"]
        return parts.map { $0 + r.pick(blanks) }.joined()
    }
}

/// Byte-level inputs: text with invalid UTF-8 spliced in, and byte mutations of any buffer.
enum FuzzBytes {
    /// Sequences that are not UTF-8: overlong forms, surrogates, beyond U+10FFFF, cut sequences,
    /// stray continuation bytes.
    static let invalid: [[UInt8]] = [
        [0xFF], [0xFE], [0x80], [0xBF], [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80],
        [0xED, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80],
        [0xF8, 0x88, 0x80, 0x80, 0x80],
        [0xC3], [0xE6, 0x97], [0xF0, 0x9F, 0x98], [0xC3, 0x41], [0xE6, 0x41, 0x42],
    ]

    /// `bytes` with a few byte-level changes: invalid sequences, flips, cuts, copies.
    static func mutate(_ bytes: [UInt8], _ r: inout SplitMix) -> [UInt8] {
        var b = bytes
        for _ in 0..<r.within(1...4) {
            let i = r.below(b.count + 1)
            switch r.below(6) {
            case 0, 1: b.insert(contentsOf: r.pick(invalid), at: i)
            case 2: if i < b.count { b[i] ^= UInt8(1 << r.below(8)) }
            case 3:
                if i < b.count {
                    b[i] = r.pick([0x00, 0x0A, 0x0D, 0x2D, 0x7F, 0x80, 0xC0, 0xE0, 0xEF, 0xF0, 0xFF])
                }
            case 4: b.removeSubrange(i..<min(b.count, i + r.within(1...4)))
            default:
                let n = min(r.within(1...16), b.count - i)
                b.insert(contentsOf: b[i..<(i + n)], at: r.below(b.count + 1))
            }
        }
        return b
    }
}
