import Foundation

/// The edits of one note file, in order.
public struct FileEdits: Equatable, Sendable {
    /// The note's vault path.
    public var path: String
    /// The edits, of its buffer when one was given, else of its file.
    public var edits: [ByteEdit]
}

extension NoteStore {
    /// Renaming the heading on `line` (1-based) of the note at vault path `path` to `text`: the
    /// heading's text on its line, and the `#…` of every link to it — `[[note#Old]]`,
    /// `[text](note.md#Old)` (percent-encoded, or as a slug when it was written as one) and
    /// `[[#Old]]` in the note itself — in the notes that link to the note. Only whole `#…` parts
    /// that name the heading change; `buffers` (vault path to text) are editors' unsaved
    /// buffers, read instead of their files. The note's own edits come first, then the others'
    /// by path. Nil when the line holds no heading.
    public func planHeadingRename(
        inNoteAt path: String, line: Int, to text: String, buffers: [String: String] = [:]
    ) -> [FileEdits]? {
        func textOf(_ path: String) -> String? {
            if let buffer = buffers[path] { return buffer }
            return (try? vault.load(path: path)).map { String(decoding: $0.bytes, as: UTF8.self) }
        }
        guard let own = textOf(path) else { return nil }
        let document = NoteDocument(parsing: own)
        guard let heading = NoteAnchors.of(document).headings.first(where: { $0.line == line }),
            let range = Self.headingTextRange(Array(own.utf8), line: line)
        else { return nil }
        let key = NoteAnchors.key(heading.text)
        let slug = NoteAnchors.slug(heading.text)
        let catalog = self.catalog
        var sources = Set(buffers.keys)
        if let note = catalog.note(atPath: path) {
            for site in catalog.backlinks(to: note) { sources.insert(site.source.path) }
        }
        sources.remove(path)
        var result = [FileEdits(path: path, edits: [ByteEdit(range: range, replacement: text)])]
        for source in [path] + sources.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            guard let content = source == path ? own : textOf(source) else { continue }
            let bytes = Array(content.utf8)
            let document = NoteDocument(parsing: content)
            let bodyStart = bytes.count - document.body.utf8.count
            var edits: [ByteEdit] = []
            for link in NoteLinks.all(document) {
                guard let written = link.heading else { continue }
                switch link.kind {
                case .sameNote: guard source == path else { continue }
                // An attachment link by its form may go to a note (`[p](Plan#Goal)`).
                case .note, .attachment:
                    guard catalog.target(of: link, from: source)?.path == path else { continue }
                }
                let markdown = link.style == .markdown
                let bySlug = markdown && written == slug && NoteAnchors.key(written) != key
                guard NoteAnchors.key(written) == key || bySlug,
                    let at = Self.headingRange(of: link, in: bytes, bodyStart: bodyStart)
                else { continue }
                let replacement =
                    bySlug ? NoteAnchors.slug(text) : markdown ? MoveRewriter.percentEncoded(text) : text
                edits.append(ByteEdit(range: at, replacement: replacement))
            }
            if source == path {
                result[0].edits = (result[0].edits + edits).sorted {
                    $0.range.lowerBound < $1.range.lowerBound
                }
            } else if !edits.isEmpty {
                result.append(FileEdits(path: source, edits: edits))
            }
        }
        return result
    }

    /// Where the text of the ATX heading on `line` (1-based) is: past the `#`s and blanks,
    /// before closing `#`s and trailing blanks, as `NoteAnchors` reads it.
    static func headingTextRange(_ bytes: [UInt8], line: Int) -> Range<Int>? {
        var start = 0
        var current = 1
        while current < line {
            guard let newline = bytes[start...].firstIndex(of: 0x0A) else { return nil }
            start = newline + 1
            current += 1
        }
        var end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
        if end > start && bytes[end - 1] == 0x0D { end -= 1 }
        var i = start
        while i < end && bytes[i] == 0x20 { i += 1 }
        while i < end && bytes[i] == UInt8(ascii: "#") { i += 1 }
        var hashes = end
        while hashes > i && bytes[hashes - 1] == UInt8(ascii: "#") { hashes -= 1 }
        if hashes < end && (hashes == i || bytes[hashes - 1] == 0x20 || bytes[hashes - 1] == 0x09) {
            end = hashes
        }
        while i < end && (bytes[i] == 0x20 || bytes[i] == 0x09) { i += 1 }
        while end > i && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) { end -= 1 }
        return end > i ? i..<end : nil
    }

    /// Where a link's `#…` is written in the text (without the `#`), when it is right after the
    /// target and reads as the link's heading.
    static func headingRange(of link: NoteLink, in bytes: [UInt8], bodyStart: Int) -> Range<Int>? {
        let hash = bodyStart + link.targetRange.upperBound
        let end = bodyStart + link.range.upperBound
        guard hash < end, bytes[hash] == UInt8(ascii: "#") else { return nil }
        let stops: [UInt8] =
            link.style == .markdown
            ? [UInt8(ascii: ")"), 0x20, UInt8(ascii: ">")] : [UInt8(ascii: "|"), UInt8(ascii: "]")]
        var i = hash + 1
        while i < end && !stops.contains(bytes[i]) { i += 1 }
        let raw = String(decoding: bytes[(hash + 1)..<i], as: UTF8.self)
        let shown = link.style == .markdown ? NoteLinks.percentDecoded(raw) : raw
        return shown == link.heading ? (hash + 1)..<i : nil
    }
}
