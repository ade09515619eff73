import Foundation

/// What the fast path of reading a note keeps between notes: the file's bytes and its front
/// matter's entries, so that a note costs no allocation but for the strings its record stores.
final class RecordScratch {
    /// The file just read.
    let file = FileBuffer()
    /// The front matter's entries, as byte ranges of the file.
    var entries: [FrontMatterBytes.Entry] = []
    /// The items of the entries' lists, in order.
    var items: [Range<Int>] = []
    /// The last note's tags and links as the index encodes them, its memory used for the next.
    var refs = NoteRefs.Encoded()
    /// The last note's links, their keys and headings, the memory used for the next.
    var links = NoteRefs.LinkScratch()
    /// The last note's code ranges (`CodeCursor`), the memory used for the next.
    var codeRanges: [Range<Int>] = []
    /// The files of a chunk, read ahead in one batch where the system allows it.
    let batch = FileBatch()

    /// `codeRanges`, leaving it empty.
    func takeCodeRanges() -> [Range<Int>] {
        var taken: [Range<Int>] = []
        swap(&taken, &codeRanges)
        return taken
    }
    /// The time zone of dates without one: `TimeZone.current` (a lock and a look-up each time it
    /// is asked for), as it was when the scratch was last taken (`taken()`).
    var zone = TimeZone.current

    /// Scratch states of the workers reading notes, kept between uses.
    static let workers = WorkerStates { RecordScratch() }

    /// A scratch of the workers', its time zone the current one.
    static func taken() -> RecordScratch {
        let scratch = workers.take()
        scratch.zone = TimeZone.current
        return scratch
    }

    /// Files larger than this take the slow path: a buffer kept per worker stays small.
    static let sizeLimit = 1 << 20
}

/// The front matter of a note read by bytes, for the common forms only: ASCII lines of plain
/// `key: value` scalars, flow lists of plain items and block lists of them, blank and comment
/// lines. Whatever else it meets (quotes, block scalars, nested maps, anything that would warn)
/// makes `parse` give up, and the note is parsed as `FrontMatter` does; where it does not give up,
/// it reads the entries exactly as `FrontMatter.parseEntries` would.
enum FrontMatterBytes {
    /// One entry: its key, and its value as a scalar's bytes or a range of list items.
    struct Entry {
        var key: Range<Int>
        var isList: Bool
        var value: Range<Int>
        var items: Range<Int>
    }

    /// Where the front matter of `b` ends and the body begins, and how many lines lie between its
    /// delimiters; `(0, 0)` for a file without one; nil when this reader is not sure of it. The
    /// entries are left in `scratch`.
    static func parse(_ b: UnsafeBufferPointer<UInt8>, into scratch: RecordScratch) -> (
        bodyStart: Int, lines: Int
    )? {
        // Worked on as local arrays, handed back at the end: no exclusivity checks per access.
        var entries = scratch.entries
        var items = scratch.items
        scratch.entries = []
        scratch.items = []
        entries.removeAll(keepingCapacity: true)
        items.removeAll(keepingCapacity: true)
        defer {
            scratch.entries = entries
            scratch.items = items
        }
        let first = line(b, from: 0)
        guard isDelimiter(b, first.content, UInt8(ascii: "-")) else { return (0, 0) }
        var start = first.next
        var count = 0
        var listOwner: Int?
        var hasOwner = false
        while start < b.count {
            let current = line(b, from: start)
            if isDelimiter(b, current.content, UInt8(ascii: "-"))
                || isDelimiter(b, current.content, UInt8(ascii: "."))
            {
                return (current.next, count)
            }
            guard
                readLine(
                    b, current.content, entries: &entries, items: &items, listOwner: &listOwner,
                    hasOwner: &hasOwner)
            else { return nil }
            count += 1
            start = current.next
        }
        // Not closed: that warns.
        return nil
    }

    /// The line at `start`: its bytes without the line feed, and where the next begins.
    private static func line(_ b: UnsafeBufferPointer<UInt8>, from start: Int) -> (
        content: Range<Int>, next: Int
    ) {
        guard let base = b.baseAddress, start < b.count,
            let hit = memchr(base + start, 0x0A, b.count - start)
        else { return (start..<b.count, b.count) }
        let end = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        return (start..<end, end + 1)
    }

    /// Whether a line, trimmed of spaces and tabs, is three of `delimiter` (`---`, `...`). By bytes as by Characters: a
    /// line that trims to an ASCII delimiter is ASCII.
    private static func isDelimiter(_ b: UnsafeBufferPointer<UInt8>, _ line: Range<Int>, _ delimiter: UInt8)
        -> Bool
    {
        let trimmed = trim(b, line)
        return trimmed.count == 3 && b[trimmed.lowerBound] == delimiter
            && b[trimmed.lowerBound + 1] == delimiter
            && b[trimmed.lowerBound + 2] == delimiter
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    static func trim(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        var (start, end) = (range.lowerBound, range.upperBound)
        while start < end && isBlank(b[start]) { start += 1 }
        while end > start && isBlank(b[end - 1]) { end -= 1 }
        return start..<end
    }

    /// Reads one front-matter line as `FrontMatter.parseEntries` does, in the same order of
    /// cases; false for a line this reader leaves to it.
    private static func readLine(
        _ b: UnsafeBufferPointer<UInt8>, _ line: Range<Int>, entries: inout [Entry],
        items: inout [Range<Int>],
        listOwner: inout Int?, hasOwner: inout Bool
    ) -> Bool {
        // Each ASCII byte is a Character, and so is each letter `CharacterBytes.joinsNoNeighbour`
        // lets through: the Character-by-Character reader sees the same.
        guard !b[line].contains(0x0D), CharacterBytes.joinsNoNeighbour(b, line) else { return false }
        let trimmed = trim(b, line)
        if trimmed.isEmpty || b[trimmed.lowerBound] == UInt8(ascii: "#") { return true }
        let indented = isBlank(b[line.lowerBound])
        let dash = UInt8(ascii: "-")
        if b[trimmed.lowerBound] == dash && (trimmed.count == 1 || isBlank(b[trimmed.lowerBound + 1])) {
            if let owner = listOwner {
                let item = trim(b, (trimmed.lowerBound + 1)..<trimmed.upperBound)
                guard let value = plainScalar(b, item) else { return false }
                entries[owner].isList = true
                items.append(value)
                entries[owner].items = entries[owner].items.lowerBound..<items.count
                return true
            }
            return indented && hasOwner
        }
        // Indented lines belong to a value this reader does not model (or warn).
        guard !indented else { return false }
        // (A plain loop: `indices` of a slice of the buffer is not specialized, and costs a call
        // and a metadata lookup per line.)
        var colon = line.lowerBound
        while colon < line.upperBound
            && !(b[colon] == UInt8(ascii: ":") && (colon + 1 == line.upperBound || isBlank(b[colon + 1])))
        {
            colon += 1
        }
        guard colon < line.upperBound else { return false }
        let key = trim(b, line.lowerBound..<colon)
        guard !key.isEmpty else { return false }
        let text = trim(b, (colon + 1)..<line.upperBound)
        var entry = Entry(
            key: key, isList: false, value: text.lowerBound..<text.lowerBound,
            items: items.count..<items.count)
        hasOwner = true
        listOwner = nil
        if text.isEmpty || b[text.lowerBound] == UInt8(ascii: "#") {
            // An empty value, which the `- item` lines below may make a list.
            listOwner = entries.count
        } else if b[text.lowerBound] == UInt8(ascii: "[") {
            guard inlineList(b, text, into: &items) else { return false }
            entry.isList = true
            entry.items = entry.items.lowerBound..<items.count
        } else {
            guard let value = plainScalar(b, text) else { return false }
            entry.value = value
        }
        entries.append(entry)
        return true
    }

    /// A scalar's bytes: a plain one up to a comment, trimmed, or a quoted one's between its
    /// quotes (one without escapes, `\` or `''`, with nothing but a comment after it); nil for
    /// any other quoted value or one that opens what the subset does not model.
    private static func plainScalar(_ b: UnsafeBufferPointer<UInt8>, _ text: Range<Int>) -> Range<Int>? {
        guard let first = text.first.map({ b[$0] }) else { return text }
        switch first {
        case UInt8(ascii: "|"), UInt8(ascii: ">"), UInt8(ascii: "{"), UInt8(ascii: "&"), UInt8(ascii: "*"),
            UInt8(ascii: "!"), UInt8(ascii: "["):
            return nil
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            return quotedScalar(b, text, quote: first)
        default: break
        }
        for i in text where i > text.lowerBound && b[i] == UInt8(ascii: "#") && isBlank(b[i - 1]) {
            return trim(b, text.lowerBound..<i)
        }
        return text
    }

    /// The bytes between the quotes of a value quoted with `quote`, as `FrontMatter.parseScalar`
    /// reads it where it is sure to read the same: not empty, no backslash in a double-quoted one
    /// (an escape), no quote doubled in a single-quoted one, closed, and followed by blanks or a
    /// comment only (else it warns).
    private static func quotedScalar(_ b: UnsafeBufferPointer<UInt8>, _ text: Range<Int>, quote: UInt8)
        -> Range<Int>?
    {
        let start = text.lowerBound + 1
        var i = start
        while i < text.upperBound && b[i] != quote {
            if b[i] == UInt8(ascii: "\\") && quote == UInt8(ascii: "\"") { return nil }
            i += 1
        }
        guard i < text.upperBound, i > start else { return nil }
        let rest = trim(b, (i + 1)..<text.upperBound)
        // `'a''b'` (a doubled quote is one quote) stops at its second quote: what follows is no
        // comment, so it is left to the slow path.
        guard rest.isEmpty || b[rest.lowerBound] == UInt8(ascii: "#") else { return nil }
        return start..<i
    }

    /// The items of a flow list `[a, b]` of plain items, appended to `scratch.items`; false for
    /// one with quotes, one that is not closed or one with text after it.
    private static func inlineList(
        _ b: UnsafeBufferPointer<UInt8>, _ text: Range<Int>, into items: inout [Range<Int>]
    )
        -> Bool
    {
        guard !b[text].contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "'") }) else {
            return false
        }
        var itemStart = text.lowerBound + 1
        for i in itemStart..<text.upperBound where b[i] == UInt8(ascii: ",") || b[i] == UInt8(ascii: "]") {
            let piece = trim(b, itemStart..<i)
            if !piece.isEmpty {
                // A flow list's item is read as a scalar: a nested list or a block marker is
                // for the slow path.
                guard let value = plainScalar(b, piece) else { return false }
                items.append(value)
            }
            itemStart = i + 1
            if b[i] == UInt8(ascii: "]") {
                let rest = trim(b, (i + 1)..<text.upperBound)
                return rest.isEmpty || b[rest.lowerBound] == UInt8(ascii: "#")
            }
        }
        return false
    }
}

extension Vault {
    /// Reads the note at vault path `path` (opened relative to `root`, the vault folder open,
    /// when given) and adds its record to `table` straight from the file's bytes, folded into the
    /// table's texts, with no `String` of the note: the record that `load(path:relativeTo:)` and
    /// `refs(of:folding:)` make of it, byte for byte. Returns false, having added nothing, for a
    /// file it leaves to them: one it cannot read (they say why), one too large, not UTF-8, with
    /// a byte order mark, a carriage return or a run of seven `<` (conflict markers, maybe), a
    /// front matter `FrontMatterBytes` is not sure of, or anything that would warn.
    func recordFromBytes(
        _ path: String, relativeTo root: Int32?, into table: inout IndexTable, mode: inout mode_t,
        folding: inout TextFolder, scratch: RecordScratch
    ) -> Bool {
        guard
            let status = FileSystem.read(
                root == nil ? fullPath(path) : path, relativeTo: root, into: scratch.file,
                limit: RecordScratch.sizeLimit)
        else { return false }
        return recordFromBytes(
            scratch.file.bytes, status: status, path: path, into: &table, mode: &mode, folding: &folding,
            scratch: scratch)
    }

    /// `recordFromBytes` of a file already read: its bytes `b`, and its status.
    func recordFromBytes(
        _ b: UnsafeBufferPointer<UInt8>, status: FileStatus, path: String, into table: inout IndexTable,
        mode: inout mode_t, folding: inout TextFolder, scratch: RecordScratch
    ) -> Bool {
        if let base = b.baseAddress, memchr(base, 0x0D, b.count) != nil { return false }
        // The front matter is read by bytes before they are known to be UTF-8 (byte by byte, with
        // no string made), then checked; the body is checked as it is folded, below.
        guard !(b.count >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF),
            !ConflictMarkers.hasSevenOpenings(b),
            let (bodyStart, frontMatterLines) = FrontMatterBytes.parse(b, into: scratch),
            UTF8Bytes.isValid(UnsafeBufferPointer(rebasing: b[..<bodyStart])),
            let head = RecordHead(
                b, path: path, mtime: status.mtimeSeconds, titleFrom: titleSource, scratch: scratch)
        else { return false }
        let body = UnsafeBufferPointer(rebasing: b[bodyStart...])
        // The searchable text: a title from outside the body, the aliases, then the body, whose
        // fold checks that it is UTF-8 (a front matter ends with a line feed, so no sequence
        // spans the two). Everything after reads the body knowing it is.
        let textStart = table.texts.count
        if let title = head.outsideTitle {
            folding.appendFolded(title, to: &table.texts)
            table.texts.append(0x0A)
        }
        for alias in head.aliases {
            folding.appendFolded(alias, to: &table.texts)
            table.texts.append(0x0A)
        }
        guard folding.appendFolded(validating: body, to: &table.texts) else {
            table.texts.removeSubrange(textStart...)
            return false
        }
        let firstLine = bodyStart > 0 ? frontMatterLines + 3 : 1
        // The title and preview: the first lines of the body that are not blank.
        var bodyTitle: BodyLine?
        var preview: BodyLine?
        var tookTitle = head.outsideTitle != nil
        var start = 0
        while start < body.count, let base = body.baseAddress {
            let end =
                memchr(base + start, 0x0A, body.count - start).map {
                    base.distance(to: $0.assumingMemoryBound(to: UInt8.self))
                } ?? body.count
            if body[start..<end].contains(where: { $0 != 0x20 && $0 != 0x09 }) {
                let stripped = BodyLine(body, start..<end)
                if tookTitle {
                    preview = stripped
                    break
                }
                bodyTitle = stripped
                tookTitle = true
            }
            start = end + 1
        }
        // Its memory moved into the cursor and back: held twice, it would be copied on writing.
        var code = CodeCursor(body, storage: scratch.takeCodeRanges())
        defer { scratch.codeRanges = code.storage() }
        let spellings = head.frontMatterTags + NoteTags.body(body, code: &code)
        code.rewind()
        // As `NoteTags.of` makes them unique and `refs(of:folding:)` folds them.
        let tags =
            spellings.count > 1 || spellings.first?.utf8.contains(where: { $0 >= 0x80 }) == true
            ? NoteTags.unique(spellings, folding: &folding)
            : spellings.compactMap { spelling in
                let folded = folding.foldedBytes(spelling)
                return folded.isEmpty ? nil : (spelling, folded)
            }
        // What `Note` would hold, as `load(path:relativeTo:)` makes it; no `Note` is made (its ID
        // and tags are not part of the record), and the title and preview stay bytes of the body
        // where they can.
        let title =
            head.outsideTitle.map(BodyLine.string) ?? bodyTitle.flatMap { $0.isEmpty ? nil : $0 }
            ?? .string("Untitled")
        mode &= status.mode
        title.withUTF8(of: body) { title in
            (preview ?? .string("")).withUTF8(of: body) { preview in
                Vault.refs(
                    body: body, firstLine: firstLine, code: &code, path: path, title: title, tags: tags,
                    aliases: head.aliases, importedFrom: head.importedFrom, folding: &folding,
                    scratch: &scratch.links, into: &scratch.refs)
                table.add(
                    path: path, size: status.size, mtime: status.mtime, inode: status.inode,
                    ctime: status.ctime,
                    flags: IndexLayout.isNote
                        | (head.outsideTitle != nil ? IndexLayout.titleIsOutsideBody : 0),
                    createdAt: NoteDate.clamped(head.created ?? status.mtimeSeconds),
                    updatedAt: head.updated.map(NoteDate.clamped), title: title, preview: preview,
                    warnings: [],
                    refs: scratch.refs, textFrom: textStart)
            }
        }
        return true
    }
}

/// A title or preview of a note as a record stores it: the bytes of the body that
/// `Note.stripHeading` keeps of a line, where they read by bytes as by Characters, else the
/// string it makes of it; or a string from elsewhere (a front-matter title, "Untitled").
private enum BodyLine {
    case bytes(Range<Int>)
    case string(String)

    /// The line `line` of `body`, its heading marks stripped.
    init(_ body: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) {
        let bytes = UnsafeBufferPointer(rebasing: body[line])
        if let kept = Note.strippedHeading(utf8: bytes) {
            self = .bytes((line.lowerBound + kept.lowerBound)..<(line.lowerBound + kept.upperBound))
        } else {
            self = .string(Note.stripHeadingByCharacters(Substring(String(decoding: bytes, as: UTF8.self))))
        }
    }

    var isEmpty: Bool {
        switch self {
        case .bytes(let range): range.isEmpty
        case .string(let string): string.isEmpty
        }
    }

    /// Calls `body` with the UTF-8 of the line (its bytes in `text`, the body it was read from).
    func withUTF8<R>(of text: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        switch self {
        case .bytes(let range): return body(UnsafeBufferPointer(rebasing: text[range]))
        case .string(var string): return string.withUTF8(body)
        }
    }
}

/// What a record takes from a note's front matter (read by `FrontMatterBytes` into `scratch`):
/// its dates, a title from outside the body, its tags, aliases and `importedFrom`. Nil when a
/// date key's value is not a date (that warns).
private struct RecordHead {
    var created: Double?
    var updated: Double?
    var outsideTitle: String?
    var frontMatterTags: [String] = []
    var aliases: [String] = []
    var importedFrom = ""

    init?(
        _ b: UnsafeBufferPointer<UInt8>, path: String, mtime: Double, titleFrom: TitleSource,
        scratch: RecordScratch
    ) {
        let entries = scratch.entries
        func key(_ entry: FrontMatterBytes.Entry, is name: String) -> Bool {
            // The lengths first (a native string knows its own): most keys differ in length.
            let utf8 = name.utf8
            return entry.key.count == utf8.count && b[entry.key].elementsEqual(utf8)
        }
        func first(_ name: String) -> FrontMatterBytes.Entry? { entries.first { key($0, is: name) } }
        func string(_ range: Range<Int>) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: b[range]), as: UTF8.self)
        }
        // Every date key's value must be a date (else it warns), each parsed once; the first
        // entry of a key counts, and the creation keys in their order.
        if !entries.isEmpty {
            let zone = scratch.zone
            let updatedKey = NoteDocument.creationKeys.count
            var createdKey = Int.max
            for entry in entries {
                guard let k = NoteDocument.dateKeys.firstIndex(where: { key(entry, is: $0) }) else {
                    continue
                }
                guard !entry.isList,
                    let seconds = NoteDate.parse(
                        bytes: UnsafeBufferPointer(rebasing: b[entry.value]), timeZone: zone)
                else { return nil }
                if k == updatedKey {
                    if updated == nil { updated = seconds }
                } else if k < createdKey {
                    created = seconds
                    createdKey = k
                }
            }
        }
        if titleFrom == .filename {
            outsideTitle = Note.fileTitle(path)
        } else if let entry = first("title"), !entry.isList, !entry.value.isEmpty {
            outsideTitle = string(entry.value)
        }
        if let entry = first("tags") {
            let pieces: [Range<Int>]
            if entry.isList {
                pieces = Array(scratch.items[entry.items])
            } else {
                // Tags separated by commas or blanks.
                var split: [Range<Int>] = []
                var from = entry.value.lowerBound
                for i in entry.value.lowerBound...entry.value.upperBound
                where i == entry.value.upperBound || b[i] == UInt8(ascii: ",") || b[i] == 0x20 || b[i] == 0x09
                {
                    if i > from { split.append(from..<i) }
                    from = i + 1
                }
                pieces = split
            }
            for piece in pieces {
                var tag = FrontMatterBytes.trim(b, piece)
                while tag.first.map({ b[$0] == UInt8(ascii: "#") }) == true { tag = tag.dropFirst() }
                if !tag.isEmpty { frontMatterTags.append(string(tag)) }
            }
        }
        if let entry = first("aliases") {
            let items = entry.isList ? Array(scratch.items[entry.items]) : [entry.value]
            aliases = items.map { FrontMatterBytes.trim(b, $0) }.filter { !$0.isEmpty }.map(string)
        }
        if let entry = first("importedFrom"), !entry.isList { importedFrom = string(entry.value) }
    }
}

/// UTF-8 validation of bytes, as `String(validating:as:)` decides it, without making a string.
enum UTF8Bytes {
    /// Whether `b` is well-formed UTF-8: no stray continuation bytes, no overlong forms, no
    /// surrogates, nothing past U+10FFFF, no sequence cut short.
    static func isValid(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = b.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        let n = b.count
        var i = 0
        while i < n {
            // ASCII eight bytes at a time.
            while i &+ 8 <= n,
                UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                    & 0x8080_8080_8080_8080
                    == 0
            {
                i &+= 8
            }
            guard i < n else { return true }
            if b[i] < 0x80 {
                i &+= 1
                continue
            }
            let length = sequenceLength(b, at: i)
            guard length > 0 else { return false }
            i &+= length
        }
        return true
    }

    /// The length of the well-formed sequence that starts at `i` (whose byte is not ASCII), as
    /// `isValid` reads it; 0 for none: a stray continuation byte, an overlong form, a surrogate,
    /// something past U+10FFFF or a sequence cut short.
    @inline(__always)
    static func sequenceLength(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
        let n = b.count
        let c = b[i]
        func continuation(_ k: Int) -> Bool { k < n && b[k] & 0xC0 == 0x80 }
        switch c {
        case 0xC2...0xDF:
            return continuation(i + 1) ? 2 : 0
        case 0xE0...0xEF:
            guard i + 2 < n, continuation(i + 2) else { return 0 }
            let second = b[i + 1]
            let low: UInt8 = c == 0xE0 ? 0xA0 : 0x80
            let high: UInt8 = c == 0xED ? 0x9F : 0xBF
            return second >= low && second <= high ? 3 : 0
        case 0xF0...0xF4:
            guard i + 3 < n, continuation(i + 2), continuation(i + 3) else { return 0 }
            let second = b[i + 1]
            let low: UInt8 = c == 0xF0 ? 0x90 : 0x80
            let high: UInt8 = c == 0xF4 ? 0x8F : 0xBF
            return second >= low && second <= high ? 4 : 0
        default:
            return 0
        }
    }
}
