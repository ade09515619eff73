import Foundation

/// What is being typed at a place of a note's text, when completion can help: a `[[link`'s
/// target or its `#heading`, a `#tag`, or a Markdown link's `](path`. Nothing in the front
/// matter, in inline code or in a fenced code block.
public enum CompletionSite: Equatable, Sendable {
    /// After `[[`: `typed` is the text since then; `closed` when `]]` (or the `#` or `|` of a
    /// link being edited) follows the cursor already.
    case note(typed: String, range: Range<Int>, closed: Bool)
    /// After `[[target#`: the heading typed so far.
    case heading(target: String, typed: String, range: Range<Int>, closed: Bool)
    /// After a `#` that starts a tag, with some of it typed.
    case tag(typed: String, range: Range<Int>)
    /// After `](`: the path typed so far; `closed` when `)` follows.
    case path(typed: String, range: Range<Int>, closed: Bool)

    /// The site at byte `offset` of `text`; `range` is where the typed text is, in bytes.
    public static func at(_ offset: Int, in text: String) -> CompletionSite? {
        let bytes = Array(text.utf8)
        guard offset >= 0, offset <= bytes.count else { return nil }
        let document = NoteDocument(parsing: text)
        let bodyStart = bytes.count - document.body.utf8.count
        guard offset >= bodyStart, !isCode(offset - bodyStart, in: document.body) else { return nil }
        var lineStart = offset
        while lineStart > bodyStart && bytes[lineStart - 1] != 0x0A { lineStart -= 1 }
        let line = Array(bytes[lineStart..<offset])
        let after = bytes[offset...].prefix { $0 != 0x0A && $0 != 0x0D }
        func string(_ from: Int) -> String { String(decoding: line[from...], as: UTF8.self) }
        func range(_ from: Int) -> Range<Int> { (lineStart + from)..<offset }

        if let open = lastIndex(of: [0x5B, 0x5B], in: line), open == 0 || line[open - 1] != 0x5C {
            let start = open + 2
            let typed = line[start...]
            if !typed.contains(0x5B) && !typed.contains(0x5D) && !typed.contains(0x7C) {
                if let hash = typed.firstIndex(of: 0x23) {
                    guard !line[(hash + 1)...].contains(0x5E) else { return nil }
                    return .heading(
                        target: String(decoding: line[start..<hash], as: UTF8.self), typed: string(hash + 1),
                        range: range(hash + 1),
                        closed: after.starts(with: [0x5D, 0x5D]) || after.first == 0x7C)
                }
                let closed = after.starts(with: [0x5D, 0x5D]) || after.first == 0x23 || after.first == 0x7C
                return .note(typed: string(start), range: range(start), closed: closed)
            }
        }
        if let open = lastIndex(of: [0x5D, 0x28], in: line) {
            let start = open + 2
            let typed = line[start...]
            let stops: [UInt8] = [0x29, 0x20, 0x09, 0x3C, 0x3A, 0x5B, 0x5D]
            if !typed.contains(where: stops.contains), typed.first != 0x23, !isImage(line, closingAt: open) {
                return .path(typed: string(start), range: range(start), closed: after.first == 0x29)
            }
        }
        if let hash = line.lastIndex(of: 0x23), startsTag(line, at: hash) {
            let typed = string(hash + 1)
            var name = Substring(typed)
            while name.hasSuffix("/") { name = name.dropLast() }
            if NoteTags.isTag(String(name)) { return .tag(typed: typed, range: range(hash + 1)) }
        }
        return nil
    }

    /// Whether byte `offset` of `body` is inside code. A fence left open runs to the end, so the
    /// body is read with a line after the cursor's, which an open fence takes in and a closed
    /// code span does not.
    private static func isCode(_ offset: Int, in body: String) -> Bool {
        var padded = body + "\nx"
        return padded.withUTF8 { buffer in
            MarkdownCode.ranges(in: buffer).contains { $0.lowerBound < offset && offset < $0.upperBound }
        }
    }

    /// Whether the `]` at `close` ends an image's alt text (`![alt](`), whose destination is no link.
    private static func isImage(_ line: [UInt8], closingAt close: Int) -> Bool {
        guard let open = line[..<close].lastIndex(of: 0x5B) else { return false }
        return open > 0 && line[open - 1] == 0x21
    }

    /// Whether the `#` at `i` may start a tag: at the start of the line, or after a blank or a
    /// `(` that is not a link destination's.
    private static func startsTag(_ line: [UInt8], at i: Int) -> Bool {
        guard i > 0 else { return true }
        switch line[i - 1] {
        case 0x20, 0x09: return true
        case 0x28: return i < 2 || line[i - 2] != 0x5D
        default: return false
        }
    }

    private static func lastIndex(of pair: [UInt8], in line: [UInt8]) -> Int? {
        guard line.count >= 2 else { return nil }
        return (0...(line.count - 2)).last { line[$0] == pair[0] && line[$0 + 1] == pair[1] }
    }
}
