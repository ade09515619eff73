import Foundation

/// Where a note's title comes from (the `titleFrom` setting).
public enum TitleSource: String, CaseIterable, Codable, Sendable {
    /// The front-matter `title`, else the first non-empty body line (the iOS app's way).
    case content
    /// The file name without its extension, as Obsidian shows notes.
    case filename
}

/// What the index knows of a note — identity, title, dates, preview, tags — and all that lists,
/// search results and ID resolution need. It has no body: a note read from its file is a `LoadedNote`.
public struct Note: Equatable, Sendable {
    /// The path relative to the vault, `/`-separated, without `.md`.
    public var id: String
    /// The path relative to the vault, `/`-separated.
    public var path: String
    /// The title (front-matter `title`, else the first non-empty body line without heading marks).
    public var title: String
    /// Whether the title is not a line of the body — a front-matter `title` or the file name — so
    /// that the searchable text holds it besides the body.
    public var titleIsOutsideBody: Bool
    /// Creation time, seconds since 1970: from the front matter, else the file's modification time.
    public var createdAt: Double
    /// The `updatedAt` time, if the note has a parsable one.
    public var updatedAt: Double?
    /// The first non-empty body line other than the title line, heading marks stripped.
    public var preview: String
    /// Whether the file holds merge conflict markers (`<<<<<<<` … `>>>>>>>` lines), in its
    /// body or its front matter.
    public var conflicted: Bool
    /// The tags as the note spells them, in file order, front matter first, each once.
    public var tags: [String]

    /// Creates a note from its parts.
    public init(
        id: String, path: String, title: String, titleIsOutsideBody: Bool, createdAt: Double,
        updatedAt: Double?, preview: String, conflicted: Bool = false, tags: [String] = []
    ) {
        self.id = id
        self.path = path
        self.title = title
        self.titleIsOutsideBody = titleIsOutsideBody
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.preview = preview
        self.conflicted = conflicted
        self.tags = tags
    }

    /// Derives a note from a parsed file. `mtime` is the creation fallback.
    public init(path: String, document: NoteDocument, mtime: Double, titleFrom: TitleSource = .content) {
        self.path = path
        id = Note.id(forPath: path)
        createdAt = NoteDate.clamped(document.creationDate()?.seconds ?? mtime)
        updatedAt = document.updatedDate().map(NoteDate.clamped)
        let body = document.body
        var outsideTitle: String?
        if titleFrom == .filename {
            // Searchable like a front-matter title: it is what the user sees and looks for.
            outsideTitle = Note.fileTitle(path)
        } else if let t = document.frontMatter?.scalar("title")?.trimmingWhitespace(), !t.isEmpty {
            outsideTitle = String(t)
        }
        titleIsOutsideBody = outsideTitle != nil
        // One pass for both: the first line that is not blank is the title (unless it comes from
        // elsewhere), and the next one the preview.
        var bodyTitle: String?
        var tookTitle = outsideTitle != nil
        var firstOther: String?
        Note.forEachLine(of: body) { _, line in
            guard !line.trimmingWhitespace().isEmpty else { return true }
            guard tookTitle else {
                bodyTitle = Note.stripHeading(line)
                tookTitle = true
                return true
            }
            firstOther = Note.stripHeading(line)
            return false
        }
        title = outsideTitle ?? bodyTitle.flatMap { $0.isEmpty ? nil : $0 } ?? "Untitled"
        preview = firstOther ?? ""
        // The front matter's lines as they are, not joined into one text.
        conflicted = ConflictMarkers.present(
            in: document.frontMatter.map { [$0.opening] + $0.lines + [$0.closing, body] } ?? [body])
        tags = NoteTags.of(document)
    }

    /// The date the `updated` order uses: `updatedAt`, else `createdAt`.
    public var modifiedAt: Double { updatedAt ?? createdAt }

    /// The title a file name gives: its last component without `.md` or `.markdown`.
    public static func fileTitle(_ path: String) -> String {
        var name = Substring(path.split(separator: "/").last ?? "")
        for ext in [".md", ".markdown"] where name.hasSuffix(ext) && name.count > ext.count {
            name = name.dropLast(ext.count)
            break
        }
        return String(name)
    }

    /// The ID of the note at a vault-relative path.
    public static func id(forPath path: String) -> String {
        path.hasSuffix(".md") ? String(path.dropLast(3)) : path
    }

    /// Every line of `text` (see `forEachLine`).
    public static func lines(of text: String) -> [Substring] {
        var result: [Substring] = []
        forEachLine(of: text) { _, line in
            result.append(line)
            return true
        }
        return result
    }

    /// Calls `body` with each line (split on LF only, without its terminator; a CR before the LF
    /// is dropped) and its 0-based index, until `body` returns false. Scans bytes, not Characters,
    /// and stops early, so finding a title never walks a whole 50 MB body.
    public static func forEachLine(of text: String, _ body: (Int, Substring) -> Bool) {
        let utf8 = text.utf8
        // Line feeds found with memchr over the text's bytes (a copy shares them: nothing is copied).
        var bytes = text
        bytes.withUTF8 { buffer in
            guard let base = buffer.baseAddress else { return }
            var start = 0
            var index = 0
            while start < buffer.count {
                let newline = memchr(base + start, 0x0A, buffer.count - start)
                    .map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) }
                var end = newline ?? buffer.count
                if end > start, buffer[end - 1] == 0x0D { end -= 1 }
                let from = utf8.index(utf8.startIndex, offsetBy: start)
                let line = Substring(utf8[from..<utf8.index(from, offsetBy: end - start)])
                guard body(index, line) else { return }
                guard let newline else { return }
                start = newline + 1
                index += 1
            }
        }
    }

    /// A line trimmed, without ATX heading marks (`# ` … `###### ` and closing `#`s).
    public static func stripHeading(_ line: Substring) -> String {
        if let byBytes = line.utf8.withContiguousStorageIfAvailable(stripHeadingByBytes), let byBytes {
            return byBytes
        }
        return stripHeadingByCharacters(line)
    }

    /// `stripHeading` of a line's valid UTF-8 bytes by bytes, as the bytes of the line it keeps
    /// (for a caller that stores them without a string): where each byte is a Character (ASCII)
    /// or each letter outside ASCII is one whatever stands beside it and no blank
    /// (`CharacterBytes.joinsNoNeighbour`: `é`, `Ж`, `中`), the blanks and `#`s it looks at are
    /// then Characters too. Nil for any other line, which `stripHeadingByCharacters` reads.
    static func strippedHeading(utf8 b: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        if let outside = b.firstIndex(where: { $0 >= 0x80 }),
            !CharacterBytes.joinsNoNeighbour(b, outside..<b.count)
        {
            return nil
        }
        func blank(_ i: Int) -> Bool { b[i] == 0x20 || b[i] == 0x09 }
        func trimmed(_ range: Range<Int>) -> Range<Int> {
            var (start, end) = (range.lowerBound, range.upperBound)
            while start < end && blank(start) { start += 1 }
            while end > start && blank(end - 1) { end -= 1 }
            return start..<end
        }
        var s = trimmed(0..<b.count)
        var hashes = 0
        while s.lowerBound + hashes < s.upperBound && b[s.lowerBound + hashes] == UInt8(ascii: "#") {
            hashes += 1
        }
        let afterMarks = s.lowerBound + hashes
        if (1...6).contains(hashes) && (afterMarks == s.upperBound || blank(afterMarks)) {
            s = trimmed(afterMarks..<s.upperBound)
            // A closing sequence of #s counts only after a blank (or when it is all that is left).
            var end = s.upperBound
            while end > s.lowerBound && b[end - 1] == UInt8(ascii: "#") { end -= 1 }
            if end == s.lowerBound {
                s = s.lowerBound..<s.lowerBound
            } else if end < s.upperBound && blank(end - 1) {
                s = trimmed(s.lowerBound..<end)
            }
        }
        return s
    }

    /// `stripHeading`, Character by Character: for the lines `stripHeadingByBytes` leaves.
    static func stripHeadingByCharacters(_ line: Substring) -> String {
        var s = line.trimmingWhitespace()
        let hashes = s.utf8.prefix { $0 == UInt8(ascii: "#") }.count
        guard (1...6).contains(hashes) else { return String(s) }
        let afterMarks = s.dropFirst(hashes)
        guard afterMarks.isEmpty || afterMarks.first == " " || afterMarks.first == "\t" else {
            return String(s)
        }
        s = afterMarks.trimmingWhitespace()
        // A closing sequence of #s counts only after a blank (or when it is all that is left).
        var end = s.endIndex
        while end > s.startIndex, s[s.index(before: end)] == "#" { end = s.index(before: end) }
        if end == s.startIndex {
            s = s[s.startIndex..<s.startIndex]
        } else if end < s.endIndex, s[s.index(before: end)] == " " || s[s.index(before: end)] == "\t" {
            s = s[s.startIndex..<end]
        }
        return String(s.trimmingWhitespace())
    }

    /// `strippedHeading(utf8:)` as a string.
    private static func stripHeadingByBytes(_ b: UnsafeBufferPointer<UInt8>) -> String? {
        strippedHeading(utf8: b).map { String(decoding: UnsafeBufferPointer(rebasing: b[$0]), as: UTF8.self) }
    }
}
