import Foundation

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
    private let recordsStart: Int, slotsStart: Int, pathsStart: Int, stringsStart: Int, tagsStart: Int,
        linksStart: Int
    private let stringsLength: Int
    /// Where a record whose part fails its check is read again from; without one, such a part
    /// reads as nothing (no text, strings, tags or links).
    private let repair: IndexRepair?
    /// Whether checksums are checked: always, but in the tests of what lies beneath them (the
    /// bounds checks, which must hold even for damage a checksum misses).
    private let verifying: Bool

    private init(
        storage: TextStorage, kind: IndexKind, generation: UInt64, count: Int, slotCount: Int,
        textLength: Int, pathsLength: Int, stringsLength: Int, tagsLength: Int, repair: IndexRepair?,
        verifying: Bool
    ) {
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
            pathsLength < UInt64(UInt32.max), stringsLength < UInt64(UInt32.max),
            textLength < UInt64(Int.max / 2)
        else { return nil }
        let fixed = IndexLayout.headerSize + count * IndexLayout.recordSize + slotCount * 4
        guard
            UInt64(bytes.count) == UInt64(fixed) + textLength + pathsLength + stringsLength + tagsLength
                + linksLength,
            reader.u32() == 0, let checksum = reader.u64()
        else { return nil }
        let recordsAt = IndexLayout.headerSize + Int(textLength)
        let slotsAt = recordsAt + count * IndexLayout.recordSize
        let pathsAt = slotsAt + slotCount * 4
        guard
            !verifying
                || checksum
                    == IndexChecksum.ofTables(
                        header: UnsafeRawBufferPointer(rebasing: bytes[..<IndexLayout.checksumOffset]),
                        records: UnsafeRawBufferPointer(rebasing: bytes[recordsAt..<slotsAt]),
                        slots: UnsafeRawBufferPointer(rebasing: bytes[slotsAt..<pathsAt]),
                        paths: UnsafeRawBufferPointer(rebasing: bytes[pathsAt..<(pathsAt + Int(pathsLength))])
                    )
        else { return nil }
        let index = MappedIndex(
            storage: storage, kind: kind, generation: generation, count: count, slotCount: slotCount,
            textLength: Int(textLength), pathsLength: Int(pathsLength), stringsLength: Int(stringsLength),
            tagsLength: Int(tagsLength), repair: repair, verifying: verifying)
        let text = UInt64(textLength)
        let paths = UInt64(pathsLength)
        let strings = UInt64(stringsLength)
        for number in 0..<count {
            let flags = index.flags(number)
            let pathEnd =
                UInt64(index.u32(number, IndexLayout.Column.pathOffset))
                + UInt64(index.u16(number, IndexLayout.Column.pathLength))
            let textEnd =
                index.u64(number, IndexLayout.Column.textOffset)
                &+ UInt64(index.u32(number, IndexLayout.Column.textLength))
            let tagsEnd =
                UInt64(index.u32(number, IndexLayout.Column.tagsOffset))
                + UInt64(index.u32(number, IndexLayout.Column.tagsLength))
            let linksEnd =
                UInt64(index.u32(number, IndexLayout.Column.linksOffset))
                + UInt64(index.u32(number, IndexLayout.Column.linksLength))
            guard pathEnd <= paths, textEnd <= text,
                textEnd >= index.u64(number, IndexLayout.Column.textOffset),
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
        UInt64(
            littleEndian: bytes.loadUnaligned(
                fromByteOffset: recordsStart + number * IndexLayout.recordSize + column, as: UInt64.self))
    }

    private func u32(_ number: Int, _ column: Int) -> UInt32 {
        UInt32(
            littleEndian: bytes.loadUnaligned(
                fromByteOffset: recordsStart + number * IndexLayout.recordSize + column, as: UInt32.self))
    }

    private func u16(_ number: Int, _ column: Int) -> UInt16 {
        UInt16(
            littleEndian: bytes.loadUnaligned(
                fromByteOffset: recordsStart + number * IndexLayout.recordSize + column, as: UInt16.self))
    }

    private func double(_ number: Int, _ column: Int) -> Double { Double(bitPattern: u64(number, column)) }

    func flags(_ number: Int) -> UInt8 {
        bytes[recordsStart + number * IndexLayout.recordSize + IndexLayout.Column.flags]
    }
    func isNote(_ number: Int) -> Bool { flags(number) & IndexLayout.isNote != 0 }
    func isRemoved(_ number: Int) -> Bool { flags(number) & IndexLayout.removed != 0 }
    func isFile(_ number: Int) -> Bool { flags(number) & IndexLayout.isFile != 0 }
    func size(_ number: Int) -> Int64 { Int64(bitPattern: u64(number, IndexLayout.Column.size)) }
    func mtime(_ number: Int) -> Int64 { Int64(bitPattern: u64(number, IndexLayout.Column.mtime)) }
    func inode(_ number: Int) -> UInt64 { u64(number, IndexLayout.Column.inode) }
    func ctime(_ number: Int) -> Int64 { Int64(bitPattern: u64(number, IndexLayout.Column.ctime)) }
    func createdAt(_ number: Int) -> Double { double(number, IndexLayout.Column.createdAt) }
    func updatedAt(_ number: Int) -> Double? {
        flags(number) & IndexLayout.hasUpdatedAt != 0 ? double(number, IndexLayout.Column.updatedAt) : nil
    }

    /// Whether record `number` describes the file with `status` as it is now.
    func isCurrent(_ number: Int, _ status: FileStatus) -> Bool {
        !isRemoved(number) && size(number) == status.size && mtime(number) == status.mtime
            && inode(number) == status.inode && ctime(number) == status.ctime
    }

    /// The bytes of record `number`'s path (checked to lie within the paths region when opened).
    func pathBytes(_ number: Int) -> UnsafeRawBufferPointer {
        let start = pathsStart + Int(u32(number, IndexLayout.Column.pathOffset))
        return UnsafeRawBufferPointer(
            rebasing: bytes[start..<(start + Int(u16(number, IndexLayout.Column.pathLength)))])
    }

    /// The bytes of record `number`'s folded text, checked (read again from the note's file when
    /// they fail their check).
    func textBytes(_ number: Int) -> UnsafeRawBufferPointer {
        let text = rawText(number)
        return holds(text, number, IndexLayout.Column.textCheck) ? text : repairedText(number)
    }

    /// `textBytes(number)`, and whether the needle of `probes` is in them: checked and searched
    /// in one pass (`IndexChecksum.of(_:finding:)`).
    func textBytes(_ number: Int, finding probes: TextFolding.Probes) -> (
        text: UnsafeRawBufferPointer, found: Bool
    ) {
        let text = rawText(number)
        guard verifying else { return (text, probes.firstIndex(in: text, from: 0) != nil) }
        let (sum, found) = IndexChecksum.of(text, finding: probes)
        if UInt32(truncatingIfNeeded: sum) == textCheck(number) { return (text, found) }
        let repaired = repairedText(number)
        return (repaired, probes.firstIndex(in: repaired, from: 0) != nil)
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
        return TagsChunk(
            bytes: holds(chunk, number, IndexLayout.Column.tagsCheck) ? chunk : repairedTags(number))
    }

    @inline(never) private func repairedTags(_ number: Int) -> UnsafeRawBufferPointer {
        repaired(number)?.tagsChunk(0).bytes ?? UnsafeRawBufferPointer(start: nil, count: 0)
    }

    /// Record `number`'s links' keys (likewise).
    func linksChunk(_ number: Int) -> LinkKeysChunk {
        let chunk = rawLinks(number)
        return LinkKeysChunk(
            bytes: holds(chunk, number, IndexLayout.Column.linksCheck) ? chunk : repairedLinks(number))
    }

    @inline(never) private func repairedLinks(_ number: Int) -> UnsafeRawBufferPointer {
        repaired(number)?.linksChunk(0).bytes ?? UnsafeRawBufferPointer(start: nil, count: 0)
    }

    /// The bytes of record `number`'s chunk of the tags or links region, unchecked.
    func rawTags(_ number: Int) -> UnsafeRawBufferPointer {
        rawChunk(number, IndexLayout.Column.tagsOffset, tagsStart)
    }
    func rawLinks(_ number: Int) -> UnsafeRawBufferPointer {
        rawChunk(number, IndexLayout.Column.linksOffset, linksStart)
    }

    /// The bytes of a chunk whose offset is in `column` and length in the column after.
    private func rawChunk(_ number: Int, _ column: Int, _ region: Int) -> UnsafeRawBufferPointer {
        let start = region + Int(u32(number, column))
        return UnsafeRawBufferPointer(rebasing: bytes[start..<(start + Int(u32(number, column + 4)))])
    }

    /// Record `number`'s links, made whole: keys and how they are written (see `note(at:viaPread:)`
    /// for `viaPread`).
    func links(at number: Int, viaPread: Bool = false) -> [IndexedLink] {
        let keys = linksChunk(number)
        return withStrings(number, viaPread: viaPread) { strings -> [IndexedLink]? in
            var reader = ByteReader(bytes: strings)
            guard MappedIndex.skipToShown(&reader) else { return nil }
            // All there (a read may have cut the strings short)?
            var end = reader
            guard ShownRefs.skip(&end) else { return nil }
            return ShownRefs.links(&reader, keys: keys)
        } ?? []
    }

    /// Record `number`'s headings and block ids (see `note(at:viaPread:)` for `viaPread`).
    func anchors(at number: Int, viaPread: Bool = false) -> NoteAnchors {
        withStrings(number, viaPread: viaPread) { strings -> NoteAnchors? in
            var reader = ByteReader(bytes: strings)
            guard MappedIndex.skipToShown(&reader), ShownRefs.skipLinks(&reader) else { return nil }
            return ShownRefs.anchors(&reader)
        } ?? NoteAnchors()
    }

    /// Record `number`'s `importedFrom` (`keep:abc.json`); empty when it has none.
    func importedFrom(at number: Int) -> String {
        withStrings(number, viaPread: false) { strings -> String? in
            var reader = ByteReader(bytes: strings)
            guard MappedIndex.skipToShown(&reader), ShownRefs.skipLinks(&reader),
                ShownRefs.anchors(&reader) != nil
            else { return nil }
            return ShownRefs.importedFrom(&reader)
        } ?? ""
    }

    /// What `parse` makes of record `number`'s strings (checked), in place or (`viaPread`) read
    /// with `pread`, a few kilobytes at first and more until they are all there; nil when it makes
    /// nothing of them.
    private func withStrings<R>(_ number: Int, viaPread: Bool, _ parse: (UnsafeRawBufferPointer) -> R?) -> R?
    {
        guard viaPread else { return stringsBytes(number).flatMap(parse) }
        let start = stringsStart + Int(u32(number, IndexLayout.Column.stringsOffset))
        let end = stringsStart + stringsLength
        var size = min(4096, end - start)
        while true {
            let chunk = storage.read(at: start, count: size)
            if let length = chunk.withUnsafeBytes(MappedIndex.stringsLength(in:)) {
                let (sound, parsed) = chunk.withUnsafeBytes { bytes -> (Bool, R?) in
                    let strings = UnsafeRawBufferPointer(rebasing: bytes[..<length])
                    return holds(strings, number, IndexLayout.Column.stringsCheck)
                        ? (true, parse(strings)) : (false, nil)
                }
                if sound { return parsed }
                break
            }
            if chunk.count < size || size >= end - start { break }
            size = min(end - start, size * 4)
        }
        return repaired(number)?.withStrings(0, viaPread: false, parse)
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
            UInt64(warnings) * 8 <= UInt64(reader.bytes.count - reader.offset)
        else { return false }
        for _ in 0..<warnings {
            guard reader.u32() != nil, reader.range() != nil else { return false }
        }
        return true
    }

    /// Record `number`'s title, preview, warnings, shown tags and links as stored, checked; read
    /// again from the note's file when they fail their check or do not parse (damage: the record
    /// is not trusted); nil when that cannot be done.
    func stringsBytes(_ number: Int) -> UnsafeRawBufferPointer? {
        if let stored = rawStrings(number), holds(stored, number, IndexLayout.Column.stringsCheck) {
            return stored
        }
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
    static func hash(
        _ prefix: UnsafeRawBufferPointer,
        _ name: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0)
    ) -> UInt64 {
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
            let entry = Int(
                UInt32(
                    littleEndian: bytes.loadUnaligned(fromByteOffset: slotsStart + slot * 4, as: UInt32.self))
            )
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
        return path.withUTF8 {
            find(UnsafeRawBufferPointer($0), UnsafeRawBufferPointer(start: nil, count: 0))
        }
    }

    /// Whether `stored` is the bytes of `prefix` followed by those of `name`.
    private static func equal(
        _ stored: UnsafeRawBufferPointer, _ prefix: UnsafeRawBufferPointer, _ name: UnsafeRawBufferPointer
    ) -> Bool {
        guard stored.count == prefix.count + name.count else { return false }
        if let s = stored.baseAddress {
            if prefix.count > 0, let p = prefix.baseAddress, memcmp(s, p, prefix.count) != 0 { return false }
            if name.count > 0, let n = name.baseAddress, memcmp(s + prefix.count, n, name.count) != 0 {
                return false
            }
        }
        return true
    }

    // MARK: Strings, made on demand

    /// The path of record `number`.
    func path(at number: Int) -> String { String(decoding: pathBytes(number), as: UTF8.self) }

    /// The note of record `number` (a readable note's record). A title or preview that does not
    /// parse (damage) reads as empty. `viaPread` takes the title and preview with `pread` rather
    /// than from the mapping: for a few notes of a one-off command, whose memory stays smaller.
    func note(at number: Int, viaPread: Bool = false) -> Note {
        let path = path(at: number)
        var title = ""
        var preview = ""
        var tags: [String] = []
        /// The title, preview and tags at the start of `strings`, if they are all there.
        func parse(_ strings: UnsafeRawBufferPointer) -> (String, String, [String])? {
            var reader = ByteReader(bytes: strings)
            guard let title = reader.repairedString(), let preview = reader.repairedString() else {
                return nil
            }
            var shown = ByteReader(bytes: strings)
            guard MappedIndex.skipToShown(&shown), let tags = ShownRefs.tags(&shown) else { return nil }
            return (title, preview, tags)
        }
        if let parsed = withStrings(number, viaPread: viaPread, parse) { (title, preview, tags) = parsed }
        return Note(
            id: Note.id(forPath: path), path: path, title: title,
            titleIsOutsideBody: flags(number) & IndexLayout.titleIsOutsideBody != 0,
            createdAt: createdAt(number),
            updatedAt: updatedAt(number), preview: preview,
            conflicted: flags(number) & IndexLayout.conflicted != 0,
            tags: tags)
    }

    /// Calls `body` with the bytes of record `number`'s title as stored (checked, and read as
    /// `note(at:viaPread:)` reads them; empty when they cannot be had), making no note.
    func withTitle<R>(at number: Int, viaPread: Bool, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        var result: R?
        _ = withStrings(number, viaPread: viaPread) { strings -> Bool? in
            var reader = ByteReader(bytes: strings)
            guard let title = reader.range() else { return nil }
            result = body(UnsafeRawBufferPointer(rebasing: strings[title]))
            return true
        }
        return result ?? body(UnsafeRawBufferPointer(start: nil, count: 0))
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
        if n > 3, path[n - 3] == UInt8(ascii: "."), path[n - 2] == UInt8(ascii: "m"),
            path[n - 1] == UInt8(ascii: "d")
        {
            return body(UnsafeRawBufferPointer(rebasing: path[..<(path.count - 3)]))
        }
        return body(path)
    }

    /// The folded text of record `number` (checked).
    func folded(at number: Int) -> FoldedText {
        let text = textBytes(number)
        if text.baseAddress == rawText(number).baseAddress {
            return FoldedText(storage: storage, range: textRange(number))
        }
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
        return NoteRefs.Encoded(
            tags: Array(tagsChunk(number).bytes), links: Array(linksChunk(number).bytes), shown: shown)
    }

    /// Record `number` with its strings made, as a record read from a file would be.
    func record(at number: Int) -> IndexRecord {
        IndexRecord(
            path: path(at: number), size: size(number), mtime: mtime(number), inode: inode(number),
            ctime: ctime(number),
            note: isNote(number) ? note(at: number) : nil, warnings: warnings(at: number),
            folded: folded(at: number),
            refs: refs(at: number), removed: isRemoved(number))
    }
}
