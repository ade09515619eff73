/// A problem found in a user's file: reported as `warning: <path>:<line>: <message>`, never thrown.
public struct ParseWarning: Equatable, Sendable {
    /// 1-based line number in the file.
    public var line: Int
    /// What is wrong, as a sentence fragment.
    public var message: String

    /// Creates a warning.
    public init(line: Int, message: String) {
        self.line = line
        self.message = message
    }
}

/// The front matter of a note: its raw lines, kept byte for byte, and the `key: value` entries
/// of the YAML-like subset read from them (`key: value` scalars, inline and block lists).
public struct FrontMatter: Equatable, Sendable {
    /// A value of the modelled subset.
    public enum Value: Equatable, Sendable {
        /// A plain, single- or double-quoted scalar, unescaped.
        case scalar(String)
        /// An inline `[a, b]` or block (`- item`) list.
        case list([String])
        /// Valid YAML the subset does not model (nested map, block scalar, flow map): ignored.
        case unmodelled
    }

    /// One `key: value` entry.
    public struct Entry: Equatable, Sendable {
        /// The key as written.
        public var key: String
        /// The parsed value.
        public var value: Value
        /// Index into `lines` of the line holding the key.
        public var lineIndex: Int
    }

    /// The opening line with its terminator (`---\n` or `---\r\n`).
    public var opening: String
    /// The lines between the opening and closing lines, each with its own terminator.
    public var lines: [String]
    /// The closing line (`---` or `...`) with its terminator (none at the end of a file).
    public var closing: String
    /// The entries, in file order.
    public var entries: [Entry]

    /// The first entry for `key`.
    public func entry(_ key: String) -> Entry? { entries.first { $0.key == key } }

    /// The scalar value of the first entry for `key`, if it is a scalar.
    public func scalar(_ key: String) -> String? {
        if case .scalar(let s)? = entry(key)?.value { return s }
        return nil
    }

    /// The items of the first entry for `key`: a list's items, or a plain string as one item;
    /// each trimmed, empty ones dropped (`aliases: [a, b]`, a block list, or `aliases: a`).
    public func items(_ key: String) -> [String] {
        let raw: [String]
        switch entry(key)?.value {
        case .list(let list)?: raw = list
        case .scalar(let string)?: raw = [string]
        case .unmodelled?, nil: raw = []
        }
        return raw.compactMap { item in
            let trimmed = Substring(item).trimmingWhitespace()
            return trimmed.isEmpty ? nil : String(trimmed)
        }
    }

    /// The last line of the entry whose key is on line `index`: the key's line, or the last of the
    /// lines below it that its value goes on over — indented lines and `- item` lines, with the
    /// blank and comment lines among them — so that a line put after it does not cut the value.
    func lastLine(ofEntryAt index: Int) -> Int {
        var last = index
        for j in (index + 1)..<max(index + 1, lines.count) {
            let line = FrontMatter.stripTerminator(lines[j])
            let trimmed = line.trimmingWhitespace()
            if trimmed.isEmpty || (trimmed.hasPrefix("#") && line.first == "#") { continue }
            let indented = line.first == " " || line.first == "\t"
            guard indented || trimmed == "-" || trimmed.hasPrefix("- ") || trimmed.hasPrefix("-\t") else {
                break
            }
            last = j
        }
        return last
    }

    /// The text of the whole front matter, as in the file.
    public var text: String { opening + lines.joined() + closing }

    /// Reads the entries of `lines`; `firstLine` is the 1-based file line of `lines[0]`.
    /// With `byBytes` false, every line is read Character by Character (tests compare the two).
    static func parseEntries(
        _ lines: [String], firstLine: Int, warnings: inout [ParseWarning], byBytes: Bool = true
    ) -> [Entry] {
        var entries: [Entry] = []
        // The entry whose value was empty, so `- item` lines below it form its block list.
        var listOwner: Int?
        // True after a block scalar or nested map: indented lines below belong to it.
        var hasOwner = false
        for (index, raw) in lines.enumerated() {
            if byBytes, let entry = plainEntry(raw, lineIndex: index) {
                entries.append(entry)
                hasOwner = true
                listOwner = nil
                continue
            }
            let line = stripTerminator(raw)
            let lineNumber = firstLine + index
            let trimmed = line.trimmingWhitespace()
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let indented = line.first == " " || line.first == "\t"
            if trimmed == "-" || trimmed.hasPrefix("- ") || trimmed.hasPrefix("-\t") {
                if let owner = listOwner {
                    let item = trimmed.dropFirst().trimmingWhitespace()
                    if case .list(var items) = entries[owner].value {
                        if let v = parseScalar(item, line: lineNumber, warnings: &warnings) {
                            items.append(v)
                        }
                        entries[owner].value = .list(items)
                    } else {
                        let v = parseScalar(item, line: lineNumber, warnings: &warnings)
                        entries[owner].value = .list(v.map { [$0] } ?? [])
                    }
                    continue
                }
                if indented && hasOwner { continue }
                warnings.append(ParseWarning(line: lineNumber, message: "a list item outside of any key"))
                continue
            }
            if indented {
                if hasOwner {
                    // A nested map or block scalar: kept verbatim, not modelled.
                    if let owner = listOwner, case .scalar("") = entries[owner].value {
                        entries[owner].value = .unmodelled
                    }
                    listOwner = nil
                    continue
                }
                warnings.append(
                    ParseWarning(line: lineNumber, message: "an indented line outside of any key"))
                continue
            }
            guard let (key, rest) = splitKey(line) else {
                warnings.append(ParseWarning(line: lineNumber, message: "expected 'key: value'"))
                listOwner = nil
                hasOwner = false
                continue
            }
            let known = warnings.count
            var value = parseValue(rest, line: lineNumber, warnings: &warnings)
            // A quoted scalar or flow list that goes on over indented lines is valid YAML the
            // subset does not model: kept, ignored, no warning.
            if warnings.count > known, index + 1 < lines.count,
                lines[index + 1].first == " " || lines[index + 1].first == "\t"
            {
                warnings.removeSubrange(known...)
                value = .unmodelled
            }
            entries.append(Entry(key: key, value: value, lineIndex: index))
            hasOwner = true
            if case .scalar("") = value, rest.trimmingWhitespace().first != "\"",
                rest.trimmingWhitespace().first != "'"
            {
                listOwner = entries.count - 1
            } else {
                listOwner = nil
            }
        }
        return entries
    }

    /// The entry of a line that is `key: value` in ASCII with a plain value that is not empty and
    /// holds no comment — most lines, such as `createdAt: 2024-03-01T09:30:00Z` — read by bytes;
    /// nil for any other line, which the reader above takes Character by Character. (In ASCII each
    /// byte is a Character, so both read such a line alike.)
    static func plainEntry(_ raw: String, lineIndex: Int) -> Entry? {
        var raw = raw
        return raw.withUTF8 { b -> Entry? in
            var end = b.count
            if end > 0 && b[end - 1] == 0x0A {
                end -= 1
                if end > 0 && b[end - 1] == 0x0D { end -= 1 }
            }
            // Not blank, indented, a comment or a list item.
            guard end > 0, b[0] != 0x20, b[0] != 0x09, b[0] != UInt8(ascii: "#"), b[0] != UInt8(ascii: "-")
            else { return nil }
            var colon: Int?
            for i in 0..<end {
                guard b[i] < 0x80 else { return nil }
                if colon == nil && b[i] == UInt8(ascii: ":")
                    && (i + 1 == end || b[i + 1] == 0x20 || b[i + 1] == 0x09)
                {
                    colon = i
                }
            }
            guard let colon else { return nil }
            func blank(_ i: Int) -> Bool { b[i] == 0x20 || b[i] == 0x09 }
            var keyEnd = colon
            while keyEnd > 0 && blank(keyEnd - 1) { keyEnd -= 1 }
            var start = colon + 1
            var valueEnd = end
            while start < end && blank(start) { start += 1 }
            while valueEnd > start && blank(valueEnd - 1) { valueEnd -= 1 }
            // An empty value may own a list below; the others open a quote, a list, a comment or
            // what the subset does not model.
            guard keyEnd > 0, start < valueEnd, !"#|>{&*![\"'".utf8.contains(b[start]) else { return nil }
            for i in start..<valueEnd where b[i] == UInt8(ascii: "#") && blank(i - 1) { return nil }
            return Entry(
                key: String(decoding: UnsafeBufferPointer(rebasing: b[0..<keyEnd]), as: UTF8.self),
                value: .scalar(
                    String(decoding: UnsafeBufferPointer(rebasing: b[start..<valueEnd]), as: UTF8.self)),
                lineIndex: lineIndex)
        }
    }

    /// Splits `key: value` at the first colon followed by a blank or the end of the line.
    static func splitKey(_ line: Substring) -> (String, Substring)? {
        // An ASCII line (most are) by bytes: each byte is a Character there.
        let utf8 = line.utf8
        if utf8.allSatisfy({ $0 < 0x80 }) {
            guard
                let colon = utf8.indices.first(where: { i in
                    utf8[i] == UInt8(ascii: ":")
                        && (utf8.index(after: i) == utf8.endIndex || utf8[utf8.index(after: i)] == 0x20
                            || utf8[utf8.index(after: i)] == 0x09)
                })
            else { return nil }
            let key = line[line.startIndex..<colon].trimmingWhitespace()
            guard !key.isEmpty else { return nil }
            return (String(key), line[utf8.index(after: colon)...])
        }
        var i = line.startIndex
        while i < line.endIndex {
            if line[i] == ":" {
                let next = line.index(after: i)
                if next == line.endIndex || line[next] == " " || line[next] == "\t" {
                    let key = line[line.startIndex..<i].trimmingWhitespace()
                    guard !key.isEmpty else { return nil }
                    return (String(key), line[next...])
                }
            }
            i = line.index(after: i)
        }
        return nil
    }

    static func parseValue(_ raw: Substring, line: Int, warnings: inout [ParseWarning]) -> Value {
        let text = raw.trimmingWhitespace()
        guard let first = text.first else { return .scalar("") }
        switch first {
        case "#": return .scalar("")
        case "|", ">", "{", "&", "*", "!": return .unmodelled
        case "[": return parseInlineList(text, line: line, warnings: &warnings)
        default:
            guard let s = parseScalar(text, line: line, warnings: &warnings) else { return .unmodelled }
            return .scalar(s)
        }
    }

    static func parseInlineList(_ text: Substring, line: Int, warnings: inout [ParseWarning]) -> Value {
        var items: [String] = []
        var quote: Character?
        var i = text.index(after: text.startIndex)
        var closed = false
        var itemStart = i
        while i < text.endIndex {
            let c = text[i]
            if let q = quote {
                if c == q {
                    if q == "'", text.index(after: i) < text.endIndex, text[text.index(after: i)] == "'" {
                        i = text.index(i, offsetBy: 2)
                        continue
                    }
                    quote = nil
                } else if c == "\\", q == "\"" {
                    i = text.index(after: i)
                    if i == text.endIndex { break }
                }
            } else if c == "\"" || c == "'" {
                quote = c
            } else if c == "," || c == "]" {
                let piece = text[itemStart..<i].trimmingWhitespace()
                if !piece.isEmpty {
                    if let v = parseScalar(piece, line: line, warnings: &warnings) { items.append(v) }
                }
                itemStart = text.index(after: i)
                if c == "]" {
                    closed = true
                    i = text.index(after: i)
                    break
                }
            }
            i = text.index(after: i)
        }
        guard closed else {
            warnings.append(ParseWarning(line: line, message: "an inline list without its closing ']'"))
            return .unmodelled
        }
        let rest = text[i...].trimmingWhitespace()
        if !rest.isEmpty && !rest.hasPrefix("#") {
            warnings.append(ParseWarning(line: line, message: "unexpected text after a list"))
        }
        return .list(items)
    }

    /// A plain, 'single' or "double" quoted scalar; nil (with a warning) when a quote is unclosed.
    static func parseScalar(_ text: Substring, line: Int, warnings: inout [ParseWarning]) -> String? {
        guard let first = text.first else { return "" }
        if first == "'" {
            var out = ""
            var i = text.index(after: text.startIndex)
            while i < text.endIndex {
                let c = text[i]
                if c == "'" {
                    let next = text.index(after: i)
                    if next < text.endIndex, text[next] == "'" {
                        out.append("'")
                        i = text.index(after: next)
                        continue
                    }
                    checkTrailing(text[next...], line: line, warnings: &warnings)
                    return out
                }
                out.append(c)
                i = text.index(after: i)
            }
            warnings.append(
                ParseWarning(line: line, message: "a single-quoted value without its closing quote"))
            return nil
        }
        if first == "\"" {
            var out = String.UnicodeScalarView()
            let scalars = text.unicodeScalars
            var i = scalars.index(after: scalars.startIndex)
            while i < scalars.endIndex {
                let c = scalars[i]
                if c == "\"" {
                    checkTrailing(
                        Substring(scalars[scalars.index(after: i)...]), line: line, warnings: &warnings)
                    return String(out)
                }
                if c == "\\" {
                    let n = scalars.index(after: i)
                    guard n < scalars.endIndex else { break }
                    let e = scalars[n]
                    i = scalars.index(after: n)
                    switch e {
                    case "n": out.append("\n")
                    case "t": out.append("\t")
                    case "r": out.append("\r")
                    case "0": out.append("\0")
                    case "e": out.append("\u{1B}")
                    case "u", "U", "x":
                        let width = e == "u" ? 4 : e == "U" ? 8 : 2
                        var hex = ""
                        var j = i
                        while hex.count < width, j < scalars.endIndex, scalars[j].properties.isASCIIHexDigit {
                            hex.unicodeScalars.append(scalars[j])
                            j = scalars.index(after: j)
                        }
                        if hex.count == width, let v = UInt32(hex, radix: 16), let s = Unicode.Scalar(v) {
                            out.append(s)
                            i = j
                        } else {
                            warnings.append(ParseWarning(line: line, message: "a bad \\\(e) escape"))
                            out.append(e)
                        }
                    default: out.append(e)
                    }
                    continue
                }
                out.append(c)
                i = scalars.index(after: i)
            }
            warnings.append(
                ParseWarning(line: line, message: "a double-quoted value without its closing quote"))
            return nil
        }
        // Plain scalar: a '#' after a blank starts a comment.
        let utf8 = text.utf8
        if utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII (most values, dates among them) by bytes: each byte is a Character there.
            var previous: UInt8 = 0x20
            for i in utf8.indices {
                if utf8[i] == UInt8(ascii: "#") && (previous == 0x20 || previous == 0x09)
                    && i != utf8.startIndex
                {
                    return String(text[text.startIndex..<i].trimmingWhitespace())
                }
                previous = utf8[i]
            }
            return String(text.trimmingWhitespace())
        }
        var end = text.endIndex
        var i = text.startIndex
        var previous: Character = " "
        while i < text.endIndex {
            if text[i] == "#" && (previous == " " || previous == "\t") && i != text.startIndex {
                end = i
                break
            }
            previous = text[i]
            i = text.index(after: i)
        }
        return String(text[text.startIndex..<end].trimmingWhitespace())
    }

    static func checkTrailing(_ rest: Substring, line: Int, warnings: inout [ParseWarning]) {
        let t = rest.trimmingWhitespace()
        if !t.isEmpty && !t.hasPrefix("#") {
            warnings.append(ParseWarning(line: line, message: "unexpected text after a quoted value"))
        }
    }

    static func stripTerminator(_ raw: String) -> Substring {
        // Works on UTF-8 because "\r\n" is a single Character.
        var end = raw.utf8.endIndex
        if end > raw.utf8.startIndex, raw.utf8[raw.utf8.index(before: end)] == 0x0A {
            end = raw.utf8.index(before: end)
            if end > raw.utf8.startIndex, raw.utf8[raw.utf8.index(before: end)] == 0x0D {
                end = raw.utf8.index(before: end)
            }
        }
        return raw[raw.startIndex..<end]
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    func trimmingWhitespace() -> Substring {
        // By bytes: a space or tab byte is a space or tab Character unless it joins a non-ASCII
        // neighbour into one Character (a space and a combining mark after it; a prepended mark
        // and a space after it). Only there do Characters decide, grapheme by grapheme, below.
        var s = Substring(self)
        let trimmed = s.utf8.withContiguousStorageIfAvailable { b -> Range<Int>? in
            var start = 0
            var end = b.count
            while start < end && (b[start] == 0x20 || b[start] == 0x09) { start += 1 }
            while end > start && (b[end - 1] == 0x20 || b[end - 1] == 0x09) { end -= 1 }
            if start > 0 && start < end && b[start] >= 0x80 { return nil }
            if end < b.count && end > start && b[end - 1] >= 0x80 { return nil }
            return start..<end
        }
        if let trimmed = trimmed ?? nil {
            if trimmed.count == s.utf8.count { return s }
            let utf8 = s.utf8
            let from = utf8.index(utf8.startIndex, offsetBy: trimmed.lowerBound)
            return s[from..<utf8.index(from, offsetBy: trimmed.count)]
        }
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return s
    }
}
