import Foundation

/// One file as the index records it: how it looked on disk, and what it held.
struct IndexRecord: Sendable {
    var path: String
    var size: Int64
    var mtime: Double
    var inode: UInt64
    /// Nil when the file is not a readable note (not UTF-8, unreadable): it is skipped, with a warning.
    var note: Note?
    var warnings: [ParseWarning]
    var folded: FoldedText
    /// The note's tags and links as the index keeps them (`NoteRefs`); none for no note.
    var refs = NoteRefs.Encoded()
    /// A delta's note that the file is gone.
    var removed = false
}

/// The two kinds of index file: the base, and a delta of what changed since it (SPEC §8: a small
/// change costs a small write, as in git's split index).
enum IndexKind: UInt8 {
    /// `index`: every file as of its writing.
    case base = 0
    /// `index.delta`: the files added or changed since the base with the same generation, and the
    /// ones removed; it wins over the base.
    case delta = 1
}

/// The layout of an index file (version 10: checksums, a flag for names that may be conflict
/// copies, and aliases in the folded texts), all little-endian. Everything a command needs to
/// check the index against the files and to sort sits in fixed-width columns read in place; the
/// strings a command shows, the folded texts a search reads, and what tags and links commands
/// compare sit in regions of their own, so that a `list` pages in the record table, the path
/// table and the paths, and nothing else; `tags` and `list --tag` page in the tags region besides
/// (a few bytes per note), `backlinks` the links region. The texts come first, so a writer can stream them out while it is still reading files,
/// and write the tables and then the header last.
///
/// Nothing read from the file is trusted unchecked (`IndexChecksum`): the header's checksum covers
/// the header and the tables, and is checked when the file is opened; each record keeps one for
/// each of its text, strings, tags and links, checked when that part is read. A part that fails
/// its check is read again from the note's file (`IndexRepair`), never taken as it is.
///
///     header   80 bytes: magic, version, title source, kind, generation, count, slot count,
///              the lengths of the text, paths and strings regions (u64 each), and of the tags
///              and links regions (u32 each); 4 bytes of zeros; at 72, the checksum of the
///              header's first 72 bytes, the records, the slots and the paths (u64)
///     text     the folded searchable texts
///     records  count × 96 bytes (`Column`)
///     slots    slot count × u32: an open-addressing table of record number + 1 (0 is empty),
///              by the FNV-1a hash of the path, so a lookup needs no table built at load
///     paths    each record's vault-relative path, UTF-8
///     strings  per record: title, preview (u32 length + bytes each), the warnings (u32 count,
///              then u32 line and u32 length + message bytes each), then the tags as spelled and
///              the links as written (`ShownRefs`)
///     tags     per record, at the offset and length its columns give: its folded title and
///              folded tags (`TagsChunk`)
///     links    per record, likewise: each link's kind and keys (`LinkKeysChunk`) — the target
///              made into what resolution compares (a relative Markdown path already joined to the
///              note's folder), so finding backlinks compares bytes and makes no strings
enum IndexLayout {
    static let headerSize = 80
    static let recordSize = 96
    /// Where the header keeps the checksum of itself (the bytes before it) and of the tables.
    static let checksumOffset = 72

    /// Byte offsets of a record's columns.
    enum Column {
        static let size = 0, mtime = 8, inode = 16, createdAt = 24, updatedAt = 32
        static let textOffset = 40, textLength = 48, pathOffset = 52, stringsOffset = 56
        static let pathLength = 60, flags = 62, tagsOffset = 64, tagsLength = 68, linksOffset = 72, linksLength = 76
        /// The 32-bit checksums (`IndexChecksum.short`) of the record's text, strings, tags and links.
        static let textCheck = 80, stringsCheck = 84, tagsCheck = 88, linksCheck = 92
    }

    /// Flags: a readable note; its title is not a body line; it has `updatedAt`; its body holds
    /// conflict markers; its name may be that of a conflict copy (`ConflictCopy.mayBeCopy`); (in a
    /// delta) its file is gone.
    static let isNote: UInt8 = 1, titleFromFrontMatter: UInt8 = 2, hasUpdatedAt: UInt8 = 4, conflicted: UInt8 = 8
    static let mayBeConflictCopy: UInt8 = 0x10
    static let removed: UInt8 = 0x80
}

/// An index file mapped in memory, read in place: numbers come from fixed-width columns, strings
/// are made only for the notes shown, and a path is found through the file's own hash table by
/// comparing bytes, so checking 100,000 files against it makes no strings and builds nothing.
final class MappedIndex: @unchecked Sendable {
    let storage: TextStorage
    let kind: IndexKind
    /// A base's own random number; a delta's is that of the base it extends.
    let generation: UInt64
    /// The number of records.
    let count: Int
    private let bytes: UnsafeRawBufferPointer
    private let slotCount: Int
    private let textStart = IndexLayout.headerSize
    private let recordsStart: Int, slotsStart: Int, pathsStart: Int, stringsStart: Int, tagsStart: Int, linksStart: Int
    private let stringsLength: Int
    /// Where a record whose part fails its check is read again from; without one, such a part
    /// reads as nothing (no text, strings, tags or links).
    private let repair: IndexRepair?
    /// Whether checksums are checked: always, but in the tests of what lies beneath them (the
    /// bounds checks, which must hold even for damage a checksum misses).
    private let verifying: Bool

    private init(storage: TextStorage, kind: IndexKind, generation: UInt64, count: Int, slotCount: Int,
                 textLength: Int, pathsLength: Int, stringsLength: Int, tagsLength: Int, repair: IndexRepair?,
                 verifying: Bool) {
        self.storage = storage
        self.repair = repair
        self.verifying = verifying
        self.kind = kind
        self.generation = generation
        self.count = count
        self.slotCount = slotCount
        self.stringsLength = stringsLength
        bytes = storage.bytes
        recordsStart = IndexLayout.headerSize + textLength
        slotsStart = recordsStart + count * IndexLayout.recordSize
        pathsStart = slotsStart + slotCount * 4
        stringsStart = pathsStart + pathsLength
        tagsStart = stringsStart + stringsLength
        linksStart = tagsStart + tagsLength
    }

    /// The index in `storage`; nil when it is damaged, of another version, or made with another
    /// title source (then it is rebuilt). The header, the tables and every record's columns are
    /// checked here (the header's checksum; path, text, tags and links within their regions, dates
    /// representable); a record's text, strings, tags and links when they are read (their
    /// checksums, then their bounds), and when one fails, `repair` reads the note again.
    static func open(
        _ storage: TextStorage, titleSource: TitleSource, repair: IndexRepair? = nil, verifying: Bool = true
    ) -> MappedIndex? {
        let bytes = storage.bytes
        var reader = ByteReader(bytes: bytes)
        guard bytes.count >= IndexLayout.headerSize,
              reader.take(NoteIndexFile.magic.count).map(Array.init) == NoteIndexFile.magic,
              reader.u32() == NoteIndexFile.version, reader.byte() == (titleSource == .filename ? 1 : 0),
              let kindByte = reader.byte(), let kind = IndexKind(rawValue: kindByte),
              let generation = reader.u64(), let count = reader.u32().map(Int.init),
              let slotCount = reader.u32().map(Int.init),
              let textLength = reader.u64(), let pathsLength = reader.u64(), let stringsLength = reader.u64(),
              let tagsLength = reader.u32().map(UInt64.init), let linksLength = reader.u32().map(UInt64.init),
              slotCount > count, slotCount & (slotCount - 1) == 0,
              pathsLength < UInt64(UInt32.max), stringsLength < UInt64(UInt32.max), textLength < UInt64(Int.max / 2)
        else { return nil }
        let fixed = IndexLayout.headerSize + count * IndexLayout.recordSize + slotCount * 4
        guard UInt64(bytes.count) == UInt64(fixed) + textLength + pathsLength + stringsLength + tagsLength + linksLength,
              reader.u32() == 0, let checksum = reader.u64()
        else { return nil }
        let recordsAt = IndexLayout.headerSize + Int(textLength)
        let slotsAt = recordsAt + count * IndexLayout.recordSize, pathsAt = slotsAt + slotCount * 4
        guard !verifying || checksum == IndexChecksum.ofTables(
            header: UnsafeRawBufferPointer(rebasing: bytes[..<IndexLayout.checksumOffset]),
            records: UnsafeRawBufferPointer(rebasing: bytes[recordsAt..<slotsAt]),
            slots: UnsafeRawBufferPointer(rebasing: bytes[slotsAt..<pathsAt]),
            paths: UnsafeRawBufferPointer(rebasing: bytes[pathsAt..<(pathsAt + Int(pathsLength))]))
        else { return nil }
        let index = MappedIndex(storage: storage, kind: kind, generation: generation, count: count, slotCount: slotCount,
                                textLength: Int(textLength), pathsLength: Int(pathsLength), stringsLength: Int(stringsLength),
                                tagsLength: Int(tagsLength), repair: repair, verifying: verifying)
        let text = UInt64(textLength), paths = UInt64(pathsLength), strings = UInt64(stringsLength)
        for number in 0..<count {
            let flags = index.flags(number)
            let pathEnd = UInt64(index.u32(number, IndexLayout.Column.pathOffset)) + UInt64(index.u16(number, IndexLayout.Column.pathLength))
            let textEnd = index.u64(number, IndexLayout.Column.textOffset) &+ UInt64(index.u32(number, IndexLayout.Column.textLength))
            let tagsEnd = UInt64(index.u32(number, IndexLayout.Column.tagsOffset))
                + UInt64(index.u32(number, IndexLayout.Column.tagsLength))
            let linksEnd = UInt64(index.u32(number, IndexLayout.Column.linksOffset))
                + UInt64(index.u32(number, IndexLayout.Column.linksLength))
            guard pathEnd <= paths, textEnd <= text, textEnd >= index.u64(number, IndexLayout.Column.textOffset),
                  UInt64(index.u32(number, IndexLayout.Column.stringsOffset)) < strings, tagsEnd <= tagsLength,
                  linksEnd <= linksLength
            else { return nil }
            // Damage that still parses must not reach the date code: it means a rebuild.
            if flags & IndexLayout.isNote != 0 {
                guard NoteDate.representable.contains(index.double(number, IndexLayout.Column.createdAt)),
                      flags & IndexLayout.hasUpdatedAt == 0
                        || NoteDate.representable.contains(index.double(number, IndexLayout.Column.updatedAt))
                else { return nil }
            }
        }
        return index
    }

    // MARK: Columns

    private func u64(_ number: Int, _ column: Int) -> UInt64 {
        UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: recordsStart + number * IndexLayout.recordSize + column, as: UInt64.self))
    }

    private func u32(_ number: Int, _ column: Int) -> UInt32 {
        UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: recordsStart + number * IndexLayout.recordSize + column, as: UInt32.self))
    }

    private func u16(_ number: Int, _ column: Int) -> UInt16 {
        UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: recordsStart + number * IndexLayout.recordSize + column, as: UInt16.self))
    }

    private func double(_ number: Int, _ column: Int) -> Double { Double(bitPattern: u64(number, column)) }

    func flags(_ number: Int) -> UInt8 { bytes[recordsStart + number * IndexLayout.recordSize + IndexLayout.Column.flags] }
    func isNote(_ number: Int) -> Bool { flags(number) & IndexLayout.isNote != 0 }
    func isRemoved(_ number: Int) -> Bool { flags(number) & IndexLayout.removed != 0 }
    func size(_ number: Int) -> Int64 { Int64(bitPattern: u64(number, IndexLayout.Column.size)) }
    func mtime(_ number: Int) -> Double { double(number, IndexLayout.Column.mtime) }
    func inode(_ number: Int) -> UInt64 { u64(number, IndexLayout.Column.inode) }
    func createdAt(_ number: Int) -> Double { double(number, IndexLayout.Column.createdAt) }
    func updatedAt(_ number: Int) -> Double? {
        flags(number) & IndexLayout.hasUpdatedAt != 0 ? double(number, IndexLayout.Column.updatedAt) : nil
    }

    /// Whether record `number` describes the file with `status` as it is now.
    func isCurrent(_ number: Int, _ status: FileStatus) -> Bool {
        !isRemoved(number) && size(number) == status.size && mtime(number) == status.mtime && inode(number) == status.inode
    }

    /// The bytes of record `number`'s path (checked to lie within the paths region when opened).
    func pathBytes(_ number: Int) -> UnsafeRawBufferPointer {
        let start = pathsStart + Int(u32(number, IndexLayout.Column.pathOffset))
        return UnsafeRawBufferPointer(rebasing: bytes[start..<(start + Int(u16(number, IndexLayout.Column.pathLength)))])
    }

    /// The bytes of record `number`'s folded text, checked (read again from the note's file when
    /// they fail their check).
    func textBytes(_ number: Int) -> UnsafeRawBufferPointer {
        let text = rawText(number)
        return holds(text, number, IndexLayout.Column.textCheck) ? text : repairedText(number)
    }

    @inline(never) private func repairedText(_ number: Int) -> UnsafeRawBufferPointer {
        repaired(number)?.textBytes(0) ?? UnsafeRawBufferPointer(start: nil, count: 0)
    }

    /// The bytes where record `number`'s folded text is, unchecked: for releasing their pages.
    func rawText(_ number: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[textRange(number)])
    }

    /// The checksum of record `number`'s text, as stored.
    func textCheck(_ number: Int) -> UInt32 { u32(number, IndexLayout.Column.textCheck) }

    /// Whether `part` of record `number` is what was written: its checksum is the one in `column`.
    private func holds(_ part: UnsafeRawBufferPointer, _ number: Int, _ column: Int) -> Bool {
        !verifying || IndexChecksum.short(part) == u32(number, column)
    }

    /// Record `number` read again from its file, as the only record of an index in memory, for a
    /// part of it that failed its check; nil without a repair, or when the file is no note now.
    private func repaired(_ number: Int) -> MappedIndex? {
        repair?.record(number, path: path(at: number))
    }

    /// Whether every part of record `number` (text, strings, tags, links) is what was written.
    func isSound(_ number: Int) -> Bool {
        holds(rawText(number), number, IndexLayout.Column.textCheck)
            && rawStrings(number).map { holds($0, number, IndexLayout.Column.stringsCheck) } == true
            && holds(rawTags(number), number, IndexLayout.Column.tagsCheck)
            && holds(rawLinks(number), number, IndexLayout.Column.linksCheck)
    }

    /// Record `number` as a writer copies it: this file's, when every part of it is sound; else
    /// the note read again (nil when that cannot be done: then it is read next time). Its parts
    /// are then taken raw, checked once.
    func sound(_ number: Int) -> (MappedIndex, Int)? {
        if isSound(number) { return (self, number) }
        return repaired(number).map { ($0, 0) }
    }

    private func textRange(_ number: Int) -> Range<Int> {
        let start = textStart + Int(u64(number, IndexLayout.Column.textOffset))
        return start..<(start + Int(u32(number, IndexLayout.Column.textLength)))
    }

    /// Record `number`'s folded title and tags (checked to lie within the tags region when
    /// opened; checked against their checksum, and parsed with bounds checks, when read).
    func tagsChunk(_ number: Int) -> TagsChunk {
        let chunk = rawTags(number)
        return TagsChunk(bytes: holds(chunk, number, IndexLayout.Column.tagsCheck) ? chunk : repairedTags(number))
    }

    @inline(never) private func repairedTags(_ number: Int) -> UnsafeRawBufferPointer {
        repaired(number)?.tagsChunk(0).bytes ?? UnsafeRawBufferPointer(start: nil, count: 0)
    }

    /// Record `number`'s links' keys (likewise).
    func linksChunk(_ number: Int) -> LinkKeysChunk {
        let chunk = rawLinks(number)
        return LinkKeysChunk(bytes: holds(chunk, number, IndexLayout.Column.linksCheck) ? chunk : repairedLinks(number))
    }

    @inline(never) private func repairedLinks(_ number: Int) -> UnsafeRawBufferPointer {
        repaired(number)?.linksChunk(0).bytes ?? UnsafeRawBufferPointer(start: nil, count: 0)
    }

    /// The bytes of record `number`'s chunk of the tags or links region, unchecked.
    func rawTags(_ number: Int) -> UnsafeRawBufferPointer { rawChunk(number, IndexLayout.Column.tagsOffset, tagsStart) }
    func rawLinks(_ number: Int) -> UnsafeRawBufferPointer { rawChunk(number, IndexLayout.Column.linksOffset, linksStart) }

    /// The bytes of a chunk whose offset is in `column` and length in the column after.
    private func rawChunk(_ number: Int, _ column: Int, _ region: Int) -> UnsafeRawBufferPointer {
        let start = region + Int(u32(number, column))
        return UnsafeRawBufferPointer(rebasing: bytes[start..<(start + Int(u32(number, column + 4)))])
    }

    /// Record `number`'s links, made whole: keys and how they are written (see `note(at:reading:)`
    /// for `reading`).
    func links(at number: Int, reading: Bool = false) -> [IndexedLink] {
        let keys = linksChunk(number)
        return withStrings(number, reading: reading) { strings -> [IndexedLink]? in
            var reader = ByteReader(bytes: strings)
            guard MappedIndex.skipToShown(&reader) else { return nil }
            // All there (a read may have cut the strings short)?
            var end = reader
            guard ShownRefs.skip(&end) else { return nil }
            return ShownRefs.links(&reader, keys: keys)
        } ?? []
    }

    /// What `parse` makes of record `number`'s strings (checked), in place or (`reading`) read
    /// with `pread`, a few kilobytes at first and more until they are all there; nil when it makes
    /// nothing of them.
    private func withStrings<R>(_ number: Int, reading: Bool, _ parse: (UnsafeRawBufferPointer) -> R?) -> R? {
        guard reading else { return stringsBytes(number).flatMap(parse) }
        let start = stringsStart + Int(u32(number, IndexLayout.Column.stringsOffset))
        let end = stringsStart + stringsLength
        var size = min(4096, end - start)
        while true {
            let chunk = storage.read(at: start, count: size)
            if let length = chunk.withUnsafeBytes(MappedIndex.stringsLength(in:)) {
                let (sound, parsed) = chunk.withUnsafeBytes { bytes -> (Bool, R?) in
                    let strings = UnsafeRawBufferPointer(rebasing: bytes[..<length])
                    return holds(strings, number, IndexLayout.Column.stringsCheck) ? (true, parse(strings)) : (false, nil)
                }
                if sound { return parsed }
                break
            }
            if chunk.count < size || size >= end - start { break }
            size = min(end - start, size * 4)
        }
        return repaired(number)?.withStrings(0, reading: false, parse)
    }

    /// The length of the strings at the start of `bytes` (a title, a preview, the warnings, the
    /// shown tags and links); nil when they do not all parse within it.
    private static func stringsLength(in bytes: UnsafeRawBufferPointer) -> Int? {
        var reader = ByteReader(bytes: bytes)
        guard skipToShown(&reader), ShownRefs.skip(&reader) else { return nil }
        return reader.offset
    }

    /// Moves `reader` past a title, a preview and the warnings.
    private static func skipToShown(_ reader: inout ByteReader) -> Bool {
        guard reader.range() != nil, reader.range() != nil, let warnings = reader.u32(),
              UInt64(warnings) * 8 <= UInt64(reader.bytes.count - reader.offset) else { return false }
        for _ in 0..<warnings {
            guard reader.u32() != nil, reader.range() != nil else { return false }
        }
        return true
    }

    /// Record `number`'s title, preview, warnings, shown tags and links as stored, checked; read
    /// again from the note's file when they fail their check or do not parse (damage: the record
    /// is not trusted); nil when that cannot be done.
    func stringsBytes(_ number: Int) -> UnsafeRawBufferPointer? {
        if let stored = rawStrings(number), holds(stored, number, IndexLayout.Column.stringsCheck) { return stored }
        return repaired(number)?.stringsBytes(0)
    }

    /// Record `number`'s strings as far as they parse within the region, unchecked.
    func rawStrings(_ number: Int) -> UnsafeRawBufferPointer? {
        let start = stringsStart + Int(u32(number, IndexLayout.Column.stringsOffset))
        let strings = UnsafeRawBufferPointer(rebasing: bytes[start..<(stringsStart + stringsLength)])
        return MappedIndex.stringsLength(in: strings).map { UnsafeRawBufferPointer(rebasing: strings[..<$0]) }
    }

    // MARK: Finding a path

    /// The FNV-1a hash of the bytes of `prefix` followed by those of `name`: a path is hashed in
    /// two parts, a folder and a file name, without joining them.
    static func hash(_ prefix: UnsafeRawBufferPointer, _ name: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0)) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in prefix { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        for byte in name { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash ^ (hash >> 32)
    }

    /// The number of the record whose path is `prefix` followed by `name`, if there is one.
    func find(_ prefix: UnsafeRawBufferPointer, _ name: UnsafeRawBufferPointer) -> Int? {
        let mask = slotCount - 1
        var slot = Int(truncatingIfNeeded: MappedIndex.hash(prefix, name)) & mask
        // At most one pass over the table, whatever a damaged table holds.
        for _ in 0..<slotCount {
            let entry = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: slotsStart + slot * 4, as: UInt32.self)))
            if entry == 0 { return nil }
            if entry <= count, MappedIndex.equal(pathBytes(entry - 1), prefix, name) { return entry - 1 }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Whether record `number`'s path is `prefix` followed by `name`.
    func has(_ prefix: UnsafeRawBufferPointer, _ name: UnsafeRawBufferPointer, at number: Int) -> Bool {
        MappedIndex.equal(pathBytes(number), prefix, name)
    }

    /// The number of the record of `path`, if there is one.
    func find(_ path: String) -> Int? {
        var path = path
        return path.withUTF8 { find(UnsafeRawBufferPointer($0), UnsafeRawBufferPointer(start: nil, count: 0)) }
    }

    /// Whether `stored` is the bytes of `prefix` followed by those of `name`.
    private static func equal(_ stored: UnsafeRawBufferPointer, _ prefix: UnsafeRawBufferPointer, _ name: UnsafeRawBufferPointer) -> Bool {
        guard stored.count == prefix.count + name.count else { return false }
        if let s = stored.baseAddress {
            if prefix.count > 0, let p = prefix.baseAddress, memcmp(s, p, prefix.count) != 0 { return false }
            if name.count > 0, let n = name.baseAddress, memcmp(s + prefix.count, n, name.count) != 0 { return false }
        }
        return true
    }

    // MARK: Strings, made on demand

    /// The path of record `number`.
    func path(at number: Int) -> String { String(decoding: pathBytes(number), as: UTF8.self) }

    /// The note of record `number` (a readable note's record). A title or preview that does not
    /// parse (damage) reads as empty. `reading` takes the title and preview with `pread` rather
    /// than from the mapping: for a few notes of a one-off command, whose memory stays smaller.
    func note(at number: Int, reading: Bool = false) -> Note {
        let path = path(at: number)
        var title = "", preview = ""
        var tags: [String] = []
        /// The title, preview and tags at the start of `strings`, if they are all there.
        func parse(_ strings: UnsafeRawBufferPointer) -> (String, String, [String])? {
            var reader = ByteReader(bytes: strings)
            guard let title = reader.repairedString(), let preview = reader.repairedString() else { return nil }
            var shown = ByteReader(bytes: strings)
            guard MappedIndex.skipToShown(&shown), let tags = ShownRefs.tags(&shown) else { return nil }
            return (title, preview, tags)
        }
        if let parsed = withStrings(number, reading: reading, parse) { (title, preview, tags) = parsed }
        return Note(
            id: Note.id(forPath: path), path: path, title: title,
            titleFromFrontMatter: flags(number) & IndexLayout.titleFromFrontMatter != 0, createdAt: createdAt(number),
            updatedAt: updatedAt(number), preview: preview, conflicted: flags(number) & IndexLayout.conflicted != 0,
            tags: tags)
    }

    /// The date `order` sorts record `number` by.
    func date(at number: Int, order: SortOrder) -> Double {
        order == .created ? createdAt(number) : updatedAt(number) ?? createdAt(number)
    }

    /// Calls `body` with the bytes of record `number`'s ID (its path without `.md`).
    func withID<R>(at number: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        let path = pathBytes(number)
        // Compared in place: this runs for every note of a listing (and in every sort comparison).
        let n = path.count
        if n > 3, path[n - 3] == UInt8(ascii: "."), path[n - 2] == UInt8(ascii: "m"), path[n - 1] == UInt8(ascii: "d") {
            return body(UnsafeRawBufferPointer(rebasing: path[..<(path.count - 3)]))
        }
        return body(path)
    }

    /// The folded text of record `number` (checked).
    func folded(at number: Int) -> FoldedText {
        let text = textBytes(number)
        if text.baseAddress == rawText(number).baseAddress { return FoldedText(storage: storage, range: textRange(number)) }
        return FoldedText(Array(text))
    }

    /// The warnings of record `number`.
    func warnings(at number: Int) -> [ParseWarning] {
        guard let strings = stringsBytes(number) else { return [] }
        var reader = ByteReader(bytes: strings)
        _ = reader.range()
        _ = reader.range()
        var warnings: [ParseWarning] = []
        for _ in 0..<(reader.u32() ?? 0) {
            guard let line = reader.u32(), let message = reader.repairedString() else { break }
            warnings.append(ParseWarning(line: Int(line), message: message))
        }
        return warnings
    }

    /// Record `number`'s tags and links, as an index table takes them.
    func refs(at number: Int) -> NoteRefs.Encoded {
        var shown = ShownRefs.none
        if let strings = stringsBytes(number) {
            var reader = ByteReader(bytes: strings)
            if MappedIndex.skipToShown(&reader) { shown = Array(strings[reader.offset...]) }
        }
        return NoteRefs.Encoded(tags: Array(tagsChunk(number).bytes), links: Array(linksChunk(number).bytes), shown: shown)
    }

    /// Record `number` with its strings made, as a record read from a file would be.
    func record(at number: Int) -> IndexRecord {
        IndexRecord(
            path: path(at: number), size: size(number), mtime: mtime(number), inode: inode(number),
            note: isNote(number) ? note(at: number) : nil, warnings: warnings(at: number), folded: folded(at: number),
            refs: refs(at: number), removed: isRemoved(number))
    }
}

/// The index as a command sees it: a base and, when it extends that very base, a delta whose
/// records win. Records are numbered across both: the base's first, then the delta's.
final class IndexView: @unchecked Sendable {
    let base: MappedIndex
    let delta: MappedIndex?
    /// How many records stand for files: the base's that the delta does not replace or remove,
    /// and the delta's that are not removals.
    let liveCount: Int

    /// A view of `base` and `delta`; a delta of another base (one merged since) is left out.
    init(base: MappedIndex, delta: MappedIndex?) {
        self.base = base
        let delta = delta.flatMap { $0.kind == .delta && $0.generation == base.generation ? $0 : nil }
        self.delta = delta
        var live = base.count
        if let delta {
            for number in 0..<delta.count {
                if base.find(delta.pathBytes(number), UnsafeRawBufferPointer(start: nil, count: 0)) != nil { live -= 1 }
                if !delta.isRemoved(number) { live += 1 }
            }
        }
        liveCount = live
    }

    /// The number of the record whose path is `prefix` followed by `name`, if the view has a live one.
    func find(_ prefix: UnsafeRawBufferPointer, _ name: UnsafeRawBufferPointer) -> Int? {
        find(prefix, name, after: nil)
    }

    /// `find`, trying first the base's record after `previous` (the one found for the name before):
    /// a folder lists its files in the order the index recorded them, so the guess is mostly right,
    /// and costs a comparison of bytes next to the last ones instead of a hash and a lookup in a
    /// table far away in memory. (A base has one record per path, so a record with the path is
    /// the one `find` would give.)
    func find(_ prefix: UnsafeRawBufferPointer, _ name: UnsafeRawBufferPointer, after previous: Int?) -> Int? {
        if let delta, let number = delta.find(prefix, name) {
            return delta.isRemoved(number) ? nil : base.count + number
        }
        if let previous, previous + 1 < base.count, base.has(prefix, name, at: previous + 1) { return previous + 1 }
        return base.find(prefix, name)
    }

    /// The number of the record of `path`, if the view has a live one.
    func find(_ path: String) -> Int? {
        var path = path
        return path.withUTF8 { find(UnsafeRawBufferPointer($0), UnsafeRawBufferPointer(start: nil, count: 0)) }
    }

    /// The file and its own record number for a view-wide number.
    func locate(_ number: Int) -> (file: MappedIndex, number: Int) {
        if number >= base.count, let delta { return (delta, number - base.count) }
        return (base, number)
    }

    /// Numbers grouped by the file they belong to, in order.
    func split(_ numbers: [Int]) -> [(MappedIndex, [Int])] {
        var inBase: [Int] = [], inDelta: [Int] = []
        for number in numbers {
            if number < base.count { inBase.append(number) } else { inDelta.append(number - base.count) }
        }
        return [(base, inBase)] + (delta.map { [($0, inDelta)] } ?? [])
    }

    /// Releases the pages holding the folded texts of `numbers` from this process (they stay in
    /// the page cache; reading them again maps them again). Only the pages wholly inside the span
    /// of those texts in each file, and only when the texts lie mostly together.
    func releaseText(of numbers: ArraySlice<Int32>) {
        // One span per file (the base's, the delta's): a list of two, not a dictionary.
        var spans: [(file: MappedIndex, low: Int, high: Int, bytes: Int)] = []
        for number in numbers {
            let (file, n) = locate(Int(number))
            // Memory of our own (an index encoded in memory) would read back as zeros.
            guard file.storage.isMapped else { continue }
            let text = file.rawText(n)
            guard let start = text.baseAddress else { continue }
            let low = Int(bitPattern: start), high = low + text.count
            if let i = spans.firstIndex(where: { $0.file === file }) {
                spans[i] = (file, min(spans[i].low, low), max(spans[i].high, high), spans[i].bytes + text.count)
            } else {
                spans.append((file, low, high, text.count))
            }
        }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        for span in spans where span.high - span.low <= 2 * span.bytes {
            let first = (span.low + page - 1) / page * page, last = span.high / page * page
            if last > first, let start = UnsafeMutableRawPointer(bitPattern: first) {
                madvise(start, last - first, MADV_DONTNEED)
            }
        }
    }

    func isCurrent(_ number: Int, _ status: FileStatus) -> Bool { let (file, n) = locate(number); return file.isCurrent(n, status) }
    func isNote(_ number: Int) -> Bool { let (file, n) = locate(number); return file.isNote(n) }
    func flags(_ number: Int) -> UInt8 { let (file, n) = locate(number); return file.flags(n) }
    func path(at number: Int) -> String { let (file, n) = locate(number); return file.path(at: n) }
    func note(at number: Int, reading: Bool = false) -> Note { let (file, n) = locate(number); return file.note(at: n, reading: reading) }
    func textBytes(_ number: Int) -> UnsafeRawBufferPointer { let (file, n) = locate(number); return file.textBytes(n) }
    func tagsChunk(_ number: Int) -> TagsChunk { let (file, n) = locate(number); return file.tagsChunk(n) }
    func linksChunk(_ number: Int) -> LinkKeysChunk { let (file, n) = locate(number); return file.linksChunk(n) }
    func links(at number: Int, reading: Bool = false) -> [IndexedLink] {
        let (file, n) = locate(number)
        return file.links(at: n, reading: reading)
    }

    func date(at number: Int, order: SortOrder) -> Double {
        let (file, n) = locate(number)
        return file.date(at: n, order: order)
    }

    func withID<R>(at number: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        let (file, n) = locate(number)
        return file.withID(at: n, body)
    }
}

/// Folded searchable text: a range of the memory-mapped index, or bytes of a file just read.
/// Mapped text is only paged in when a search reads it, so `list` never touches it.
public struct FoldedText: Sendable {
    private let storage: TextStorage?
    private let owned: [UInt8]
    private let range: Range<Int>

    init(_ bytes: [UInt8]) {
        storage = nil
        owned = bytes
        range = 0..<bytes.count
    }

    init(storage: TextStorage, range: Range<Int>) {
        self.storage = storage
        owned = []
        self.range = range
    }

    /// The number of bytes.
    public var count: Int { range.count }

    /// Calls `body` with the bytes.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        if let storage { return body(UnsafeRawBufferPointer(rebasing: storage.bytes[range])) }
        return owned.withUnsafeBytes(body)
    }
}

/// Bytes an index is read from, at a fixed address for as long as this lives: a read-only memory
/// map of a file, or a copy of bytes in memory.
final class TextStorage: @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer
    /// The mapped file, open; -1 for memory of this process.
    private let fd: Int32
    /// Whether `bytes` map a file (else they are memory of this process).
    var isMapped: Bool { fd >= 0 }

    /// The inode of the mapped file; nil for memory of this process.
    var inode: UInt64? {
        var status = stat()
        guard fd >= 0, fstat(fd, &status) == 0 else { return nil }
        return UInt64(status.st_ino)
    }

    init(_ array: [UInt8]) {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, array.count), alignment: 16)
        array.withUnsafeBytes { copy.copyMemory(from: $0) }
        bytes = UnsafeRawBufferPointer(rebasing: copy[..<array.count])
        fd = -1
    }

    /// Maps a whole file read-only; nil when it cannot be mapped (then the caller reads it).
    init?(mapping path: String) {
        guard let (map, fd) = FileSystem.map(path) else { return nil }
        bytes = map
        self.fd = fd
    }

    deinit {
        if isMapped {
            FileSystem.unmap(bytes)
            close(fd)
        } else if let base = bytes.baseAddress {
            UnsafeMutableRawPointer(mutating: base).deallocate()
        }
    }

    /// Up to `count` bytes at `offset`, read without touching the mapping (`pread`), so that a
    /// few scattered reads do not map whole runs of the page cache into this process.
    func read(at offset: Int, count: Int) -> [UInt8] {
        let count = max(0, min(count, bytes.count - offset))
        guard isMapped else { return Array(bytes[offset..<(offset + count)]) }
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            let n = pread(fd, buffer.baseAddress, count, off_t(offset))
            initialized = max(0, n)
        }
    }
}

/// Writes and opens index files (layout in `IndexLayout`). An index is only ever a cache, written
/// atomically, read with bounds checks: anything unexpected means "no index" and costs one rebuild.
enum NoteIndexFile {
    static let magic = Array("MYNOTES-INDEX\n".utf8)
    /// Bump when the format or the folding changes, so old caches are rebuilt.
    static let version: UInt32 = 10

    /// The index file's bytes: the records `kept` of a mapped index (copied as they are, without
    /// making strings), then records read from files; `titleSource` is recorded, since titles and
    /// folded texts depend on it.
    static func encode(
        kept: [Int] = [], of index: IndexView? = nil, read: [IndexRecord], removed: [String] = [],
        titleSource: TitleSource = .content, kind: IndexKind = .base, generation: UInt64 = 0
    ) -> [UInt8] {
        var table = IndexTable()
        for record in read { table.add(record) }
        return encode(kept: kept, of: index, read: [table], removed: removed, titleSource: titleSource, kind: kind,
                      generation: generation)
    }

    /// `encode` of records already in tables (as the workers that read files make them).
    static func encode(
        kept: [Int], of index: IndexView?, read: [IndexTable], removed: [String],
        titleSource: TitleSource, kind: IndexKind, generation: UInt64
    ) -> [UInt8] {
        var out: [UInt8] = []
        write(kept: kept, of: index, read: read, removed: removed, titleSource: titleSource, kind: kind,
              generation: generation) { out.append(contentsOf: $0) }
        return out
    }

    /// The index file's bytes (see `encode`) handed to `emit` in chunks, in file order: the
    /// header, each folded text straight from where it is (the old index's mapping, or the tables
    /// of the files just read, so the texts are never gathered in memory), then the tables.
    static func write(
        kept: [Int], of index: IndexView?, read: [IndexTable], removed: [String],
        titleSource: TitleSource, kind: IndexKind, generation: UInt64,
        emit: (UnsafeRawBufferPointer) -> Void
    ) {
        var table = IndexTable(capacity: kept.count + read.reduce(0) { $0 + $1.count } + removed.count)
        let keptTexts = table.addKept(kept, of: index)
        for chunk in read { table.appendRecords(of: chunk) }
        table.addRemoved(removed)
        let slots = table.slots()
        header(of: table, slots: slots, titleSource: titleSource, kind: kind, generation: generation).withUnsafeBytes(emit)
        keptTexts.forEach(emit)
        for chunk in read { chunk.texts.withUnsafeBytes(emit) }
        table.emitTables(slots: slots, emit)
    }

    /// The header of an index file holding `table` with `slots`, its checksum last.
    static func header(
        of table: IndexTable, slots: [UInt32], titleSource: TitleSource, kind: IndexKind, generation: UInt64
    ) -> [UInt8] {
        var header = magic
        append(version, to: &header)
        header.append(titleSource == .filename ? 1 : 0)
        header.append(kind.rawValue)
        append(generation, to: &header)
        append(UInt32(table.count), to: &header)
        append(UInt32(slots.count), to: &header)
        append(table.textLength, to: &header)
        append(UInt64(table.paths.count), to: &header)
        append(UInt64(table.stringsLength), to: &header)
        append(UInt32(table.tagsLength), to: &header)
        append(UInt32(table.linksLength), to: &header)
        header += [UInt8](repeating: 0, count: IndexLayout.checksumOffset - header.count)
        let checksum = header.withUnsafeBytes { header in
            table.records.withUnsafeBytes { records in
                slots.withUnsafeBytes { slots in
                    table.paths.withUnsafeBytes { paths in
                        IndexChecksum.ofTables(header: header, records: records, slots: slots, paths: paths)
                    }
                }
            }
        }
        append(checksum, to: &header)
        return header
    }

    /// The index in `storage`, read in place; nil when it is damaged, of another version, or made
    /// with another title source. A record whose part fails its check later is read again through
    /// `repair`.
    static func map(_ storage: TextStorage, titleSource: TitleSource = .content, repair: IndexRepair? = nil) -> MappedIndex? {
        MappedIndex.open(storage, titleSource: titleSource, repair: repair)
    }

    static func append<T: FixedWidthInteger>(_ value: T, to out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
    }

    static func append(_ string: String, to out: inout [UInt8]) {
        append(UInt32(string.utf8.count), to: &out)
        out.append(contentsOf: string.utf8)
    }
}

/// An index file written while the files it records are still being read: the header's place
/// and the kept records' texts first, then each batch's texts as soon as it is read (on a queue of
/// their own, beside the readers, with the disk writing them back early), then the tables and the
/// header; then it is put in place atomically. The same layout `NoteIndexFile.write` makes.
final class IndexStream: @unchecked Sendable {
    private let file: PendingFile
    private let queue = DispatchQueue(label: "notes.index-writer")
    private var table: IndexTable
    private var chunks: [IndexTable] = []

    /// Starts the file that will become `path`, with the records `kept` of `index`.
    init(path: String, kept: [Int], of index: IndexView?, capacity: Int) throws(VaultError) {
        file = try PendingFile(beside: path)
        table = IndexTable(capacity: capacity)
        [UInt8](repeating: 0, count: IndexLayout.headerSize).withUnsafeBytes(file.append)
        table.addKept(kept, of: index).forEach(file.append)
    }

    /// Adds the records of `read` (just read, in order); their texts are written out meanwhile.
    func add(_ read: [IndexTable]) {
        // Kept without their texts, which are let go once written: the memory is used again for
        // the next batch (no new pages to fault in), and the texts are never all held at once.
        chunks += read.map { chunk in
            var kept = chunk
            kept.texts = []
            return kept
        }
        queue.async { [file] in
            for chunk in read { chunk.texts.withUnsafeBytes(file.append) }
            file.startWriteback()
        }
    }

    /// Writes the tables (with the tombstones `removed`) and the header, and puts the file in place.
    func commit(removed: [String], titleSource: TitleSource, kind: IndexKind, generation: UInt64, mode: mode_t) throws(VaultError) {
        queue.sync {}
        for chunk in chunks { table.appendRecords(of: chunk) }
        table.addRemoved(removed)
        let slots = table.slots()
        table.emitTables(slots: slots, file.append)
        NoteIndexFile.header(of: table, slots: slots, titleSource: titleSource, kind: kind, generation: generation)
            .withUnsafeBytes { file.write($0, at: 0) }
        try file.commit(mode: mode)
    }
}

/// A bounds-checked cursor over the index bytes; every read is nil past the end.
struct ByteReader {
    let bytes: UnsafeRawBufferPointer
    var offset = 0

    mutating func take(_ count: Int) -> UnsafeRawBufferPointer? {
        guard count >= 0, count <= bytes.count - offset else { return nil }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)])
    }

    mutating func byte() -> UInt8? { take(1)?.first }

    mutating func u16() -> UInt16? { take(2).map { UInt16(littleEndian: $0.loadUnaligned(as: UInt16.self)) } }

    mutating func u32() -> UInt32? { take(4).map { UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self)) } }

    mutating func u64() -> UInt64? { take(8).map { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) } }

    /// A length-prefixed string (bytes that are not UTF-8 are repaired).
    mutating func repairedString() -> String? {
        guard let length = u32(), let slice = take(Int(length)) else { return nil }
        return String(decoding: slice, as: UTF8.self)
    }

    /// A length-prefixed string's place in the whole buffer, without making it.
    mutating func range() -> Range<Int>? {
        guard let length = u32(), take(Int(length)) != nil else { return nil }
        return (offset - Int(length))..<offset
    }
}

/// Index records being put together: their columns, paths and strings, a hash of each path, and
/// (for records read from files) their folded texts. The workers that read files each fill one,
/// in parallel; the writer joins them — the records and paths copied together, the strings, tags
/// and links of each table kept where they are and written out one after the other.
struct IndexTable {
    var records: [UInt8] = []
    var paths: [UInt8] = []
    /// The strings of the records added last (those of records appended from other tables, and
    /// of the records before them, are in `earlier`).
    var strings: [UInt8] = []
    /// Each note's folded title and tags (`TagsChunk`), and its links' keys (`LinkKeysChunk`),
    /// likewise.
    var tags: [UInt8] = []
    var links: [UInt8] = []
    /// The strings, tags and links of the records before those of `strings`, `tags`, `links`.
    private var earlier: [(strings: [UInt8], tags: [UInt8], links: [UInt8])] = []
    private var earlierLength = (strings: 0, tags: 0, links: 0)
    /// The lengths of the strings, tags and links regions.
    var stringsLength: Int { earlierLength.strings + strings.count }
    var tagsLength: Int { earlierLength.tags + tags.count }
    var linksLength: Int { earlierLength.links + links.count }
    var hashes: [UInt64] = []
    /// The folded texts of the records added with `add(_:)`, in record order.
    var texts: [UInt8] = []
    /// The length of the texts of all records (those of `texts`, and those emitted from elsewhere).
    var textLength: UInt64 = 0
    var count: Int { hashes.count }

    init(capacity: Int = 0) {
        records.reserveCapacity(capacity * IndexLayout.recordSize)
        hashes.reserveCapacity(capacity)
    }

    /// Adds a record whose text (of `length` bytes, with checksum `textCheck`) the writer takes
    /// from elsewhere; `strings` appends its title, preview, warnings and shown tags and links;
    /// `tags` and `links` are its chunks of those regions.
    mutating func add(
        path: UnsafeRawBufferPointer, size: Int64, mtime: Double, inode: UInt64, createdAt: Double,
        updatedAt: Double?, flags: UInt8, textLength length: Int, textCheck: UInt32, tags tagsChunk: UnsafeRawBufferPointer,
        links linksChunk: UnsafeRawBufferPointer, strings write: (inout [UInt8]) -> Void
    ) {
        let start = records.count
        let (stringsOffset, tagsOffset, linksOffset) = (stringsLength, tagsLength, linksLength)
        let stringsStart = strings.count
        write(&strings)
        let stringsCheck = strings.withUnsafeBytes { IndexChecksum.short(UnsafeRawBufferPointer(rebasing: $0[stringsStart...])) }
        let flags = flags | (ConflictCopy.mayBeCopy(path) ? IndexLayout.mayBeConflictCopy : 0)
        records.append(contentsOf: repeatElement(0, count: IndexLayout.recordSize))
        records.withUnsafeMutableBytes { bytes in
            func put<T: FixedWidthInteger>(_ value: T, _ column: Int) {
                bytes.storeBytes(of: value.littleEndian, toByteOffset: start + column, as: T.self)
            }
            put(UInt64(bitPattern: size), IndexLayout.Column.size)
            put(mtime.bitPattern, IndexLayout.Column.mtime)
            put(inode, IndexLayout.Column.inode)
            put(createdAt.bitPattern, IndexLayout.Column.createdAt)
            put((updatedAt ?? 0).bitPattern, IndexLayout.Column.updatedAt)
            put(textLength, IndexLayout.Column.textOffset)
            put(UInt32(length), IndexLayout.Column.textLength)
            put(UInt32(paths.count), IndexLayout.Column.pathOffset)
            put(UInt32(stringsOffset), IndexLayout.Column.stringsOffset)
            put(UInt16(path.count), IndexLayout.Column.pathLength)
            put(flags | (updatedAt != nil ? IndexLayout.hasUpdatedAt : 0), IndexLayout.Column.flags)
            put(UInt32(tagsOffset), IndexLayout.Column.tagsOffset)
            put(UInt32(tagsChunk.count), IndexLayout.Column.tagsLength)
            put(UInt32(linksOffset), IndexLayout.Column.linksOffset)
            put(UInt32(linksChunk.count), IndexLayout.Column.linksLength)
            put(textCheck, IndexLayout.Column.textCheck)
            put(stringsCheck, IndexLayout.Column.stringsCheck)
            put(IndexChecksum.short(tagsChunk), IndexLayout.Column.tagsCheck)
            put(IndexChecksum.short(linksChunk), IndexLayout.Column.linksCheck)
        }
        paths.append(contentsOf: path)
        tags.append(contentsOf: tagsChunk)
        links.append(contentsOf: linksChunk)
        hashes.append(MappedIndex.hash(path))
        textLength += UInt64(length)
    }

    /// Adds a record read from a file, with its folded text.
    mutating func add(_ r: IndexRecord) {
        let start = texts.count
        r.folded.withUnsafeBytes { texts.append(contentsOf: $0) }
        add(path: r.path, size: r.size, mtime: r.mtime, inode: r.inode, note: r.note, warnings: r.warnings,
            refs: r.refs, textFrom: start)
    }

    /// Adds a record read from a file whose folded text is `texts[textStart...]` (folded there by
    /// the caller). A path longer than a record can hold (far beyond PATH_MAX) is not indexed:
    /// the file is read every time.
    mutating func add(
        path: String, size: Int64, mtime: Double, inode: UInt64, note: Note?, warnings: [ParseWarning],
        refs: NoteRefs.Encoded, textFrom textStart: Int
    ) {
        var path = path
        guard path.utf8.count <= Int(UInt16.max) else {
            texts.removeSubrange(textStart...)
            return
        }
        let flags: UInt8 = note.map { note in
            IndexLayout.isNote | (note.titleFromFrontMatter ? IndexLayout.titleFromFrontMatter : 0)
                | (note.conflicted ? IndexLayout.conflicted : 0)
        } ?? 0
        path.withUTF8 { path in
            refs.tags.withUnsafeBytes { tagsChunk in
                refs.links.withUnsafeBytes { linksChunk in
                    let textCheck = texts.withUnsafeBytes { IndexChecksum.short(UnsafeRawBufferPointer(rebasing: $0[textStart...])) }
                    add(path: UnsafeRawBufferPointer(path), size: size, mtime: mtime, inode: inode,
                        createdAt: note?.createdAt ?? 0, updatedAt: note?.updatedAt, flags: flags,
                        textLength: texts.count - textStart, textCheck: textCheck, tags: tagsChunk, links: linksChunk) { strings in
                        NoteIndexFile.append(note?.title ?? "", to: &strings)
                        NoteIndexFile.append(note?.preview ?? "", to: &strings)
                        NoteIndexFile.append(UInt32(warnings.count), to: &strings)
                        for w in warnings {
                            NoteIndexFile.append(UInt32(max(0, w.line)), to: &strings)
                            NoteIndexFile.append(w.message, to: &strings)
                        }
                        strings.append(contentsOf: refs.shown)
                    }
                }
            }
        }
    }

    /// Appends the records of `other` (not its texts, which the writer emits from `other`), their
    /// offsets moved past this table's paths, strings, tags, links and texts.
    mutating func appendRecords(of other: IndexTable) {
        let start = records.count
        records += other.records
        let (pathBase, stringsBase, textBase) = (UInt32(paths.count), UInt32(stringsLength), textLength)
        let (tagsBase, linksBase) = (UInt32(tagsLength), UInt32(linksLength))
        records.withUnsafeMutableBytes { bytes in
            for record in stride(from: start, to: bytes.count, by: IndexLayout.recordSize) {
                func shift<T: FixedWidthInteger>(_ column: Int, by amount: T, as: T.Type) {
                    let value = T(littleEndian: bytes.loadUnaligned(fromByteOffset: record + column, as: T.self))
                    bytes.storeBytes(of: (value + amount).littleEndian, toByteOffset: record + column, as: T.self)
                }
                shift(IndexLayout.Column.pathOffset, by: pathBase, as: UInt32.self)
                shift(IndexLayout.Column.stringsOffset, by: stringsBase, as: UInt32.self)
                shift(IndexLayout.Column.tagsOffset, by: tagsBase, as: UInt32.self)
                shift(IndexLayout.Column.linksOffset, by: linksBase, as: UInt32.self)
                shift(IndexLayout.Column.textOffset, by: textBase, as: UInt64.self)
            }
        }
        paths += other.paths
        // The other table's strings, tags and links follow these, as they are (not copied).
        for part in [(strings, tags, links)] + other.earlier + [(other.strings, other.tags, other.links)] {
            earlier.append(part)
            earlierLength.strings += part.0.count
            earlierLength.tags += part.1.count
            earlierLength.links += part.2.count
        }
        (strings, tags, links) = ([], [], [])
        hashes += other.hashes
        textLength += other.textLength
    }

    /// Adds the records `kept` of `index` (view-wide numbers), copied as they are (their text,
    /// strings, tags and links byte for byte, with their checksums), and returns their texts in
    /// order, for the writer to put first. A kept record with a part that fails its check is read
    /// again from its file; when that cannot be done, it is left out (and read next time).
    mutating func addKept(_ kept: [Int], of index: IndexView?) -> [UnsafeRawBufferPointer] {
        var texts: [UnsafeRawBufferPointer] = []
        for (file, numbers) in index?.split(kept) ?? [] {
            for number in numbers {
                guard let (source, n) = file.sound(number), let strings = source.rawStrings(n) else { continue }
                let text = source.rawText(n)
                add(path: source.pathBytes(n), size: source.size(n), mtime: source.mtime(n), inode: source.inode(n),
                    createdAt: source.createdAt(n), updatedAt: source.updatedAt(n), flags: source.flags(n),
                    textLength: text.count, textCheck: source.textCheck(n),
                    tags: source.rawTags(n), links: source.rawLinks(n)) {
                    $0.append(contentsOf: strings)
                }
                texts.append(text)
            }
        }
        return texts
    }

    /// Adds a delta's tombstones: paths the base knows that the vault no longer has (no note, no text).
    mutating func addRemoved(_ removed: [String]) {
        for path in removed {
            var path = path
            path.withUTF8 { path in
                add(path: UnsafeRawBufferPointer(path), size: 0, mtime: 0, inode: 0, createdAt: 0, updatedAt: nil,
                    flags: IndexLayout.removed, textLength: 0, textCheck: IndexChecksum.short([]),
                    tags: UnsafeRawBufferPointer(start: nil, count: 0),
                    links: UnsafeRawBufferPointer(start: nil, count: 0)) { strings in
                    // No title, preview or warnings; no tags, no links.
                    strings.append(contentsOf: [UInt8](repeating: 0, count: 20))
                }
            }
        }
    }

    /// Hands the regions after the texts to `emit`: records, `slots`, paths, strings, tags, links.
    func emitTables(slots: [UInt32], _ emit: (UnsafeRawBufferPointer) -> Void) {
        records.withUnsafeBytes(emit)
        slots.withUnsafeBytes(emit)
        paths.withUnsafeBytes(emit)
        for part in earlier { part.strings.withUnsafeBytes(emit) }
        strings.withUnsafeBytes(emit)
        for part in earlier { part.tags.withUnsafeBytes(emit) }
        tags.withUnsafeBytes(emit)
        for part in earlier { part.links.withUnsafeBytes(emit) }
        links.withUnsafeBytes(emit)
    }

    /// Calls `body` with the bytes of each record's path, in order.
    func forEachPath(_ body: (UnsafeRawBufferPointer) -> Void) {
        records.withUnsafeBytes { bytes in
            paths.withUnsafeBytes { paths in
                for record in stride(from: 0, to: bytes.count, by: IndexLayout.recordSize) {
                    let offset = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: record + IndexLayout.Column.pathOffset, as: UInt32.self)))
                    let length = Int(UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: record + IndexLayout.Column.pathLength, as: UInt16.self)))
                    body(UnsafeRawBufferPointer(rebasing: paths[offset..<(offset + length)]))
                }
            }
        }
    }

    /// The path table: twice as many slots as records (a power of two), record number + 1 in
    /// the first free slot from the path's hash on.
    func slots() -> [UInt32] {
        var capacity = 16
        while capacity < hashes.count * 2 { capacity *= 2 }
        var slots = [UInt32](repeating: 0, count: capacity)
        for (number, hash) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: hash) & (capacity - 1)
            while slots[slot] != 0 { slot = (slot + 1) & (capacity - 1) }
            slots[slot] = UInt32(number + 1).littleEndian
        }
        return slots
    }
}
