import Foundation

/// A note file split into its parts — BOM, front matter, body — so that it can be rewritten
/// changing only what must change (round-trip fidelity).
public struct NoteDocument: Equatable, Sendable {
    /// Whether the file starts with a UTF-8 byte order mark.
    public var hasBOM: Bool
    /// The front matter, if the file has one that is closed.
    public var frontMatter: FrontMatter?
    /// Everything after the front matter (or the whole file), as written.
    public var body: String
    /// The file's line ending: CRLF when its first line ends with one, else LF.
    public var lineEnding: String
    /// Problems found while reading; 1-based file line numbers.
    public var warnings: [ParseWarning]

    /// The keys a creation date is read from, in order.
    public static let creationKeys = ["createdAt", "created", "date"]

    /// The keys whose values must be dates: the creation keys and `updatedAt`.
    static let dateKeys = creationKeys + ["updatedAt"]

    /// The front-matter `aliases`: other names of the note, searched like its title.
    public var aliases: [String] { frontMatter?.items("aliases") ?? [] }

    /// Splits `text` (the file's contents, decoded as UTF-8) into its parts.
    public init(parsing text: String) {
        var rest = Substring(text)
        hasBOM = rest.unicodeScalars.first == "\u{FEFF}"
        if hasBOM { rest = Substring(rest.unicodeScalars.dropFirst()) }
        warnings = []
        frontMatter = nil
        let firstLine = Self.nextLine(rest)
        lineEnding = firstLine.hasSuffix("\r\n") ? "\r\n" : "\n"
        // Delimiter lines may carry trailing blanks, as YAML, Jekyll and Hugo allow.
        guard FrontMatter.stripTerminator(String(firstLine)).trimmingWhitespace() == "---" else {
            // The text itself when there is no BOM to drop: a note's body is not copied.
            body = hasBOM ? String(rest) : text
            return
        }
        // Set once, below, to what follows the front matter (or to all of it when it is not closed).
        body = ""
        var lines: [String] = []
        var cursor = rest[firstLine.endIndex...]
        while !cursor.isEmpty {
            let line = Self.nextLine(cursor)
            cursor = cursor[line.endIndex...]
            let content = FrontMatter.stripTerminator(String(line)).trimmingWhitespace()
            if content == "---" || content == "..." {
                var entryWarnings: [ParseWarning] = []
                let entries = FrontMatter.parseEntries(lines, firstLine: 2, warnings: &entryWarnings)
                frontMatter = FrontMatter(
                    opening: String(firstLine), lines: lines, closing: String(line), entries: entries)
                body = String(cursor)
                warnings = entryWarnings
                return
            }
            lines.append(String(line))
        }
        body = hasBOM ? String(rest) : text
        warnings.append(
            ParseWarning(
                line: 1, message: "front matter has no closing '---' line; the whole file is read as the body"
            ))
    }

    /// The ending of the first line of `text` that has one: CRLF or LF; nil for text with no LF.
    static func firstLineEnding(of text: String) -> String? {
        let utf8 = text.utf8
        guard let newline = utf8.firstIndex(of: 0x0A) else { return nil }
        return newline > utf8.startIndex && utf8[utf8.index(before: newline)] == 0x0D ? "\r\n" : "\n"
    }

    /// The line at the start of `text`, with its LF terminator if it has one.
    static func nextLine(_ text: Substring) -> Substring {
        let utf8 = text.utf8
        // The line feed found with memchr where the bytes are at hand (a native string's always).
        let found = utf8.withContiguousStorageIfAvailable { bytes -> Int? in
            guard let base = bytes.baseAddress, let hit = memchr(base, 0x0A, bytes.count) else { return nil }
            return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        }
        if let offset = found {
            guard let offset else { return text }
            return text[text.startIndex..<utf8.index(utf8.startIndex, offsetBy: offset + 1)]
        }
        if let newline = utf8.firstIndex(of: 0x0A) {
            return text[text.startIndex..<utf8.index(after: newline)]
        }
        return text
    }

    /// Whether a front-matter line is a merge conflict marker (`<<<<<<<`, `|||||||`, `=======`,
    /// `>>>>>>>`): both sides of a merge changed the same front-matter lines. Such a note is
    /// edited and shown whole, since the body alone would hide the conflict.
    public var frontMatterHasMarkers: Bool {
        frontMatter?.lines.contains { line in
            ["<<<<<<<", "|||||||", "=======", ">>>>>>>"].contains { line.hasPrefix($0) }
        } ?? false
    }

    /// The whole file, byte for byte as it would be written.
    public var text: String {
        (hasBOM ? "\u{FEFF}" : "") + (frontMatter?.text ?? "") + body
    }

    /// The first creation-date key that holds a parsable date, with that date.
    public func creationDate() -> (key: String, seconds: Double)? {
        guard let fm = frontMatter else { return nil }
        for key in Self.creationKeys {
            if let value = fm.scalar(key), let seconds = NoteDate.parse(value) { return (key, seconds) }
        }
        return nil
    }

    /// The `updatedAt` date, if present and parsable.
    public func updatedDate() -> Double? {
        frontMatter?.scalar("updatedAt").flatMap { NoteDate.parse($0) }
    }

    /// Warnings about date keys whose values do not parse.
    public func dateWarnings() -> [ParseWarning] {
        guard let fm = frontMatter else { return [] }
        var result: [ParseWarning] = []
        for entry in fm.entries where Self.dateKeys.contains(entry.key) {
            guard case .scalar(let value) = entry.value else {
                result.append(ParseWarning(line: entry.lineIndex + 2, message: "\(entry.key) is not a date"))
                continue
            }
            if NoteDate.parse(value) == nil {
                result.append(
                    ParseWarning(
                        line: entry.lineIndex + 2,
                        message: "\(entry.key): '\(value)' is not a date (use e.g. 2026-11-29T12:38:16Z)"))
            }
        }
        return result
    }

    /// Replaces the body with `content` (already trimmed, ending in one newline) and records
    /// `updated` in the `updatedAt` line, keeping every other byte of the front matter.
    ///
    /// - Parameter fallbackCreation: the creation date to write when the note has no creation key
    ///   (its file modification time), so the fallback is not lost.
    public mutating func rewrite(content: String, updated: Double, fallbackCreation: Double) {
        let eol = lineEnding
        let updatedLine = "updatedAt: \(NoteDate.format(updated))" + eol
        // The body keeps its own line ending, which may differ from the front matter's (a file
        // pasted together from two sources); a body without any line takes the file's.
        let bodyEOL = Self.firstLineEnding(of: body) ?? eol
        body = bodyEOL == "\r\n" ? content.replacingLineFeeds(with: "\r\n") : content
        guard var fm = frontMatter else {
            frontMatter = FrontMatter(
                opening: "---" + eol,
                lines: ["createdAt: \(NoteDate.format(fallbackCreation))" + eol, updatedLine],
                closing: "---" + eol, entries: [])
            reparse()
            return
        }
        let existing = fm.entry("updatedAt")
        if let existing { fm.lines[existing.lineIndex] = updatedLine }
        if let anchor = creationAnchor(fm) {
            if existing == nil { fm.lines.insert(updatedLine, at: fm.lastLine(ofEntryAt: anchor) + 1) }
        } else {
            // No creation key, even when updatedAt is there: write the creation date down, or the
            // mtime fallback would become the time of this very edit.
            if let last = fm.lines.last, last.utf8.last != 0x0A { fm.lines[fm.lines.count - 1] = last + eol }
            fm.lines.append("createdAt: \(NoteDate.format(fallbackCreation))" + eol)
            if existing == nil { fm.lines.append(updatedLine) }
        }
        // The closing line may be the file's last line without a terminator.
        if fm.closing.utf8.last != 0x0A { fm.closing += eol }
        frontMatter = fm
        reparse()
    }

    /// The line index of the entry after which `updatedAt` goes (after its value's last line): the
    /// line the creation date came from, else the first creation key present (even if its value
    /// does not parse).
    private func creationAnchor(_ fm: FrontMatter) -> Int? {
        if let (key, _) = creationDate(), let entry = fm.entry(key) { return entry.lineIndex }
        for key in Self.creationKeys {
            if let entry = fm.entry(key) { return entry.lineIndex }
        }
        return nil
    }

    mutating func reparse() {
        guard var fm = frontMatter else { return }
        var ignored: [ParseWarning] = []
        fm.entries = FrontMatter.parseEntries(fm.lines, firstLine: 2, warnings: &ignored)
        frontMatter = fm
    }

    /// The text of a brand-new note file holding `content`. Content that brings its own front
    /// matter (a note imported from another tool) keeps it, with `createdAt` added when it has no
    /// usable creation date, rather than getting a second front matter.
    /// `document` is the parsed content (parsing keeps every byte, so its `text` is the content).
    public static func newFile(_ document: NoteDocument, created: Double) -> String {
        let createdLine = "createdAt: \(NoteDate.format(created))\n"
        var document = document
        guard var fm = document.frontMatter else { return "---\n" + createdLine + "---\n" + document.text }
        if document.creationDate() == nil {
            fm.lines.insert(createdLine, at: 0)
            document.frontMatter = fm
            document.reparse()
        }
        return document.text
    }
}

extension String {
    /// The string with every bare LF turned into `ending` (existing CRLFs stay as they are).
    func replacingLineFeeds(with ending: String) -> String {
        var out = String.UnicodeScalarView()
        var previousCR = false
        for scalar in unicodeScalars {
            if scalar == "\n" {
                if previousCR { out.removeLast() }
                out.append(contentsOf: ending.unicodeScalars)
            } else {
                out.append(scalar)
            }
            previousCR = scalar == "\r"
        }
        return String(out)
    }
}
