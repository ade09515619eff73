/// How an editor counts columns: the protocol's UTF-16 code units, or UTF-8 bytes.
public enum PositionEncoding: String, Sendable {
    case utf16 = "utf-16"
    case utf8 = "utf-8"
}

/// A text's lines, to turn an editor's (line, column) positions into UTF-8 byte offsets and back.
/// A position past the end of a line is at its end; past the last line, at the end of the text.
public struct TextPositions: Sendable {
    /// The text's bytes.
    public let bytes: [UInt8]
    /// Where each line starts, in bytes; the first is 0.
    private let lineStarts: [Int]

    public init(_ text: String) {
        bytes = Array(text.utf8)
        var starts = [0]
        for (i, b) in bytes.enumerated() where b == 0x0A { starts.append(i + 1) }
        lineStarts = starts
    }

    /// The number of lines (a final newline starts an empty last line).
    public var lineCount: Int { lineStarts.count }

    /// The byte range of line `line` (0-based), without its line break.
    public func lineRange(_ line: Int) -> Range<Int> {
        let line = max(0, min(line, lineStarts.count - 1))
        let start = lineStarts[line]
        var end = line + 1 < lineStarts.count ? lineStarts[line + 1] - 1 : bytes.count
        if end > start && bytes[end - 1] == 0x0D { end -= 1 }
        return start..<end
    }

    /// The byte offset of (`line`, `column`), clamped to the line and the text.
    public func offset(line: Int, column: Int, encoding: PositionEncoding) -> Int {
        guard line >= 0 else { return 0 }
        guard line < lineStarts.count else { return bytes.count }
        let range = lineRange(line)
        var i = range.lowerBound
        var units = 0
        while i < range.upperBound {
            let length = Self.scalarLength(bytes[i])
            let width = encoding == .utf8 ? length : (length == 4 ? 2 : 1)
            if units + width > column { break }
            units += width
            i = min(i + length, range.upperBound)
        }
        return i
    }

    /// The (line, column) of byte `offset`.
    public func position(of offset: Int, encoding: PositionEncoding) -> (line: Int, column: Int) {
        let offset = max(0, min(offset, bytes.count))
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        let start = lineStarts[low]
        if encoding == .utf8 { return (low, offset - start) }
        var units = 0
        var i = start
        while i < offset {
            let length = Self.scalarLength(bytes[i])
            units += length == 4 ? 2 : 1
            i += length
        }
        return (low, units)
    }

    /// The length of the UTF-8 sequence a lead byte starts (1 for a stray continuation byte).
    private static func scalarLength(_ lead: UInt8) -> Int {
        switch lead {
        case 0xF0...: return 4
        case 0xE0...: return 3
        case 0xC0...: return 2
        default: return 1
        }
    }
}
