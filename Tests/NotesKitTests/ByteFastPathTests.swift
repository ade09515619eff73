import Foundation
import TestSupport
import Testing

@testable import NotesKit

/// Reading a note takes shortcuts by bytes where the text is ASCII (each byte is a Character
/// there): a plain `key: value` front-matter line, a heading line, a run of ASCII being folded,
/// the search for line ends. Each shortcut must give what the Character-by-Character way gives;
/// these tests compare the two on seeded random inputs made of the characters each one treats
/// specially, and of a few that are not ASCII so that the slow way is taken too.
@Suite struct ByteFastPathTests {
    @Test func frontMatterLinesReadByBytesAsByCharacters() {
        var rng = SplitMix(seed: 41)
        let pieces = [
            "key", "createdAt", ":", ": ", " ", "\t", "#", " #", "-", "- ", "'", "\"", "[", "]", "|",
            ">", "{", "&", "*", "!", "v", "2024-03-01T09:30:00Z", "a:b", "\r", "é", "\u{0301}", "\u{0600}",
        ]
        for _ in 0..<4000 {
            let lines = (0..<Int.random(in: 1...3, using: &rng)).map { _ in
                (0..<Int.random(in: 0...7, using: &rng)).map { _ in pieces.randomElement(using: &rng) ?? "" }
                    .joined()
                    + (Bool.random(using: &rng) ? "\n" : "\r\n")
            }
            var fastWarnings: [ParseWarning] = []
            var slowWarnings: [ParseWarning] = []
            let fast = FrontMatter.parseEntries(lines, firstLine: 2, warnings: &fastWarnings)
            let slow = FrontMatter.parseEntries(lines, firstLine: 2, warnings: &slowWarnings, byBytes: false)
            #expect(fast == slow, "\(lines)")
            #expect(fastWarnings == slowWarnings, "\(lines)")
        }
        // And the lines the shortcut is for are read by it, as expected.
        var warnings: [ParseWarning] = []
        let entries = FrontMatter.parseEntries(
            ["createdAt: 2024-03-01T09:30:00Z\n", "title:\tPlan a:b  \r\n"],
            firstLine: 2, warnings: &warnings)
        #expect(entries.map(\.key) == ["createdAt", "title"])
        #expect(entries.map(\.value) == [.scalar("2024-03-01T09:30:00Z"), .scalar("Plan a:b")])
        #expect(FrontMatter.plainEntry("title: Plan # later\n", lineIndex: 0) == nil)
        #expect(FrontMatter.plainEntry("title: Plan#1\n", lineIndex: 0)?.value == .scalar("Plan#1"))
    }

    @Test func headingsStripByBytesAsByCharacters() {
        var rng = SplitMix(seed: 43)
        // Letters outside ASCII that read by bytes, and what must not (a mark that joins the
        // blank or `#` before it, blanks outside ASCII).
        let pieces = [
            "#", "#", " ", "\t", "a", "Title", "\r", "é", "Жук", "中", "\u{301}", "\u{A0}", "\u{3000}",
            "\u{85}",
        ]
        for _ in 0..<4000 {
            let line = (0..<Int.random(in: 0...10, using: &rng)).map { _ in
                pieces.randomElement(using: &rng) ?? ""
            }.joined()
            #expect(
                Note.stripHeading(line[...]) == Note.stripHeadingByCharacters(line[...]),
                "\(Array(line.utf8))")
        }
        #expect(Note.stripHeading("  ## Plan for Monday ##  ") == "Plan for Monday")
        #expect(Note.stripHeading("####### seven") == "####### seven")
        #expect(Note.stripHeading("#hashtag") == "#hashtag")
        #expect(Note.stripHeading("# #") == "")
    }

    /// A run of ASCII ends at the first byte with its high bit set, found eight bytes at a time;
    /// here that byte sits at every place of a word, and the letters around it are the edges of
    /// the upper-case range (`@` and `[` are not letters).
    @Test func asciiRunsEndWhereverTheFirstOtherLetterIs() {
        let ascii = Array("Ab@Z[z`{AZMN09 .,Q")
        for before in 0..<40 {
            for after in [0, 1, 7, 8, 9, 23] {
                let head = String((0..<before).map { ascii[$0 % ascii.count] })
                let tail = String((0..<after).map { ascii[($0 + 5) % ascii.count] })
                #expect(
                    TextFolding.fold(head + "Él" + tail) == head.lowercased() + "el" + tail.lowercased(),
                    "\(before) \(after)")
                #expect(TextFolding.fold(head + "ÖÉ" + tail) == head.lowercased() + "oe" + tail.lowercased())
            }
        }
    }

    @Test func linesAreSplitOnLineFeedsWithACarriageReturnDropped() {
        #expect(Note.lines(of: "") == [])
        #expect(Note.lines(of: "a") == ["a"])
        #expect(Note.lines(of: "a\n") == ["a"])
        #expect(Note.lines(of: "a\r\n\nb\rc\r\n\r") == ["a", "", "b\rc", ""])
        #expect(Note.lines(of: "\n\n") == ["", ""])
        #expect(Note.lines(of: "é\nß\r\nz") == ["é", "ß", "z"])
    }

    /// Whether a link's destination starts with a URL scheme, by bytes where they tell, must be
    /// what the Characters say: marks that join the colon, letters outside ASCII, a prepended
    /// sign before it.
    @Test func schemesByBytesAsByCharacters() {
        var rng = SplitMix(seed: 47)
        let pieces = [
            "http", "s", ":", "//", "a", "Z", "1", "+", "-", ".", "/", "x.md", " ", "é", "Ж", "\u{301}",
            "\u{200D}",
            "\u{600}", "%3A", "\r", "\n",
        ]
        for _ in 0..<6000 {
            let destination = (0..<Int.random(in: 0...6, using: &rng)).map { _ in
                pieces.randomElement(using: &rng) ?? ""
            }.joined()
            #expect(
                NoteLinks.hasScheme(destination) == NoteLinks.hasSchemeByCharacters(destination),
                "\(Array(destination.unicodeScalars))")
        }
        #expect(NoteLinks.hasScheme("https://example.com"))
        #expect(NoteLinks.hasScheme("obsidian://open?vault=x"))
        #expect(NoteLinks.hasScheme("mailto:a@b.c"))
        #expect(!NoteLinks.hasScheme("notes/a.md"))
        #expect(!NoteLinks.hasScheme("1http://x"))
        #expect(!NoteLinks.hasScheme("crème:x.md"))
        #expect(!NoteLinks.hasScheme(":x.md"))
    }

    /// The index finds a note's links and anchors with one look for the body's code, shared
    /// between the scans (and the anchors' two passes); that must find what each scan finds on
    /// its own, whatever the code, headings, block ids and links of the body.
    @Test func linksAndAnchorsSharingTheCodeAsEachAlone() {
        var rng = SplitMix(seed: 43)
        let pieces = [
            "`", "``", "```", "~~~", "\n", "\n\n", "# ", "## H", "#", " ^b1", "^id", "[[Note]]",
            "[[A#`c`|t]]", "[x](y.md)", "![i](p.png)", "[[#Here]]", "text", " ", "\\", "é", "> ",
        ]
        for _ in 0..<3000 {
            let body = (0..<Int.random(in: 0...24, using: &rng)).map { _ in
                pieces.randomElement(using: &rng) ?? ""
            }
            .joined()
            let firstLine = Int.random(in: 1...9, using: &rng)
            var bytes = body
            let (links, anchors) = bytes.withUTF8 { bytes in
                var code = CodeCursor(bytes)
                let links = NoteLinks.scan(bytes, firstLine: firstLine, everything: true, code: &code)
                return (links, NoteAnchors.scan(bytes, firstLine: firstLine, code: &code))
            }
            #expect(links == NoteLinks.all(body: body, firstLine: firstLine), "\(body)")
            #expect(anchors == NoteAnchors.of(body: body, firstLine: firstLine), "\(body)")
        }
    }

    /// A note file's lines are taken one at a time with memchr over the bytes: each must be what
    /// looking for the line feed in the UTF-8 view gives, terminator included.
    @Test func nextLineFoundByBytesAsInTheUTF8View() {
        var rng = SplitMix(seed: 47)
        let pieces = ["a", "---", "\n", "\r\n", "\r", " ", "é", "\u{FEFF}", "\u{0301}", "東"]
        for _ in 0..<2000 {
            let text = (0..<Int.random(in: 0...12, using: &rng)).map { _ in
                pieces.randomElement(using: &rng) ?? ""
            }
            .joined()
            var rest = Substring(text)
            while true {
                let line = NoteDocument.nextLine(rest)
                let utf8 = rest.utf8
                let expected =
                    utf8.firstIndex(of: 0x0A).map { rest[rest.startIndex..<utf8.index(after: $0)] } ?? rest
                #expect(line == expected && line.endIndex == expected.endIndex, "\(text)")
                guard !line.isEmpty else { break }
                rest = rest[line.endIndex...]
            }
        }
    }

    /// Code spans found by jumping from backtick to backtick are those found byte by byte:
    /// escapes (odd and even runs of backslashes, one right after a span), runs of several
    /// backticks, unmatched runs, a backslash at the paragraph's end.
    @Test func codeSpansFoundByJumpsAsByBytes() {
        var rng = SplitMix(seed: 43)
        let pieces = ["`", "``", "```", "\\", "\\\\", "a", "é", " ", "\\`", "x`y`", "\n"]
        for _ in 0..<20000 {
            let text = (0..<Int.random(in: 0...12, using: &rng)).map { _ in
                pieces.randomElement(using: &rng) ?? ""
            }.joined()
            let bytes = Array(text.utf8)
            bytes.withUnsafeBufferPointer { body in
                let start = body.isEmpty ? 0 : Int.random(in: 0...min(2, body.count), using: &rng)
                let paragraph = start..<body.count
                #expect(
                    MarkdownCode.spans(body, paragraph) == spansByBytes(body, paragraph),
                    "\(text)")
            }
        }
        let fixed: [(String, [Range<Int>])] = [
            ("`a`", [0..<3]), ("\\`a`", []), ("\\\\`a`", [2..<5]), ("``a`b``", [0..<7]), ("`a", []),
            ("`a`\\`b`", [0..<3]), ("a\\", []),
        ]
        for (text, expected) in fixed {
            let bytes = Array(text.utf8)
            bytes.withUnsafeBufferPointer { body in
                #expect(MarkdownCode.spans(body, 0..<body.count) == expected, "\(text)")
            }
        }
    }
    /// Code found by jumping to the lines that hold a backtick or a tilde (and, in a fence, its
    /// character) is the code found line by line: fences of backticks and tildes, indented and
    /// quoted, closed and not, spans across lines of a paragraph, blank lines of blanks.
    @Test func codeFoundByJumpsAsLineByLine() {
        var rng = SplitMix(seed: 47)
        let pieces = [
            "`", "``", "```", "~~~", "~", "````", "\n", "\n\n", " \n", "\t", " ", "  ```", "> ```", ">",
            "a", "é", "\\", "x`y`", "b\n",
        ]
        for _ in 0..<30000 {
            let text = (0..<Int.random(in: 0...16, using: &rng)).map { _ in
                pieces.randomElement(using: &rng) ?? ""
            }.joined()
            let bytes = Array(text.utf8)
            bytes.withUnsafeBufferPointer { body in
                #expect(MarkdownCode.ranges(in: body) == codeLineByLine(body), "\(text.debugDescription)")
            }
        }
    }
}

/// The code of a body read line by line from the first, as `MarkdownCode.ranges(in:)` read it
/// before it jumped between backticks and tildes: what `codeFoundByJumpsAsLineByLine` holds it to.
private func codeLineByLine(_ body: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
    var ranges: [Range<Int>] = []
    var paragraphStart: Int?
    var fence: (start: Int, character: UInt8, length: Int)?
    var lineStart = 0
    let count = body.count
    while lineStart < count {
        var lineEnd = lineStart
        while lineEnd < count && body[lineEnd] != 0x0A { lineEnd += 1 }
        let line = lineStart..<lineEnd
        if let open = fence {
            if MarkdownCode.closesFence(body, line, character: open.character, length: open.length) {
                ranges.append(open.start..<lineEnd)
                fence = nil
            }
        } else if let opened = MarkdownCode.opensFence(body, line) {
            if let start = paragraphStart { ranges += MarkdownCode.spans(body, start..<lineStart) }
            paragraphStart = nil
            fence = (lineStart, opened.character, opened.length)
        } else if MarkdownCode.isBlank(body, line) {
            if let start = paragraphStart { ranges += MarkdownCode.spans(body, start..<lineStart) }
            paragraphStart = nil
        } else if paragraphStart == nil {
            paragraphStart = lineStart
        }
        lineStart = min(count, lineEnd + 1)
    }
    if let open = fence { ranges.append(open.start..<count) }
    if let start = paragraphStart { ranges += MarkdownCode.spans(body, start..<count) }
    return ranges.sorted { $0.lowerBound < $1.lowerBound }
}

/// The code spans of one paragraph, byte by byte from the left, as `MarkdownCode` found them
/// before it jumped from backtick to backtick: what `codeSpansFoundByJumpsAsByBytes` holds it to.
private func spansByBytes(_ body: UnsafeBufferPointer<UInt8>, _ paragraph: Range<Int>) -> [Range<Int>] {
    var ranges: [Range<Int>] = []
    var i = paragraph.lowerBound
    let end = paragraph.upperBound
    while i < end {
        let byte = body[i]
        if byte == UInt8(ascii: "\\") {
            i += 2
            continue
        }
        guard byte == UInt8(ascii: "`") else {
            i += 1
            continue
        }
        var runEnd = i
        while runEnd < end && body[runEnd] == UInt8(ascii: "`") { runEnd += 1 }
        let length = runEnd - i
        var j = runEnd
        var closed: Int?
        while j < end {
            guard body[j] == UInt8(ascii: "`") else {
                j += 1
                continue
            }
            var k = j
            while k < end && body[k] == UInt8(ascii: "`") { k += 1 }
            if k - j == length {
                closed = k
                break
            }
            j = k
        }
        if let closed {
            ranges.append(i..<closed)
            i = closed
        } else {
            i = runEnd
        }
    }
    return ranges
}
