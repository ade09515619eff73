import Foundation

@testable import NotesKit

// The invariants the fuzz targets check on every input. Each check returns what went wrong, as
// sentences (empty: every invariant held); `FuzzTests` records them with the seed that replays the
// input, `Tests/Fuzz/fuzz.sh` (libFuzzer) stops on them. A crash is a failure by itself.

/// Shows text in a failure message: escaped, and cut when long.
func fuzzShow(_ text: String) -> String {
    let scalars = Array(text.unicodeScalars)
    let shown = scalars.count > 600 ? String(String.UnicodeScalarView(scalars[..<600])) + "…" : text
    return shown.debugDescription
}

func fuzzShow(_ bytes: [UInt8]) -> String {
    (bytes.count > 400 ? Array(bytes[..<400]) : bytes).map { String($0, radix: 16) }.joined(separator: " ")
        + (bytes.count > 400 ? " …" : "")
}

// MARK: - Front matter and note files

enum DocumentFuzz {
    /// A note file's text: parsing keeps every byte; a rewrite changes only the body and the
    /// `updatedAt` line (and writes down the creation date of a note that has no creation key), and
    /// a second identical rewrite changes nothing; a new file made from the text as content keeps
    /// it and has a creation date.
    static func check(_ text: String, content: String, updated: Double, fallback: Double) -> [String] {
        var problems: [String] = []
        let original = NoteDocument(parsing: text)
        if !original.text.utf8.elementsEqual(text.utf8) {
            problems.append("parsing did not keep the bytes: \(fuzzShow(original.text))")
        }
        let lineCount = text.utf8.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        for warning in original.warnings + original.dateWarnings()
        where !(1...lineCount).contains(warning.line) {
            problems.append(
                "a warning on line \(warning.line) of a file of \(lineCount) lines: \(warning.message)")
        }
        problems += rewrite(original, content: content, updated: updated, fallback: fallback)
        problems += newFile(content, created: fallback)
        return problems
    }

    static func rewrite(_ original: NoteDocument, content: String, updated: Double, fallback: Double)
        -> [String]
    {
        var problems: [String] = []
        var document = original
        document.rewrite(content: content, updated: updated, fallbackCreation: fallback)
        let text = document.text
        let reread = NoteDocument(parsing: text)
        if !reread.text.utf8.elementsEqual(text.utf8) {
            problems.append("the rewritten file does not parse back to itself")
        }
        if reread.hasBOM != original.hasBOM { problems.append("the rewrite changed the BOM") }

        // The body: the content, with the line ending of the old body's first line (else the file's).
        let eol = lineEnding(ofFirstLineIn: original.body) ?? original.lineEnding
        let body = eol == "\r\n" ? crlf(content) : content
        if !reread.body.utf8.elementsEqual(body.utf8) {
            problems.append("the body after the rewrite is \(fuzzShow(reread.body)), not \(fuzzShow(body))")
        }
        let updatedSeconds = NoteDate.clamped(updated).rounded(.down)
        if reread.updatedDate() != updatedSeconds {
            problems.append(
                "updatedAt reads \(String(describing: reread.updatedDate())), not \(updatedSeconds)")
        }
        let fallbackSeconds = NoteDate.clamped(fallback).rounded(.down)
        let hadCreationKey =
            original.frontMatter?.entries.contains { NoteDocument.creationKeys.contains($0.key) } ?? false
        let creation = reread.creationDate()
        if let before = original.creationDate() {
            if creation?.key != before.key || creation?.seconds != before.seconds {
                problems.append("the creation date changed from \(before) to \(String(describing: creation))")
            }
        } else if !hadCreationKey {
            if creation?.key != "createdAt" || creation?.seconds != fallbackSeconds {
                problems.append(
                    "a note without a creation key got \(String(describing: creation)), not its fallback")
            }
        } else if let creation {
            problems.append("an unparsable creation key was replaced by \(creation)")
        }
        guard let after = reread.frontMatter else { return problems + ["no front matter after a rewrite"] }
        let eolFM = original.lineEnding
        let updatedLine = "updatedAt: \(NoteDate.format(updated))" + eolFM
        let createdLine = "createdAt: \(NoteDate.format(fallback))" + eolFM
        guard let before = original.frontMatter else {
            if after.opening != "---" + eolFM || after.closing != "---" + eolFM
                || after.lines != [createdLine, updatedLine]
            {
                problems.append("a new front matter is \(fuzzShow(after.text))")
            }
            return problems
        }
        if after.opening != before.opening { problems.append("the opening line changed") }
        let closing = before.closing.utf8.last == 0x0A ? before.closing : before.closing + eolFM
        if after.closing != closing {
            problems.append("the closing line changed to \(fuzzShow(after.closing))")
        }

        // Every old line is still there, in order; the one updatedAt line is replaced; only the
        // updatedAt and createdAt lines are new.
        let replaced = before.entry("updatedAt")?.lineIndex
        var inserted: [String] = []
        if replaced == nil { inserted.append(updatedLine) }
        if !hadCreationKey { inserted.append(createdLine) }
        var mapping: [Int: Int] = [:]
        var j = 0
        for (i, line) in before.lines.enumerated() {
            while j < after.lines.count, after.lines[j] != (i == replaced ? updatedLine : line),
                let k = inserted.firstIndex(of: after.lines[j])
            {
                inserted.remove(at: k)
                j += 1
            }
            guard j < after.lines.count, after.lines[j] == (i == replaced ? updatedLine : line) else {
                problems.append(
                    "front-matter line \(i + 2) \(fuzzShow(line)) is lost or changed:\n\(fuzzShow(after.text))"
                )
                return problems
            }
            mapping[i] = j
            j += 1
        }
        let rest = after.lines[j...].filter { line in
            guard let k = inserted.firstIndex(of: line) else { return true }
            inserted.remove(at: k)
            return false
        }
        if !rest.isEmpty || !inserted.isEmpty {
            problems.append(
                "unexpected front-matter lines \(rest.map(fuzzShow)), missing \(inserted.map(fuzzShow))")
        }
        // updatedAt goes right after the line the creation date came from (or the first creation
        // key), else at the end.
        if replaced == nil, let updatedIndex = after.lines.firstIndex(of: updatedLine), hadCreationKey {
            // The first key of `createdAt`, `created`, `date` that is present, in that order.
            let anchor =
                original.creationDate().flatMap { before.entry($0.key) }
                ?? NoteDocument.creationKeys.lazy.compactMap { before.entry($0) }.first
            if let anchor, let at = mapping[anchor.lineIndex],
                !isContinuation(after.lines[(at + 1)..<updatedIndex])
            {
                problems.append("updatedAt is not right after the creation key:\n\(fuzzShow(after.text))")
            }
        }
        // What the other lines mean is unchanged: each old entry reads the same.
        for entry in before.entries where entry.lineIndex != replaced {
            guard let at = mapping[entry.lineIndex],
                let now = after.entries.first(where: { $0.lineIndex == at })
            else {
                problems.append(
                    "the entry '\(entry.key)' is gone after the rewrite:\n\(fuzzShow(after.text))")
                continue
            }
            if now.key != entry.key || now.value != entry.value {
                problems.append(
                    "the entry '\(entry.key)' read \(entry.value) and now reads \(now.value):\n\(fuzzShow(after.text))"
                )
            }
        }
        // The same rewrite again changes nothing — unless the content holds a CR before an LF
        // (`a\r\r\nb` typed is `a\r\nb` once CRLFs are made LFs), which a file with LF lines keeps
        // and one with CRLF lines cannot tell from a line ending.
        let bytes = Array(content.utf8)
        guard !zip(bytes, bytes.dropFirst()).contains(where: { $0 == 0x0D && $1 == 0x0A }) else {
            return problems
        }
        var again = reread
        again.rewrite(content: content, updated: updated, fallbackCreation: fallback)
        if !again.text.utf8.elementsEqual(text.utf8) {
            problems.append(
                "a second identical rewrite changed\n\(fuzzShow(text)) (from \(fuzzShow(original.text)))"
                    + "\nto\n\(fuzzShow(again.text))")
        }
        return problems
    }

    /// Lines that belong to the entry above them: indented lines and list items, with blank and
    /// comment lines among them.
    static func isContinuation(_ lines: ArraySlice<String>) -> Bool {
        lines.allSatisfy { line in
            let content = FrontMatter.stripTerminator(line)
            let trimmed = content.trimmingWhitespace()
            return trimmed.isEmpty || trimmed.hasPrefix("#") || content.first == " " || content.first == "\t"
                || trimmed.hasPrefix("-")
        }
    }

    /// `notes add` with `content`: the new file keeps the content and has a creation date.
    static func newFile(_ content: String, created: Double) -> [String] {
        var problems: [String] = []
        let document = NoteDocument(parsing: content)
        let file = NoteDocument.newFile(document, created: created)
        let reread = NoteDocument(parsing: file)
        if !reread.text.utf8.elementsEqual(file.utf8) {
            problems.append("a new file does not parse back to itself")
        }
        if reread.creationDate() == nil {
            problems.append("a new file has no creation date:\n\(fuzzShow(file))")
        }
        if let fm = document.frontMatter {
            if !reread.body.utf8.elementsEqual(document.body.utf8) {
                problems.append("a new file lost its body")
            }
            if document.creationDate() != nil, !file.utf8.elementsEqual(content.utf8) {
                problems.append("content with its own creation date was changed:\n\(fuzzShow(file))")
            }
            if let lines = reread.frontMatter?.lines, !lines.reversed().starts(with: fm.lines.reversed()) {
                problems.append("a new file changed the content's front matter:\n\(fuzzShow(file))")
            }
        } else if !reread.body.utf8.elementsEqual(content.utf8) {
            problems.append("a new file's body is not the content:\n\(fuzzShow(file))")
        }
        return problems
    }

    /// The ending of the first line of `text` that has one.
    static func lineEnding(ofFirstLineIn text: String) -> String? {
        let bytes = Array(text.utf8)
        guard let lf = bytes.firstIndex(of: 0x0A) else { return nil }
        return lf > 0 && bytes[lf - 1] == 0x0D ? "\r\n" : "\n"
    }

    /// Every LF that has no CR before it made CRLF.
    static func crlf(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var previous: Unicode.Scalar = "a"
        for s in text.unicodeScalars {
            if s == "\n" && previous != "\r" { out.append("\r") }
            out.append(s)
            previous = s
        }
        return String(out)
    }

    /// A note file's bytes as the vault reads them: text that is not UTF-8 is refused; anything
    /// else gives a note (title, preview, tags, links) whose links point at themselves in the body.
    static func checkFile(_ bytes: [UInt8], path: String, mtime: Double) -> [String] {
        guard let text = String(validating: bytes, as: UTF8.self) else { return [] }
        var problems: [String] = []
        let document = NoteDocument(parsing: text)
        let note = Note(path: path, document: document, mtime: mtime)
        if note.title.isEmpty { problems.append("an empty title") }
        if !NoteDate.representable.contains(note.createdAt) {
            problems.append("a creation date out of range: \(note.createdAt)")
        }
        let body = Array(document.body.utf8)
        for link in NoteLinks.of(document) {
            guard link.range.lowerBound >= 0, link.range.upperBound <= body.count,
                link.targetRange.lowerBound >= link.range.lowerBound,
                link.targetRange.upperBound <= link.range.upperBound,
                !link.targetRange.isEmpty || link.target.isEmpty
            else {
                problems.append("a link's ranges are outside it: \(link)")
                continue
            }
            if !body[link.range].elementsEqual(link.text.utf8)
                || !body[link.targetRange].elementsEqual(link.target.utf8)
            {
                problems.append("a link is not the text at its range: \(link)")
            }
        }
        for tag in NoteTags.body(document.body) where !NoteTags.isTag(tag) {
            problems.append("the body tag \(fuzzShow(tag)) is not a tag")
        }
        return problems
    }
}

// MARK: - Dates

enum DateFuzz {
    static let zones: [TimeZone] = [
        "UTC", "Europe/Paris", "America/St_Johns", "Pacific/Kiritimati", "Asia/Kathmandu",
        "America/New_York",
    ].compactMap { TimeZone(identifier: $0) }

    /// A date text parses exactly when it has one of the accepted date forms with parts in range,
    /// to the time those parts name; a formatted time parses back to itself.
    static func check(_ text: String, zone: TimeZone) -> [String] {
        let parsed = NoteDate.parse(text, timeZone: zone)
        let expected = oracle(text, zone: zone)
        switch (parsed, expected) {
        case (nil, nil): return []
        case (let p?, .some(.some(let e))):
            return abs(p - e) <= 1e-6 * max(1, abs(e)) ? [] : ["\(fuzzShow(text)) parses to \(p), not \(e)"]
        case (_?, .some(nil)):
            return []  // a form whose value the oracle does not compute (a year before 1, a local time)
        case (let p?, nil):
            return ["\(fuzzShow(text)) is not a date but parses to \(p)"]
        case (nil, _?):
            return ["\(fuzzShow(text)) is a date but does not parse"]
        }
    }

    /// A time formatted and parsed again: the same whole second.
    static func checkFormat(_ seconds: Double) -> [String] {
        let text = NoteDate.format(seconds)
        let back = NoteDate.parse(text)
        let expected = NoteDate.clamped(seconds).rounded(.down)
        var problems: [String] = []
        if back != expected {
            problems.append("\(seconds) formats as \(text), which parses to \(String(describing: back))")
        }
        if text.utf8.count != 20 { problems.append("\(seconds) formats as \(text)") }
        _ = NoteDate.stamp(NoteDate.clamped(seconds))
        return problems
    }

    /// What the text means as a date, worked out apart from the parser: nil when it is not a date;
    /// `.some(nil)` when it is one whose value this does not compute; else the time.
    static func oracle(_ text: String, zone: TimeZone) -> Double?? {
        let b = Array(text.utf8)
        func isDigit(_ i: Int) -> Bool { i < b.count && b[i] >= 0x30 && b[i] <= 0x39 }
        func number(_ from: Int, _ count: Int) -> Int? {
            guard (from..<(from + count)).allSatisfy(isDigit) else { return nil }
            return b[from..<(from + count)].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        func shape(_ from: Int, _ pattern: String) -> Bool {
            let p = Array(pattern.utf8)
            guard from + p.count <= b.count else { return false }
            return p.indices.allSatisfy {
                p[$0] == UInt8(ascii: "d") ? isDigit(from + $0) : b[from + $0] == p[$0]
            }
        }
        guard shape(0, "dddd-dd-dd"), let y = number(0, 4), let mo = number(5, 2), let d = number(8, 2) else {
            return nil
        }
        let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
        let monthDays = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...12).contains(mo), d >= 1, d <= monthDays[mo - 1] else { return nil }
        if b.count == 10 { return .some(y >= 1 ? local(y, mo, d, 0, 0, 0, zone) : nil) }
        guard [UInt8(ascii: "T"), UInt8(ascii: "t"), 0x20].contains(b[10]), shape(11, "dd:dd"),
            let h = number(11, 2), let mi = number(14, 2), h < 24, mi < 60
        else { return nil }
        var i = 16
        var s = 0
        var fraction = 0.0
        if shape(i, ":dd") {
            guard let sec = number(i + 1, 2), sec < 60 else { return nil }
            s = sec
            i += 3
            if i < b.count, b[i] == UInt8(ascii: ".") || b[i] == UInt8(ascii: ",") {
                var k = i + 1
                while isDigit(k) { k += 1 }
                guard k > i + 1, let f = Double("0." + String(decoding: b[(i + 1)..<k], as: UTF8.self)) else {
                    return nil
                }
                fraction = f
                i = k
            }
        }
        if i == b.count { return .some(y >= 1 ? local(y, mo, d, h, mi, s, zone).map { $0 + fraction } : nil) }
        if b[i] == 0x20, i + 1 < b.count,
            [UInt8(ascii: "Z"), UInt8(ascii: "z"), UInt8(ascii: "+"), UInt8(ascii: "-")].contains(b[i + 1])
        {
            i += 1
        }
        var offset = 0
        let zoneText = String(decoding: b[i...], as: UTF8.self)
        if zoneText == "Z" || zoneText == "z" {
            offset = 0
        } else if b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
            let sign = b[i] == UInt8(ascii: "-") ? -1 : 1
            let rest = b.count - i - 1
            guard let oh = number(i + 1, 2), oh < 24 else { return nil }
            var om = 0
            switch rest {
            case 2: om = 0
            case 4:
                guard let m = number(i + 3, 2), m < 60 else { return nil }
                om = m
            case 5:
                guard b[i + 3] == UInt8(ascii: ":"), let m = number(i + 4, 2), m < 60 else { return nil }
                om = m
            default: return nil
            }
            offset = sign * (oh * 3600 + om * 60)
        } else {
            return nil
        }
        guard y >= 1 else { return .some(nil) }
        return .some(Double(days(y, mo, d) * 86400 + h * 3600 + mi * 60 + s - offset) + fraction)
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (ISO 8601's, also before
    /// 1582), counted from 0001-01-01 (day 719162 before 1970) by whole years and the days of this one.
    static func days(_ y: Int, _ m: Int, _ d: Int) -> Int {
        let before = y - 1
        let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
        let daysBeforeMonth =
            [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334][m - 1] + (leap && m > 2 ? 1 : 0)
        return before * 365 + before / 4 - before / 100 + before / 400 + daysBeforeMonth + d - 1 - 719_162
    }

    /// A local wall-clock time: before the Gregorian reform (15 October 1582), where Foundation's
    /// calendar is Julian, the proleptic date less the zone's offset then; else the calendar's.
    static func local(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int, _ zone: TimeZone)
        -> Double?
    {
        if (y, mo, d) < (1582, 10, 15) {
            let wall = Double(days(y, mo, d) * 86400 + h * 3600 + mi * 60 + s)
            let guess = wall - Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: wall)))
            return wall - Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: guess)))
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.date(
            from: DateComponents(year: y, month: mo, day: d, hour: h, minute: mi, second: s))?
            .timeIntervalSince1970
    }
}

// MARK: - Folding and search

enum FoldFuzz {
    /// Folding: the fast path of a folder reused across inputs (warm caches) gives the exact fold of
    /// the definition; the bytes and the string entry points agree; folding folded text changes nothing;
    /// bytes that are not UTF-8 fold without a crash into UTF-8.
    static func check(_ bytes: [UInt8], folder: inout TextFolder) -> [String] {
        let fromBytes = bytes.withUnsafeBufferPointer { folder.foldedBytes(utf8: $0) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return String(validating: fromBytes, as: UTF8.self) == nil
                ? ["invalid input folded into invalid UTF-8: \(fuzzShow(bytes)) → \(fuzzShow(fromBytes))"]
                : []
        }
        var problems: [String] = []
        let exact = TextFolder.fold(text).bytes
        if fromBytes != exact {
            problems.append(
                "the fast fold of \(scalars(text)) is \(fuzzShow(fromBytes)), the exact one \(fuzzShow(exact))"
            )
        }
        if folder.foldedBytes(text) != fromBytes {
            problems.append("the string and bytes entry points differ on \(scalars(text))")
        }
        let once = String(decoding: exact, as: UTF8.self)
        let twice = TextFolder.fold(once).bytes
        if twice != exact {
            let again = scalars(String(decoding: twice, as: UTF8.self))
            problems.append("folding is not idempotent on \(scalars(text)): \(scalars(once)) → \(again)")
        }
        return problems
    }

    static func scalars(_ text: String) -> String {
        text.unicodeScalars.prefix(80).map { String($0.value, radix: 16) }.joined(separator: " ")
    }
}

enum QueryFuzz {
    /// A query: parsing never crashes; terms hold no quote and unquoted ones no blank; a text that
    /// holds every term between blanks matches; highlights lie inside the line; a snippet is a line
    /// of the text; the substring search finds what a naive one finds.
    static func check(_ query: String, text: String, folder: inout TextFolder) -> [String] {
        var problems: [String] = []
        let q = SearchQuery(query)
        if q.isPlain
            && (q.foldedTerms.count != q.terms.count || q.textTerms.count + q.tagTerms.count != q.terms.count)
        {
            problems.append("term lists of different lengths for \(fuzzShow(query))")
        }
        for term in q.terms where term.contains(Character("\"")) {
            problems.append("a term with a quote: \(fuzzShow(term))")
        }
        // Each text term alone between blanks: found.
        let holding = q.terms.joined(separator: " \n ")
        if q.isPlain && !q.matches(folded: folder.foldedBytes(" " + holding + " ")) {
            problems.append(
                "\(fuzzShow(query)) does not match the text of its own terms \(fuzzShow(holding))")
        }
        for line in [text, query, holding] {
            for range in q.highlights(in: line)
            where range.lowerBound >= range.upperBound || range.upperBound > line.endIndex {
                problems.append("a highlight \(range) outside \(fuzzShow(line))")
            }
        }
        // A snippet is a line, or (a long one) a window of it with a `…` at each cut.
        if let snippet = q.snippet(in: text, folding: &folder),
            !Note.lines(of: text).contains(where: { line in
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                let window = snippet.drop { $0 == "…" }.reversed().drop { $0 == "…" }.reversed()
                return trimmed == snippet
                    || (snippet.count <= Snippet.width && trimmed.contains(String(window)))
            })
        {
            problems.append("the snippet \(fuzzShow(snippet)) is not a line of \(fuzzShow(text))")
        }
        let haystack = folder.foldedBytes(text)
        for needle in q.foldedTerms {
            let naive =
                needle.isEmpty
                ? 0
                : haystack.count < needle.count
                    ? nil
                    : (0...(haystack.count - needle.count)).first {
                        haystack[$0..<($0 + needle.count)].elementsEqual(needle)
                    }
            if TextFolding.firstIndex(of: needle, in: haystack) != naive {
                problems.append(
                    "the substring search disagrees with a naive one for \(fuzzShow(needle)) in \(fuzzShow(haystack))"
                )
            }
        }
        return problems
    }
}
