import Foundation

/// A search's snippet: the first line of a note's searchable text that holds a term looked for,
/// trimmed, as written. A line longer than `width` Characters is cut to a window around its first
/// match, at most `before` Characters of it before the match, with `…` at each cut (the marks
/// count in both). The text is read a piece at a time, so a note that is one 20 MB line costs a
/// few pieces of memory, and reading stops once the window is found.
public enum Snippet {
    /// The most Characters a snippet holds, its `…` marks included.
    public static let width = 200
    /// The most Characters before the match, a leading `…` included.
    public static let before = 60
    /// The most bytes of a line looked at at once.
    static let piece = 8192

    /// The lines of a text read from a source a buffer at a time: each line comes in pieces of at
    /// most `Snippet.piece` bytes (cut before an ASCII byte where there is one near the cut, so a
    /// piece rarely splits a Character), never whole.
    public struct Lines {
        /// Reads bytes at an offset into a buffer; returns how many (0 at the end, or on failure).
        public typealias Source = (UnsafeMutableRawBufferPointer, Int) -> Int

        private let source: Source
        private var buffer: [UInt8]
        private var start = 0
        private var end = 0
        /// The source's offset of `buffer[end]`.
        private var offset: Int
        private var finished = false

        /// The lines of `source` from `offset` on, read `bufferSize` bytes at a time at most.
        public init(offset: Int = 0, bufferSize: Int = 65_536, source: @escaping Source) {
            self.source = source
            self.offset = offset
            buffer = [UInt8](repeating: 0, count: max(bufferSize, Snippet.piece * 2))
        }

        /// The lines of bytes in memory.
        public init(bytes: [UInt8]) {
            self.init(bufferSize: min(max(bytes.count + 1, 4096), 65_536)) { out, offset in
                guard offset < bytes.count else { return 0 }
                let n = min(out.count, bytes.count - offset)
                bytes.withUnsafeBytes {
                    out.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[offset..<offset + n]))
                }
                return n
            }
        }

        /// The source offset of the next byte a piece would hold.
        public var position: Int { offset - (end - start) }

        private mutating func fill(_ wanted: Int) {
            if buffer.count - start < wanted && start > 0 {
                buffer.withUnsafeMutableBytes { raw in
                    guard let base = raw.baseAddress else { return }
                    memmove(base, base + start, end - start)
                }
                end -= start
                start = 0
            }
            while !finished && end - start < wanted && end < buffer.count {
                let n = buffer.withUnsafeMutableBytes { raw in
                    source(UnsafeMutableRawBufferPointer(rebasing: raw[end...]), offset)
                }
                if n <= 0 {
                    finished = true
                } else {
                    end += n
                    offset += n
                }
            }
        }

        /// The next piece of the current line, without its LF (and a CR before it), and whether the
        /// line ends with it; nil at the end of the text.
        public mutating func next() -> (bytes: ArraySlice<UInt8>, endsLine: Bool)? {
            let limit = Snippet.piece
            fill(limit + 1)
            guard start < end || !finished else { return nil }
            let scan = min(end - start, limit + 1)
            let scanned = buffer[start..<(start + scan)]
            if let newline = scanned.firstIndex(of: 0x0A) {
                var last = newline
                if last > start && buffer[last - 1] == 0x0D { last -= 1 }
                defer { start = newline + 1 }
                return (buffer[start..<last], true)
            }
            if finished && end - start <= limit {
                // The last line: a CR at its end is dropped too, as `Note.forEachLine` does.
                let last = end > start && buffer[end - 1] == 0x0D ? end - 1 : end
                defer { start = end }
                return (buffer[start..<last], true)
            }
            // Cut at a scalar boundary, and if there is one near it, before an ASCII byte.
            var cut = start + limit
            while cut > start + 1 && buffer[cut] & 0xC0 == 0x80 { cut -= 1 }
            if let ascii = buffer[max(start + 1, cut - 256)...cut].lastIndex(where: { $0 < 0x80 }) {
                cut = ascii
            }
            defer { start = cut }
            return (buffer[start..<cut], false)
        }
    }

    /// Looks through lines for the first that holds a term, and makes its snippet.
    struct Finder {
        /// The folded terms looked for (empty ones never match a line).
        let terms: [[UInt8]]
        var folding: TextFolder
        /// How many Characters of a long line are kept from one piece to the next: enough for
        /// the context before a match and for a match that starts in one piece and ends in the next.
        let kept: Int

        init(terms: [[UInt8]], folding: TextFolder) {
            self.terms = terms.filter { !$0.isEmpty }
            self.folding = folding
            kept = Snippet.before + (self.terms.map(\.count).max() ?? 0) + 4
        }

        /// The snippet of the first line of `lines` holding a term, if any does.
        mutating func first(in lines: Lines) -> String? {
            guard !terms.isEmpty else { return nil }
            var lines = lines
            while let piece = lines.next() {
                if let snippet = line(starting: piece, of: &lines) { return snippet }
            }
            return nil
        }

        /// The snippet of the line that starts with `piece`, going on through `lines` for its
        /// other pieces; nil when it holds no term (the line is then read to its end). Pieces are
        /// folded as bytes; only the one holding the match is made into Characters.
        private mutating func line(
            starting piece: (bytes: ArraySlice<UInt8>, endsLine: Bool), of lines: inout Lines
        ) -> String? {
            var piece = piece
            // The end of the line before this piece, enough of it for the context of a match.
            var before: [UInt8] = []
            // Whether `before` starts at the line's start.
            var fromStart = true
            let keptBytes = kept * 16
            while true {
                let context = before + piece.bytes
                let folded = context.withUnsafeBufferPointer { folding.foldedBytes(utf8: $0) }
                if terms.contains(where: { TextFolding.contains(folded, $0) }) {
                    var text = Array(String(decoding: context, as: UTF8.self))
                    if fromStart { text.removeFirst(text.prefix { $0.isBlank }.count) }
                    if let match = firstMatch(in: text) {
                        var endsLine = piece.endsLine
                        while !endsLine && text.count - match < Snippet.width, let more = lines.next() {
                            text += Array(String(decoding: more.bytes, as: UTF8.self))
                            endsLine = more.endsLine
                        }
                        if endsLine { text.removeLast(text.reversed().prefix { $0.isBlank }.count) }
                        return Snippet.window(text, match: match, startsLine: fromStart, endsLine: endsLine)
                    }
                }
                if piece.endsLine { return nil }
                if context.count > keptBytes {
                    fromStart = false
                    // From a scalar's first byte.
                    var cut = context.count - keptBytes
                    while cut < context.count && context[cut] & 0xC0 == 0x80 { cut += 1 }
                    before = Array(context[cut...])
                } else {
                    before = context
                }
                guard let next = lines.next() else { return nil }
                piece = next
            }
        }

        /// The offset of the first Character where a term starts, folding each on its own.
        private mutating func firstMatch(in characters: [Character]) -> Int? {
            var folded: [UInt8] = []
            var owners: [Int] = []
            for (i, character) in characters.enumerated() {
                let bytes = folding.foldedBytes(String(character))
                folded += bytes
                owners += repeatElement(i, count: bytes.count)
            }
            let starts = terms.compactMap { TextFolding.firstIndex(of: $0, in: folded) }
            return starts.min().map { owners[$0] }
        }
    }

    /// The window of a line's Characters (trimmed where it starts or ends the line) around the
    /// match at offset `match`.
    static func window(_ text: [Character], match: Int, startsLine: Bool, endsLine: Bool) -> String {
        if startsLine && endsLine && text.count <= width { return String(text) }
        var lower = 0
        var lead = ""
        if !startsLine || match > before {
            lower = max(0, match - (before - 1))
            lead = lower > 0 || !startsLine ? "…" : ""
        }
        let room = width - lead.count - (match - lower)
        var upper = text.count
        var trail = ""
        if !endsLine || text.count - match > room {
            upper = min(text.count, match + room - 1)
            trail = "…"
        }
        return lead + String(text[lower..<max(lower, upper)]) + trail
    }
}

extension Character {
    /// A space or a tab, as `trimmingCharacters(in: .whitespaces)` trims.
    fileprivate var isBlank: Bool {
        unicodeScalars.allSatisfy { CharacterSet.whitespaces.contains($0) }
    }
}
