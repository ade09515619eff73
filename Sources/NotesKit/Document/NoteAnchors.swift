import Foundation

/// A heading of a note: `## Text` (ATX; setext underlines are not read).
public struct NoteHeading: Equatable, Sendable {
    /// 1 to 6, the number of `#`s.
    public var level: Int
    /// The text as written, without the marks and closing `#`s, trimmed.
    public var text: String
    /// The 1-based line of the file.
    public var line: Int
}

/// A block id: `^block-id` at the end of a line, as Obsidian writes them to name the paragraph,
/// list item or table it ends.
public struct NoteBlock: Equatable, Sendable {
    /// The id as written, without the `^`.
    public var id: String
    /// The 1-based line of the file.
    public var line: Int
}

/// What `[[Note#Heading]]` and `[[Note#^block-id]]` can point at in a note: its headings and
/// block ids, outside fenced code and code spans, and how a link's `#…` is matched with them.
public struct NoteAnchors: Equatable, Sendable {
    /// The headings, in file order.
    public var headings: [NoteHeading] = []
    /// The block ids, in file order.
    public var blocks: [NoteBlock] = []

    public init(headings: [NoteHeading] = [], blocks: [NoteBlock] = []) {
        self.headings = headings
        self.blocks = blocks
    }

    /// The anchors of a parsed note file, with file line numbers.
    public static func of(_ document: NoteDocument) -> NoteAnchors {
        of(body: document.body, firstLine: NoteLinks.firstBodyLine(document))
    }

    /// The anchors of `body`; `firstLine` is the file's line number of its first line.
    public static func of(body: String, firstLine: Int = 1) -> NoteAnchors {
        var body = body
        return body.withUTF8 { bytes in scan(bytes, firstLine: firstLine) }
    }

    /// Only the lines a `#` starts (after up to three blanks) can be headings, and only those
    /// with a `^` can end with a block id: the scan goes from one such byte to the next, not line
    /// by line.
    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>, firstLine: Int) -> NoteAnchors {
        var code = CodeCursor(bytes)
        return scan(bytes, firstLine: firstLine, code: &code)
    }

    /// `scan(_:firstLine:)` with the code of `bytes` found through `code`, a cursor over the same
    /// bytes (anywhere: it is rewound for each pass), which keeps the ranges for the next pass.
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>, firstLine: Int, code: inout CodeCursor)
        -> NoteAnchors
    {
        var spans = Spans()
        scan(bytes, firstLine: firstLine, code: &code, into: &spans)
        func string(_ range: Range<Int>) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }
        return NoteAnchors(
            headings: spans.headings.map {
                NoteHeading(level: $0.level, text: string($0.text), line: $0.line)
            },
            blocks: spans.blocks.map { NoteBlock(id: string($0.id), line: $0.line) })
    }

    /// A note's headings and block ids as spans of its body, as `scan` finds them: no string made,
    /// and memory a reader uses again for every note (`removeAll` keeps it).
    struct Spans {
        /// Each heading's level, its text's bytes (as `NoteHeading.text` has them) and its line.
        var headings: [(level: Int, text: Range<Int>, line: Int)] = []
        /// Each block id's bytes (without the `^`) and its line.
        var blocks: [(id: Range<Int>, line: Int)] = []

        mutating func removeAll() {
            headings.removeAll(keepingCapacity: true)
            blocks.removeAll(keepingCapacity: true)
        }
    }

    /// `scan(_:firstLine:code:)`, the anchors appended to `spans` as spans of `bytes`.
    static func scan(
        _ bytes: UnsafeBufferPointer<UInt8>, firstLine: Int, code: inout CodeCursor, into spans: inout Spans
    ) {
        let count = bytes.count
        guard let base = bytes.baseAddress else { return }
        func find(_ byte: UInt8, from i: Int) -> Int? {
            guard i < count, let hit = memchr(base + i, Int32(byte), count - i) else { return nil }
            return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        }
        /// The end of the line holding `i`, and its end without trailing blanks.
        func lineEnd(_ i: Int) -> (end: Int, last: Int) {
            let end = find(0x0A, from: i) ?? count
            var last = end
            while last > i && (bytes[last - 1] == 0x20 || bytes[last - 1] == 0x09 || bytes[last - 1] == 0x0D)
            {
                last -= 1
            }
            return (end, last)
        }
        // Headings (lines a `#` starts), then block ids (lines with a `^`).
        for pass in 0..<2 {
            let isHeadingPass = pass == 0
            let byte = isHeadingPass ? UInt8(ascii: "#") : UInt8(ascii: "^")
            code.rewind()
            var line = firstLine
            var counted = 0
            func lineNumber(at position: Int) -> Int {
                while counted < position, let hit = find(0x0A, from: counted), hit < position {
                    line += 1
                    counted = hit + 1
                }
                counted = max(counted, position)
                return line
            }
            var i = 0
            while let hit = find(byte, from: i) {
                var start = hit
                if isHeadingPass {
                    var blanks = 0
                    while start > 0 && bytes[start - 1] == 0x20 && blanks < 3 {
                        start -= 1
                        blanks += 1
                    }
                    guard start == 0 || bytes[start - 1] == 0x0A else {
                        i = hit + 1
                        continue
                    }
                } else {
                    while start > 0 && bytes[start - 1] != 0x0A { start -= 1 }
                }
                let (end, last) = lineEnd(hit)
                if isHeadingPass {
                    if let heading = heading(bytes, start..<last), code.codeEnd(at: start) == nil {
                        spans.headings.append((heading.level, heading.text, lineNumber(at: start)))
                    }
                } else if let id = block(bytes, start..<last), code.codeEnd(at: id.lowerBound - 1) == nil {
                    spans.blocks.append((id, lineNumber(at: start)))
                }
                i = end + 1
            }
        }
    }

    /// The ATX heading a line is: up to three blanks, one to six `#`, then a blank or the end.
    /// Its level and its text's bytes, without the marks and closing `#`s, trimmed.
    private static func heading(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>)
        -> (level: Int, text: Range<Int>)?
    {
        var i = line.lowerBound
        while i < line.upperBound && i - line.lowerBound < 3 && bytes[i] == 0x20 { i += 1 }
        var level = 0
        while i < line.upperBound && bytes[i] == UInt8(ascii: "#") {
            level += 1
            i += 1
        }
        guard (1...6).contains(level), i == line.upperBound || bytes[i] == 0x20 || bytes[i] == 0x09 else {
            return nil
        }
        var end = line.upperBound
        // Closing `#`s, after a blank (or making up the whole text).
        var hashes = end
        while hashes > i && bytes[hashes - 1] == UInt8(ascii: "#") { hashes -= 1 }
        if hashes < end && (hashes == i || bytes[hashes - 1] == 0x20 || bytes[hashes - 1] == 0x09) {
            end = hashes
        }
        while i < end && (bytes[i] == 0x20 || bytes[i] == 0x09) { i += 1 }
        while end > i && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) { end -= 1 }
        guard end > i else { return nil }
        return (level, i..<end)
    }

    /// The block id ending a line (trailing blanks taken off): `^` after a blank, at the line's
    /// start or right after a link or embed (`![[a.png]]^id`), then letters, digits and `-`.
    /// Its bytes, without the `^`.
    private static func block(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) -> Range<Int>? {
        var i = line.upperBound
        while i > line.lowerBound, isBlockIDByte(bytes[i - 1]) { i -= 1 }
        guard i < line.upperBound, i > line.lowerBound, bytes[i - 1] == UInt8(ascii: "^") else { return nil }
        let caret = i - 1
        if caret > line.lowerBound {
            switch bytes[caret - 1] {
            case 0x20, 0x09, UInt8(ascii: "]"), UInt8(ascii: ")"): break
            default: return nil
            }
        }
        return i..<line.upperBound
    }

    private static func isBlockIDByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
    }

    // MARK: Matching a link's `#…`

    /// What a link's `#…` (`heading`, as the link has it) asks of its note.
    public enum Want: Equatable, Sendable {
        /// Nothing (`[[Note#]]`).
        case nothing
        /// A block with this id.
        case block(String)
        /// These headings, each under the one before (`[[Note#A#B]]`: a B below an A).
        case headings([String])
    }

    /// What the `#…` of a link asks for: `^id` a block; else each `#`-separated part a heading.
    public static func want(_ heading: String) -> Want {
        let trimmed = heading.drop { $0 == " " || $0 == "\t" }
        if trimmed.hasPrefix("^") {
            let id = trimmed.dropFirst().prefix { $0 != "#" }
            return id.isEmpty ? .nothing : .block(String(id))
        }
        let parts = heading.split(separator: "#").map { NoteAnchors.key(String($0)) }.filter { !$0.isEmpty }
        return parts.isEmpty ? .nothing : .headings(parts)
    }

    /// Whether the note has what `want` asks for. Headings compare as Obsidian matches them:
    /// ignoring case, with ASCII punctuation other than `-` and `_` and runs of blanks taken as
    /// one blank (`## Step 1: install?` is `[[Note#Step 1 install]]`, `` ### `hasTag()` `` is
    /// `[[Functions#hasTag]]`); a Markdown link's fragment may also be the heading's GitHub-style
    /// slug (`#step-1-install`). Block ids compare ignoring case.
    public func has(_ want: Want, markdown: Bool = false) -> Bool {
        Matcher(self).has(want, markdown: markdown)
    }

    /// The 1-based line of what `want` asks for — the last heading of the path, or the block —
    /// matched as `has` matches; nil when the note has none (or `want` asks for nothing).
    public func line(of want: Want, markdown: Bool = false) -> Int? {
        switch want {
        case .nothing: return nil
        case .block(let id): return blocks.first { $0.id.lowercased() == id.lowercased() }?.line
        case .headings(let parts):
            var matched = 0
            var level = 0
            var line: Int?
            for heading in headings where matched < parts.count && heading.level > level {
                if NoteAnchors.key(heading.text) == parts[matched]
                    || (markdown && NoteAnchors.slug(heading.text) == parts[matched])
                {
                    matched += 1
                    level = heading.level
                    line = heading.line
                }
            }
            return matched == parts.count ? line : nil
        }
    }

    /// A note's anchors as compared, made once for the many links to one note.
    public struct Matcher: Sendable {
        private let headings: [(level: Int, key: String, text: String)]
        private let blocks: Set<String>

        public init(_ anchors: NoteAnchors) {
            headings = anchors.headings.map {
                ($0.level, NoteAnchors.key($0.text), $0.text)
            }
            blocks = Set(anchors.blocks.map { $0.id.lowercased() })
        }

        /// `NoteAnchors.has(_:markdown:)`.
        public func has(_ want: Want, markdown: Bool = false) -> Bool {
            switch want {
            case .nothing: return true
            case .block(let id): return blocks.contains(id.lowercased())
            case .headings(let parts):
                var matched = 0
                var level = 0
                for heading in headings where matched < parts.count && heading.level > level {
                    if heading.key == parts[matched]
                        || (markdown && NoteAnchors.slug(heading.text) == parts[matched])
                    {
                        matched += 1
                        level = heading.level
                    }
                }
                return matched == parts.count
            }
        }
    }

    /// A heading (or a link's heading) as compared: NFC, lower-cased, ASCII punctuation (but `-`
    /// and `_`) and runs of blanks made one blank, trimmed.
    static func key(_ text: String) -> String {
        // Most headings are ASCII: done on bytes.
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            var out: [UInt8] = []
            out.reserveCapacity(text.utf8.count)
            var blank = false
            for byte in text.utf8 {
                if byte <= 0x20 || byte == 0x7F || asciiPunctuation[Int(byte)] {
                    blank = !out.isEmpty
                    continue
                }
                if blank { out.append(0x20) }
                blank = false
                out.append(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte)
            }
            return String(decoding: out, as: UTF8.self)
        }
        var out = ""
        var blank = false
        for character in text.precomposedStringWithCanonicalMapping.lowercased() {
            if character.isWhitespace || NoteAnchors.punctuation.contains(character) {
                blank = !out.isEmpty
                continue
            }
            if blank { out.append(" ") }
            blank = false
            out.append(character)
        }
        return out
    }

    /// What a heading's comparison takes as a blank.
    private static let punctuation: Set<Character> = Set("!\"#$%&'()*+,./:;<=>?@[\\]^`{|}~")
    /// `punctuation` by ASCII code.
    private static let asciiPunctuation: [Bool] = (0..<128).map { code in
        punctuation.contains(Character(Unicode.Scalar(UInt8(code))))
    }

    /// The GitHub-style anchor of a heading: lower-cased, letters, digits, `-` and `_` kept, each
    /// blank a `-`, the rest dropped.
    static func slug(_ text: String) -> String {
        var out = ""
        for character in text.precomposedStringWithCanonicalMapping.lowercased() {
            if character == " " {
                out.append("-")
            } else if character.isLetter || character.isNumber || character == "-" || character == "_" {
                out.append(character)
            }
        }
        return out
    }
}
