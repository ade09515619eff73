import Foundation

/// The tags of a note: the front-matter `tags` — a flow list, a block list, or one
/// string of tags separated by commas or blanks, a leading `#` dropped — then every `#tag` of the
/// body: a `#` at the start of a line or after a blank or `(` (not the `(` of a link's `](`),
/// followed by letters, marks, digits, `_`, `-` or `/`, not digits only, not escaped (`\#`), and
/// not in inline code or a fenced code block. A heading's `# ` is not a tag (a blank follows it).
/// A trailing `/` is not part of a tag. Tags compare folded; `a/b` is nested under `a`.
public enum NoteTags {
    /// The tags of `document` as spelled, in file order, front matter first, each folded tag once
    /// (the first spelling wins).
    public static func of(_ document: NoteDocument) -> [String] {
        let spellings = frontMatter(document.frontMatter) + body(document.body)
        // Most notes have no tag, or one in ASCII (which folds to itself, lower-cased, never to
        // nothing): nothing to fold. A tag that folds to nothing (a lone combining mark in the
        // front matter) is no tag, as the index has it.
        guard spellings.count > 1 || spellings.first?.utf8.contains(where: { $0 >= 0x80 }) == true else {
            return spellings
        }
        // A text folder with warm caches (a new one folds its first non-ASCII letters slowly).
        var folding = TextFolder.workers.take()
        defer { TextFolder.workers.give(folding) }
        return unique(spellings, folding: &folding).map(\.spelling)
    }

    /// `spellings` without repeats of a folded tag, each with its folded form.
    public static func unique(_ spellings: [String], folding: inout TextFolder) -> [(
        spelling: String, folded: [UInt8]
    )] {
        guard !spellings.isEmpty else { return [] }
        var seen: Set<[UInt8]> = []
        var out: [(String, [UInt8])] = []
        for spelling in spellings {
            let folded = folding.foldedBytes(spelling)
            if !folded.isEmpty && seen.insert(folded).inserted { out.append((spelling, folded)) }
        }
        return out
    }

    /// The tags of a front matter's `tags` entry, as written.
    public static func frontMatter(_ frontMatter: FrontMatter?) -> [String] {
        guard let entry = frontMatter?.entry("tags") else { return [] }
        let items: [Substring]
        switch entry.value {
        case .list(let list): items = list.map { Substring($0) }
        case .scalar(let string): items = string.split { $0 == "," || $0 == " " || $0 == "\t" }
        case .unmodelled: items = []
        }
        return items.compactMap { item in
            var tag = item.trimmingWhitespace()
            while tag.first == "#" { tag = tag.dropFirst() }
            return tag.isEmpty ? nil : String(tag)
        }
    }

    /// The `#tags` of a body, as written, in order (repeats included).
    public static func body(_ body: String) -> [String] {
        var body = body
        return body.withUTF8 { bytes -> [String] in
            var code = CodeCursor(bytes)
            return self.body(bytes, code: &code)
        }
    }

    /// `body(_:)` of a body's bytes, its code found through `code` (a cursor over the same bytes,
    /// rewound here), so the link and anchor scans of the same body need not look for it again.
    static func body(_ bytes: UnsafeBufferPointer<UInt8>, code: inout CodeCursor) -> [String] {
        guard let base = bytes.baseAddress else { return [] }
        code.rewind()
        var tags: [String] = []
        var i = 0
        // From one `#` to the next; only what looks like a tag is checked for code.
        while i < bytes.count, let hit = memchr(base + i, Int32(UInt8(ascii: "#")), bytes.count - i) {
            i = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            guard startsTag(bytes, at: i), let end = tagEnd(bytes, from: i + 1) else {
                i += 1
                continue
            }
            if let codeEnd = code.codeEnd(at: i) {
                i = codeEnd
                continue
            }
            tags.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[(i + 1)..<end]), as: UTF8.self))
            i = end
        }
        return tags
    }

    /// Whether the `#` at `i` may start a tag: at the start of a line, or after a blank or a `(`
    /// that is not a link destination's; and not escaped.
    private static func startsTag(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> Bool {
        guard i > 0 else { return true }
        switch bytes[i - 1] {
        case 0x0A, 0x20, 0x09: return true
        case UInt8(ascii: "("): return i < 2 || bytes[i - 2] != UInt8(ascii: "]")
        default: return false
        }
    }

    /// The end of the tag whose name starts at `start`, or nil when there is none there: the run
    /// of tag characters, without trailing `/`, and not digits only.
    private static func tagEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var i = start
        var end = start
        var onlyDigits = true
        while i < bytes.count {
            let (scalar, length) = decode(bytes, at: i)
            guard let kind = tagCharacter(scalar) else { break }
            i += length
            if kind != .slash { end = i }
            if kind != .digit && kind != .slash { onlyDigits = false }
        }
        return end > start && !onlyDigits ? end : nil
    }

    private enum TagCharacter { case letter, digit, slash }

    /// What `scalar` is in a tag, or nil when it ends one.
    private static func tagCharacter(_ scalar: Unicode.Scalar) -> TagCharacter? {
        switch scalar.value {
        case 0x30...0x39: return .digit
        case 0x41...0x5A, 0x61...0x7A, 0x5F, 0x2D: return .letter
        case 0x2F: return .slash
        case 0..<0x80: return nil
        default:
            switch scalar.properties.generalCategory {
            case .decimalNumber: return .digit
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                .nonspacingMark, .spacingMark, .enclosingMark:
                return .letter
            default: return nil
            }
        }
    }

    /// The scalar at `i` and its length in bytes; a byte that starts no valid sequence is U+FFFD.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (Unicode.Scalar, Int) {
        let b = bytes[i]
        if b < 0x80 { return (Unicode.Scalar(b), 1) }
        var length = 0
        if b & 0xE0 == 0xC0 {
            length = 2
        } else if b & 0xF0 == 0xE0 {
            length = 3
        } else if b & 0xF8 == 0xF0 {
            length = 4
        }
        guard length > 0, i + length <= bytes.count else { return ("\u{FFFD}", 1) }
        var value = UInt32(b) & (0xFF >> (length + 1))
        for k in 1..<length {
            let c = bytes[i + k]
            guard c & 0xC0 == 0x80 else { return ("\u{FFFD}", 1) }
            value = value << 6 | UInt32(c & 0x3F)
        }
        return (Unicode.Scalar(value) ?? "\u{FFFD}", length)
    }

    /// Whether `text` (without its `#`) is a tag as a body would spell it: a search term `#T`.
    public static func isTag(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in !bytes.isEmpty && tagEnd(bytes, from: 0) == bytes.count }
    }

    /// Whether the note tag `folded` is `wanted` or nested below it (`work/meetings` under `work`),
    /// both folded.
    public static func matches(_ folded: UnsafeRawBufferPointer, _ wanted: [UInt8]) -> Bool {
        guard folded.count >= wanted.count, !wanted.isEmpty, let base = folded.baseAddress else {
            return false
        }
        let prefixEqual = wanted.withUnsafeBytes { w in
            w.baseAddress.map { memcmp(base, $0, w.count) == 0 } ?? false
        }
        return prefixEqual && (folded.count == wanted.count || folded[wanted.count] == UInt8(ascii: "/"))
    }
}
