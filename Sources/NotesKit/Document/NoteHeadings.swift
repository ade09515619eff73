/// An ATX heading of a note: `## Title`.
public struct NoteHeading: Equatable, Sendable {
    /// 1 to 6: the number of `#`.
    public var level: Int
    /// The heading's text, without the `#`s, the blanks around it and a closing run of `#`.
    public var title: String
    /// The 0-based line of the file it is on.
    public var line: Int

    public init(level: Int, title: String, line: Int) {
        self.level = level
        self.title = title
        self.line = line
    }
}

/// Finds the headings of a note file: lines of the body (never the front matter) that start
/// with one to six `#` followed by a blank or the end of the line, outside fenced code.
public enum NoteHeadings {
    /// The headings of a note file's text, in order.
    public static func of(_ text: String) -> [NoteHeading] {
        let document = NoteDocument(parsing: text)
        var body = document.body
        let firstLine = NoteLinks.firstBodyLine(document) - 1
        return body.withUTF8 { bytes -> [NoteHeading] in
            let code = MarkdownCode.ranges(in: bytes)
            var headings: [NoteHeading] = []
            var line = firstLine
            var start = 0
            var codeIndex = 0
            while start <= bytes.count {
                var end = start
                while end < bytes.count && bytes[end] != 0x0A { end += 1 }
                while codeIndex < code.count && code[codeIndex].upperBound <= start { codeIndex += 1 }
                let inCode = codeIndex < code.count && code[codeIndex].lowerBound <= start
                if !inCode, let heading = heading(bytes, start..<end, line: line) { headings.append(heading) }
                line += 1
                start = end + 1
            }
            return headings
        }
    }

    private static func heading(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, line: Int)
        -> NoteHeading?
    {
        var i = range.lowerBound
        // Up to three blanks of indentation, as CommonMark allows.
        while i < range.upperBound && i - range.lowerBound < 3 && bytes[i] == 0x20 { i += 1 }
        var level = 0
        while i < range.upperBound && bytes[i] == UInt8(ascii: "#") {
            level += 1
            i += 1
        }
        guard (1...6).contains(level),
            i == range.upperBound || bytes[i] == 0x20 || bytes[i] == 0x09
                || bytes[i] == 0x0D
        else { return nil }
        let isBlank = { (b: UInt8) in b == 0x20 || b == 0x09 || b == 0x0D }
        var end = range.upperBound
        while end > i && isBlank(bytes[end - 1]) { end -= 1 }
        // A closing run of `#` after a blank is not part of the title.
        var closing = end
        while closing > i && bytes[closing - 1] == UInt8(ascii: "#") { closing -= 1 }
        if closing < end && (closing == i || isBlank(bytes[closing - 1])) { end = closing }
        while end > i && isBlank(bytes[end - 1]) { end -= 1 }
        while i < end && isBlank(bytes[i]) { i += 1 }
        let title = String(decoding: UnsafeBufferPointer(rebasing: bytes[i..<end]), as: UTF8.self)
        return NoteHeading(level: level, title: title, line: line)
    }
}
