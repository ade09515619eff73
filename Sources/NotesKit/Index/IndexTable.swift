import Foundation

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

    /// A record's bytes before its columns are put in: appended as a whole, which costs a copy,
    /// where appending a repeated zero costs a loop.
    private static let emptyRecord = [UInt8](repeating: 0, count: IndexLayout.recordSize)

    init(capacity: Int = 0) {
        records.reserveCapacity(capacity * IndexLayout.recordSize)
        hashes.reserveCapacity(capacity)
    }

    /// Room for `count` records in all, with their paths (as long as those so far), when the table
    /// has less: a table that chunk after chunk is joined to (`appendRecords`) would otherwise grow
    /// by doubling, copying what it holds into fresh memory each time. At least double the room
    /// it had, too: `reserveCapacity` takes exactly what it is asked for, and a walk that keeps
    /// pace with the reading raises its count a batch at a time (a copy of the table each).
    mutating func expect(records count: Int) {
        guard count > hashes.capacity else { return }
        let count = max(count, 2 * hashes.capacity)
        records.reserveCapacity(count * IndexLayout.recordSize)
        hashes.reserveCapacity(count)
        paths.reserveCapacity(count * (hashes.isEmpty ? 64 : paths.count / hashes.count + 8))
    }

    /// Room for the paths, strings, tags and links of `count` notes of the usual size (a path of
    /// a few words, a title, a preview line, a few tags and links), so that filling the table
    /// seldom grows them.
    mutating func reserve(notes count: Int) {
        paths.reserveCapacity(paths.count + count * 64)
        strings.reserveCapacity(strings.count + count * 512)
        tags.reserveCapacity(tags.count + count * 64)
        links.reserveCapacity(links.count + count * 128)
    }

    /// Adds a record whose text (of `length` bytes, with checksum `textCheck`) the writer takes
    /// from elsewhere; `strings` appends its title, preview, warnings and shown tags and links;
    /// `tags` and `links` are its chunks of those regions.
    mutating func add(
        path: UnsafeRawBufferPointer, size: Int64, mtime: Int64, inode: UInt64, ctime: Int64,
        createdAt: Double,
        updatedAt: Double?, flags: UInt8, textLength length: Int, textCheck: UInt32,
        tags tagsChunk: UnsafeRawBufferPointer,
        links linksChunk: UnsafeRawBufferPointer, strings write: (inout [UInt8]) -> Void
    ) {
        let start = records.count
        let (stringsOffset, tagsOffset, linksOffset) = (stringsLength, tagsLength, linksLength)
        let stringsStart = strings.count
        write(&strings)
        let stringsCheck = strings.withUnsafeBytes {
            IndexChecksum.short(UnsafeRawBufferPointer(rebasing: $0[stringsStart...]))
        }
        let flags = flags | (ConflictCopy.mayBeCopy(path) ? IndexLayout.mayBeConflictCopy : 0)
        records.append(contentsOf: IndexTable.emptyRecord)
        records.withUnsafeMutableBytes { bytes in
            func put<T: FixedWidthInteger>(_ value: T, _ column: Int) {
                bytes.storeBytes(of: value.littleEndian, toByteOffset: start + column, as: T.self)
            }
            put(UInt64(bitPattern: size), IndexLayout.Column.size)
            put(UInt64(bitPattern: mtime), IndexLayout.Column.mtime)
            put(inode, IndexLayout.Column.inode)
            put(UInt64(bitPattern: ctime), IndexLayout.Column.ctime)
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
        add(
            path: r.path, size: r.size, mtime: r.mtime, inode: r.inode, ctime: r.ctime, note: r.note,
            warnings: r.warnings,
            refs: r.refs, textFrom: start)
    }

    /// Adds a record read from a file whose folded text is `texts[textStart...]` (folded there by
    /// the caller). A path longer than a record can hold (far beyond PATH_MAX) is not indexed:
    /// the file is read every time.
    mutating func add(
        path: String, size: Int64, mtime: Int64, inode: UInt64, ctime: Int64, note: Note?,
        warnings: [ParseWarning],
        refs: NoteRefs.Encoded, textFrom textStart: Int
    ) {
        let flags: UInt8 =
            note.map { note in
                IndexLayout.isNote | (note.titleIsOutsideBody ? IndexLayout.titleIsOutsideBody : 0)
                    | (note.conflicted ? IndexLayout.conflicted : 0)
            } ?? 0
        var (title, preview) = (note?.title ?? "", note?.preview ?? "")
        title.withUTF8 { title in
            preview.withUTF8 { preview in
                add(
                    path: path, size: size, mtime: mtime, inode: inode, ctime: ctime, flags: flags,
                    createdAt: note?.createdAt ?? 0, updatedAt: note?.updatedAt, title: title,
                    preview: preview,
                    warnings: warnings, refs: refs, textFrom: textStart)
            }
        }
    }

    /// `add(path:size:mtime:inode:note:warnings:refs:textFrom:)` of a note's parts, for a caller
    /// that has them without a `Note` (`recordFromBytes`): `flags` as that one makes them, the
    /// title and preview as UTF-8.
    mutating func add(
        path: String, size: Int64, mtime: Int64, inode: UInt64, ctime: Int64, flags: UInt8,
        createdAt: Double,
        updatedAt: Double?, title: UnsafeBufferPointer<UInt8>, preview: UnsafeBufferPointer<UInt8>,
        warnings: [ParseWarning], refs: NoteRefs.Encoded, textFrom textStart: Int
    ) {
        var path = path
        guard path.utf8.count <= Int(UInt16.max) else {
            texts.removeSubrange(textStart...)
            return
        }
        path.withUTF8 { path in
            refs.tags.withUnsafeBytes { tagsChunk in
                refs.links.withUnsafeBytes { linksChunk in
                    let textCheck = texts.withUnsafeBytes {
                        IndexChecksum.short(UnsafeRawBufferPointer(rebasing: $0[textStart...]))
                    }
                    add(
                        path: UnsafeRawBufferPointer(path), size: size, mtime: mtime, inode: inode,
                        ctime: ctime,
                        createdAt: createdAt, updatedAt: updatedAt, flags: flags,
                        textLength: texts.count - textStart, textCheck: textCheck, tags: tagsChunk,
                        links: linksChunk
                    ) { strings in
                        NoteIndexFile.append(utf8: title, to: &strings)
                        NoteIndexFile.append(utf8: preview, to: &strings)
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
                    let value = T(
                        littleEndian: bytes.loadUnaligned(fromByteOffset: record + column, as: T.self))
                    bytes.storeBytes(
                        of: (value + amount).littleEndian, toByteOffset: record + column, as: T.self)
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
                guard let (source, n) = file.sound(number), let strings = source.rawStrings(n) else {
                    continue
                }
                let text = source.rawText(n)
                add(
                    path: source.pathBytes(n), size: source.size(n), mtime: source.mtime(n),
                    inode: source.inode(n), ctime: source.ctime(n),
                    createdAt: source.createdAt(n), updatedAt: source.updatedAt(n), flags: source.flags(n),
                    textLength: text.count, textCheck: source.textCheck(n),
                    tags: source.rawTags(n), links: source.rawLinks(n)
                ) {
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
                add(
                    path: UnsafeRawBufferPointer(path), size: 0, mtime: 0, inode: 0, ctime: 0, createdAt: 0,
                    updatedAt: nil,
                    flags: IndexLayout.removed, textLength: 0, textCheck: IndexChecksum.short([]),
                    tags: UnsafeRawBufferPointer(start: nil, count: 0),
                    links: UnsafeRawBufferPointer(start: nil, count: 0)
                ) { strings in
                    // No title, preview or warnings; no tags, no links.
                    strings.append(contentsOf: [UInt8](repeating: 0, count: 12) + ShownRefs.none)
                }
            }
        }
    }

    /// Adds records of the vault's other files (attachment targets): a path, nothing read.
    mutating func addFiles(_ files: [String]) {
        for path in files {
            var path = path
            guard path.utf8.count <= Int(UInt16.max) else { continue }
            path.withUTF8 { path in
                add(
                    path: UnsafeRawBufferPointer(path), size: 0, mtime: 0, inode: 0, ctime: 0, createdAt: 0,
                    updatedAt: nil,
                    flags: IndexLayout.isFile, textLength: 0, textCheck: IndexChecksum.short([]),
                    tags: UnsafeRawBufferPointer(start: nil, count: 0),
                    links: UnsafeRawBufferPointer(start: nil, count: 0)
                ) { strings in
                    strings.append(contentsOf: [UInt8](repeating: 0, count: 12) + ShownRefs.none)
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
                    let offset = Int(
                        UInt32(
                            littleEndian: bytes.loadUnaligned(
                                fromByteOffset: record + IndexLayout.Column.pathOffset, as: UInt32.self)))
                    let length = Int(
                        UInt16(
                            littleEndian: bytes.loadUnaligned(
                                fromByteOffset: record + IndexLayout.Column.pathLength, as: UInt16.self)))
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
