import Foundation

/// The code in a Markdown body — fenced code blocks and inline code spans — where tags and links
/// do not count, found in one pass over the UTF-8 bytes, and the other rules the tag
/// and link scanners share (escapes, line starts).
///
/// Fences are recognised at any indentation (inside a list item a fence is indented, and outside
/// one an indented fence is an indented code block: code either way) and inside block quotes
/// (`> ````); a fence opens with three or
/// more backticks or tildes and closes with a line of at least as many of the same character and
/// nothing else; an unclosed fence runs to the end. A code span is a run of backticks closed by the
/// next run of exactly as many, within the same paragraph (a blank line ends the search, as in
/// CommonMark); a backtick after a backslash opens nothing, and an unmatched run is plain text.
enum MarkdownCode {
    /// The byte ranges of `body` that are code, in order, not overlapping.
    ///
    /// Read line by line only where that can matter: a line without a backtick or a tilde opens no
    /// fence and holds no span, so while no fence and no paragraph with one is open, reading jumps
    /// to the line of the next backtick or tilde; and inside a fence, to the next line holding its
    /// character (only such a line can close it). A paragraph is then searched for spans from
    /// that line, not from where it began: there is no backtick between the two, and a run of
    /// backslashes before a backtick never crosses a line feed, so the spans are the same.
    static func ranges(in body: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        self.ranges(in: body, into: &ranges)
        return ranges
    }

    /// `ranges(in:)` written into `ranges` (emptied first, its memory kept).
    static func ranges(in body: UnsafeBufferPointer<UInt8>, into ranges: inout [Range<Int>]) {
        ranges.removeAll(keepingCapacity: true)
        guard let base = body.baseAddress else { return }
        let count = body.count
        func find(_ byte: UInt8, from: Int) -> Int {
            guard from < count, let hit = memchr(base + from, Int32(byte), count - from) else { return count }
            return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        }
        // The next backtick and the next tilde at or after where reading stands (`count`: none).
        var tick = find(UInt8(ascii: "`"), from: 0)
        var tilde = find(UInt8(ascii: "~"), from: 0)
        // Many notes have no backtick or tilde at all: nothing to find.
        guard tick < count || tilde < count else { return }
        /// The start of the line holding `i`, not before `floor` (a line start).
        func startOfLine(holding i: Int, from floor: Int) -> Int {
            var start = i
            while start > floor && body[start - 1] != 0x0A { start -= 1 }
            return start
        }
        var paragraphStart: Int?
        var fence: (start: Int, character: UInt8, length: Int)?
        var lineStart = 0
        while lineStart < count {
            if let open = fence {
                // Only a line holding the fence's character can close it.
                let next = find(open.character, from: lineStart)
                guard next < count else { break }
                lineStart = startOfLine(holding: next, from: lineStart)
            } else if paragraphStart == nil {
                if tick < lineStart { tick = find(UInt8(ascii: "`"), from: lineStart) }
                if tilde < lineStart { tilde = find(UInt8(ascii: "~"), from: lineStart) }
                let next = min(tick, tilde)
                guard next < count else { break }
                lineStart = startOfLine(holding: next, from: lineStart)
            }
            let lineEnd = find(0x0A, from: lineStart)
            let next = min(count, lineEnd + 1)
            let line = lineStart..<lineEnd
            if let open = fence {
                if closesFence(body, line, character: open.character, length: open.length) {
                    ranges.append(open.start..<lineEnd)
                    fence = nil
                }
            } else if let opened = opensFence(body, line) {
                if let start = paragraphStart { spans(body, start..<lineStart, into: &ranges) }
                paragraphStart = nil
                fence = (lineStart, opened.character, opened.length)
            } else if isBlank(body, line) {
                if let start = paragraphStart { spans(body, start..<lineStart, into: &ranges) }
                paragraphStart = nil
            } else if paragraphStart == nil {
                paragraphStart = lineStart
            }
            lineStart = next
        }
        if let open = fence { ranges.append(open.start..<count) }
        if let start = paragraphStart { spans(body, start..<count, into: &ranges) }
        ranges.sort { $0.lowerBound < $1.lowerBound }
    }

    /// The fence a line opens: optional blanks, then three or more backticks (whose info string
    /// holds no backtick) or tildes.
    static func opensFence(
        _ body: UnsafeBufferPointer<UInt8>, _ line: Range<Int>
    ) -> (character: UInt8, length: Int)? {
        var i = line.lowerBound
        while i < line.upperBound && (body[i] == 0x20 || body[i] == 0x09 || body[i] == UInt8(ascii: ">")) {
            i += 1
        }
        guard i < line.upperBound, body[i] == UInt8(ascii: "`") || body[i] == UInt8(ascii: "~") else {
            return nil
        }
        let character = body[i]
        var j = i
        while j < line.upperBound && body[j] == character { j += 1 }
        guard j - i >= 3 else { return nil }
        if character == UInt8(ascii: "`") && body[j..<line.upperBound].contains(UInt8(ascii: "`")) {
            return nil
        }
        return (character, j - i)
    }

    /// Whether a line closes a fence of `length` `character`s: blanks, at least that many, blanks.
    static func closesFence(
        _ body: UnsafeBufferPointer<UInt8>, _ line: Range<Int>, character: UInt8, length: Int
    ) -> Bool {
        var i = line.lowerBound
        while i < line.upperBound && (body[i] == 0x20 || body[i] == 0x09 || body[i] == UInt8(ascii: ">")) {
            i += 1
        }
        var j = i
        while j < line.upperBound && body[j] == character { j += 1 }
        guard j - i >= length else { return false }
        return body[j..<line.upperBound].allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }

    static func isBlank(_ body: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) -> Bool {
        body[line].allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }

    /// Adds the code spans of one paragraph. Read as CommonMark reads it from the left — a
    /// backslash escapes the byte after it, an unescaped run of backticks opens a span that the
    /// next run of exactly as many closes — but by jumping from backtick to backtick (`memchr`):
    /// a backtick is escaped when an odd run of backslashes ends just before it.
    private static func spans(
        _ body: UnsafeBufferPointer<UInt8>, _ paragraph: Range<Int>, into ranges: inout [Range<Int>]
    ) {
        guard let base = body.baseAddress else { return }
        let tick = UInt8(ascii: "`")
        let end = paragraph.upperBound
        /// The first backtick at or after `from`, before the paragraph's end.
        func nextTick(_ from: Int) -> Int? {
            guard from < end, let hit = memchr(base + from, Int32(tick), end - from) else { return nil }
            return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        }
        func runEnd(_ from: Int) -> Int {
            var k = from
            while k < end && body[k] == tick { k += 1 }
            return k
        }
        // Where reading resumes: the paragraph's start, or just after a backtick, so a run of
        // backslashes before the next backtick starts at or after it.
        var i = paragraph.lowerBound
        while let open = nextTick(i) {
            if isEscaped(body, open, from: i) {
                i = open + 1
                continue
            }
            let opened = runEnd(open)
            let length = opened - open
            // The closing run: the next run of exactly `length` backticks (backslashes are plain
            // text inside a code span).
            var j = opened
            var closed: Int?
            while let run = nextTick(j) {
                let k = runEnd(run)
                if k - run == length {
                    closed = k
                    break
                }
                j = k
            }
            if let closed {
                ranges.append(open..<closed)
                i = closed
            } else {
                i = opened
            }
        }
    }

    /// The code spans of one paragraph, as `ranges(in:)` finds them (for the tests).
    static func spans(_ body: UnsafeBufferPointer<UInt8>, _ paragraph: Range<Int>) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        spans(body, paragraph, into: &ranges)
        return ranges
    }

    /// Whether the byte at `i` is escaped: preceded by an odd number of backslashes.
    static func isEscaped(_ body: UnsafeBufferPointer<UInt8>, _ i: Int, from start: Int) -> Bool {
        var backslashes = 0
        var j = i - 1
        while j >= start && body[j] == UInt8(ascii: "\\") {
            backslashes += 1
            j -= 1
        }
        return backslashes % 2 == 1
    }
}

/// A cursor over the code ranges of a body, for scanners that walk it forward: whether a byte is
/// in code, and where the code it is in ends. The ranges are found when first asked for, so a
/// note with nothing that looks like a tag or a link is never searched for code.
struct CodeCursor {
    private let body: UnsafeBufferPointer<UInt8>
    /// The code ranges, once found; before that, memory to find them in.
    private var found: [Range<Int>]
    private var isFound = false
    private var next = 0

    /// A cursor over `body`, which must outlive it; with `storage`, the ranges are found in its
    /// memory (a reader that moves from note to note hands on the last cursor's, `storage()`).
    init(_ body: UnsafeBufferPointer<UInt8>, storage: [Range<Int>] = []) {
        self.body = body
        found = storage
    }

    /// Back to the start of the body, keeping the code ranges found: a second scan of the same
    /// body (anchors after links, block ids after headings) does not look for them again.
    mutating func rewind() { next = 0 }

    /// The memory of the ranges, for the next cursor's `storage` (this one is done with).
    mutating func storage() -> [Range<Int>] {
        var taken: [Range<Int>] = []
        swap(&taken, &found)
        isFound = false
        return taken
    }

    private var ranges: [Range<Int>] {
        mutating get {
            if !isFound {
                MarkdownCode.ranges(in: body, into: &found)
                isFound = true
            }
            return found
        }
    }

    /// The end of the code range holding byte `i` (which only grows between calls), or nil when
    /// `i` is not in code.
    mutating func codeEnd(at i: Int) -> Int? {
        let ranges = self.ranges
        while next < ranges.count && ranges[next].upperBound <= i { next += 1 }
        guard next < ranges.count, ranges[next].lowerBound <= i else { return nil }
        return ranges[next].upperBound
    }

    /// Whether any byte of `range` is code (for a construct that must lie outside code whole).
    mutating func overlaps(_ range: Range<Int>) -> Bool {
        let ranges = self.ranges
        let first = MarkdownCode.firstEnding(in: ranges, after: range.lowerBound)
        return first < ranges.count && ranges[first].lowerBound < range.upperBound
    }

    /// Whether code starts inside `range` and ends outside it, or the other way round (code
    /// wholly inside, as in `[[Note#`code`|text]]`, does not cross it).
    mutating func crosses(_ range: Range<Int>) -> Bool {
        let ranges = self.ranges
        var k = MarkdownCode.firstEnding(in: ranges, after: range.lowerBound)
        while k < ranges.count && ranges[k].lowerBound < range.upperBound {
            if ranges[k].lowerBound < range.lowerBound || ranges[k].upperBound > range.upperBound {
                return true
            }
            k += 1
        }
        return false
    }

}

extension MarkdownCode {
    /// The first of `ranges` (in order) that ends after `position`.
    static func firstEnding(in ranges: [Range<Int>], after position: Int) -> Int {
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].upperBound <= position { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
