import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// The start of a note file, read a piece at a time rather than whole: where its body starts (as
/// `NoteDocument` splits it) and the aliases of its front matter. A front matter larger than
/// `largest` is stepped over, its aliases left out, so that a huge file costs no more memory
/// than a small one.
struct NoteFileStart {
    /// The front matter's `aliases`.
    var aliases: [String] = []
    /// The offset of the body's first byte.
    var bodyOffset = 0

    /// The most bytes of front matter kept to read its aliases from.
    static let largest = 262_144

    /// Reads the start of the text of `lines`, which must be at its first byte.
    init(_ lines: inout Snippet.Lines) {
        guard let first = lines.next() else { return }
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let hasBOM = first.bytes.starts(with: bom)
        let afterBOM = hasBOM ? 3 : 0
        bodyOffset = afterBOM
        guard first.endsLine, NoteFileStart.isDelimiter(first.bytes.dropFirst(afterBOM), closing: false)
        else { return }
        var kept: [String] = []
        var size = 0
        // Whether the next piece starts a line.
        var lineStart = true
        while let piece = lines.next() {
            if lineStart && piece.endsLine && NoteFileStart.isDelimiter(piece.bytes, closing: true) {
                bodyOffset = lines.position
                if size <= NoteFileStart.largest {
                    let text = "---\n" + kept.map { $0 + "\n" }.joined() + "---\n"
                    aliases = NoteDocument(parsing: text).aliases
                }
                return
            }
            size += piece.bytes.count + 1
            if size <= NoteFileStart.largest {
                let text = String(decoding: piece.bytes, as: UTF8.self)
                if lineStart { kept.append(text) } else { kept[kept.count - 1] += text }
            }
            lineStart = piece.endsLine
        }
    }

    /// Whether a whole line (without its line ending) opens or closes a front matter.
    static func isDelimiter(_ bytes: ArraySlice<UInt8>, closing: Bool) -> Bool {
        guard bytes.count < 256 else { return false }
        let content = String(decoding: bytes, as: UTF8.self).trimmingWhitespace()
        return content == "---" || (closing && content == "...")
    }
}

extension NoteStore {
    /// The first line of a note's searchable text holding a term of `query`, read from its file
    /// a piece at a time (the index keeps only folded text), cut to a window around the match
    /// (`Snippet`): for the notes a listing shows, not for every hit. Nil when no line holds a
    /// term, or the file cannot be read.
    public func snippet(for note: Note, query: SearchQuery) -> String? {
        guard !query.foldedTerms.isEmpty else { return nil }
        return FileSystem.withOpenFile(vault.fullPath(note.path)) { fd -> String? in
            let source = FileSystem.reader(fd)
            var lines = Snippet.Lines(source: source)
            let start = NoteFileStart(&lines)
            let head = (note.titleIsOutsideBody ? [note.title] : []) + start.aliases
            var finder = Snippet.Finder(terms: query.foldedTerms, folding: TextFolder())
            if !head.isEmpty,
                let found = finder.first(
                    in: Snippet.Lines(bytes: Array(head.map { $0 + "\n" }.joined().utf8)))
            {
                return found
            }
            return finder.first(in: Snippet.Lines(offset: start.bodyOffset, source: source))
        } ?? nil
    }

    /// The first `count` lines of a note's body, each cut to `length` bytes at most, read from its
    /// file: never more than `budget` bytes of the body, so that a note that is one 20 MB line
    /// costs no more than a short one (the preview pane). Nil when the file cannot be read.
    public func firstLines(of note: Note, count: Int, length: Int = 1024, budget: Int = 65_536) -> [String]? {
        FileSystem.withOpenFile(vault.fullPath(note.path)) { fd -> [String] in
            let source = FileSystem.reader(fd)
            var lines = Snippet.Lines(source: source)
            let start = NoteFileStart(&lines)
            lines = Snippet.Lines(offset: start.bodyOffset, bufferSize: Snippet.piece * 2, source: source)
            var out: [String] = []
            var current: [UInt8]? = nil
            while out.count < count, lines.position - start.bodyOffset <= budget, let piece = lines.next() {
                var line = current ?? []
                if line.count < length { line += piece.bytes.prefix(length - line.count) }
                current = line
                if piece.endsLine {
                    out.append(Snippet.decodedPrefix(line))
                    current = nil
                }
            }
            if let current, out.count < count { out.append(Snippet.decodedPrefix(current)) }
            return out
        }
    }
}

extension Snippet {
    /// Bytes cut anywhere, decoded without the partial Character at their end.
    static func decodedPrefix(_ bytes: [UInt8]) -> String {
        var end = bytes.count
        // A scalar cut in two at the end is left out, not shown as a replacement character.
        var back = 0
        while back < 3 && end - back > 0 && bytes[end - back - 1] & 0xC0 == 0x80 { back += 1 }
        if end - back > 0 && bytes[end - back - 1] >= 0xC0 {
            let lead = bytes[end - back - 1]
            let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
            if back + 1 < length { end -= back + 1 }
        }
        return String(decoding: bytes[..<end], as: UTF8.self)
    }
}

extension FileSystem {
    /// Opens a regular file to read (not following a final symlink, not waiting on a FIFO) and
    /// calls `body` with its descriptor, closed after; nil when it cannot be opened.
    static func withOpenFile<R>(_ path: String, _ body: (Int32) -> R) -> R? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, makeStatus(st).kind == .regular else { return nil }
        return body(fd)
    }

    /// A source of bytes at offsets of an open file (`pread`); 0 at its end or on an error.
    static func reader(_ fd: Int32) -> Snippet.Lines.Source {
        { buffer, offset in
            while true {
                let n = pread(fd, buffer.baseAddress, buffer.count, off_t(offset))
                if n < 0 && errno == EINTR { continue }
                return max(n, 0)
            }
        }
    }
}
