import Foundation

/// The two kinds of index file: the base, and a delta of what changed since it (a small
/// change costs a small write, as in git's split index).
enum IndexKind: UInt8 {
    /// `index`: every file as of its writing.
    case base = 0
    /// `index.delta`: the files added or changed since the base with the same generation, and the
    /// ones removed; it wins over the base.
    case delta = 1
}

/// The layout of an index file (version 16: Markdown links from the vault's top, `/x.md`; 15:
/// status-change times; 14: checksums, a flag for names that may be conflict
/// copies, aliases in the folded texts and, folded, after the tags, exact mtimes, headings and
/// block ids, attachment links, records of the vault's other files, and `importedFrom`), all
/// little-endian.
/// Everything a command needs to check the index against the files and to sort sits in fixed-width
/// columns read in place; the strings a command shows, the folded texts a search reads, and what
/// tags and links commands compare sit in regions of their own, so that a `list` pages in the
/// record table, the path table and the paths, and nothing else; `tags` and `list --tag` page in
/// the tags region besides (a few bytes per note), `backlinks` the links region. The texts come
/// first, so a writer can stream them out while it is still reading files, and write the tables
/// and then the header last.
///
/// Nothing read from the file is trusted unchecked (`IndexChecksum`): the header's checksum covers
/// the header and the tables, and is checked when the file is opened; each record keeps one for
/// each of its text, strings, tags and links, checked when that part is read. A part that fails its
/// check is read again from the note's file (`IndexRepair`), never taken as it is.
///
///     header   80 bytes: magic, version, title source, kind, generation, count, slot count,
///              the lengths of the text, paths and strings regions (u64 each), and of the tags
///              and links regions (u32 each); 4 bytes of zeros; at 72, the checksum of the
///              header's first 72 bytes, the records, the slots and the paths (u64)
///     text     the folded searchable texts
///     records  count × 104 bytes (`Column`)
///     slots    slot count × u32: an open-addressing table of record number + 1 (0 is empty),
///              by the FNV-1a hash of the path, so a lookup needs no table built at load
///     paths    each record's vault-relative path, UTF-8
///     strings  per record: title, preview (u32 length + bytes each), the warnings (u32 count,
///              then u32 line and u32 length + message bytes each), then the tags as spelled and
///              the links as written, the headings and block ids, `importedFrom` (`ShownRefs`)
///     tags     per record, at the offset and length its columns give: its folded title,
///              folded tags and folded aliases (`TagsChunk`)
///     links    per record, likewise: each link's kind, keys and heading (`LinkKeysChunk`) — the target
///              made into what resolution compares (a relative Markdown path already joined to the
///              note's folder), so finding backlinks compares bytes and makes no strings
enum IndexLayout {
    static let headerSize = 80
    static let recordSize = 104
    /// Where the header keeps the checksum of itself (the bytes before it) and of the tables.
    static let checksumOffset = 72

    /// Byte offsets of a record's columns. `mtime` and `ctime` are in nanoseconds since 1970
    /// (`Int64`s), `createdAt` and `updatedAt` in seconds (`Double`s).
    enum Column {
        static let size = 0, mtime = 8, inode = 16, createdAt = 24, updatedAt = 32
        static let textOffset = 40, textLength = 48, pathOffset = 52, stringsOffset = 56
        static let pathLength = 60, flags = 62, tagsOffset = 64, tagsLength = 68, linksOffset = 72,
            linksLength = 76
        /// The 32-bit checksums (`IndexChecksum.short`) of the record's text, strings, tags and links.
        static let textCheck = 80, stringsCheck = 84, tagsCheck = 88, linksCheck = 92
        static let ctime = 96
    }

    /// Flags: a readable note; its title is not a body line; it has `updatedAt`; its body holds
    /// conflict markers; its name may be that of a conflict copy (`ConflictCopy.mayBeCopy`); one
    /// of the vault's other files (an attachment target: only its path is kept, and the survey
    /// finds it current while it is there, without a stat); (in a delta) its file is gone.
    static let isNote: UInt8 = 1, titleIsOutsideBody: UInt8 = 2, hasUpdatedAt: UInt8 = 4,
        conflicted: UInt8 = 8
    static let mayBeConflictCopy: UInt8 = 0x10
    static let isFile: UInt8 = 0x20
    static let removed: UInt8 = 0x80
}

/// Writes and opens index files (layout in `IndexLayout`). An index is only ever a cache, written
/// atomically, read with bounds checks: anything unexpected means "no index" and costs one rebuild.
enum NoteIndexFile {
    static let magic = Array("MYNOTES-INDEX\n".utf8)
    /// Bump when the format or the folding changes, so old caches are rebuilt.
    static let version: UInt32 = 16

    /// The index file's bytes: the records `kept` of a mapped index (copied as they are, without
    /// making strings), then records read from files; `titleSource` is recorded, since titles and
    /// folded texts depend on it.
    static func encode(
        kept: [Int] = [], of index: IndexView? = nil, read: [IndexRecord], removed: [String] = [],
        titleSource: TitleSource = .content, kind: IndexKind = .base, generation: UInt64 = 0
    ) -> [UInt8] {
        var table = IndexTable()
        for record in read { table.add(record) }
        return encode(
            kept: kept, of: index, read: [table], removed: removed, titleSource: titleSource, kind: kind,
            generation: generation)
    }

    /// `encode` of records already in tables (as the workers that read files make them).
    static func encode(
        kept: [Int], of index: IndexView?, read: [IndexTable], removed: [String],
        titleSource: TitleSource, kind: IndexKind, generation: UInt64
    ) -> [UInt8] {
        var out: [UInt8] = []
        write(
            kept: kept, of: index, read: read, removed: removed, titleSource: titleSource, kind: kind,
            generation: generation
        ) { out.append(contentsOf: $0) }
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
        header(of: table, slots: slots, titleSource: titleSource, kind: kind, generation: generation)
            .withUnsafeBytes(emit)
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
    static func map(_ storage: TextStorage, titleSource: TitleSource = .content, repair: IndexRepair? = nil)
        -> MappedIndex?
    {
        MappedIndex.open(storage, titleSource: titleSource, repair: repair)
    }

    static func append<T: FixedWidthInteger>(_ value: T, to out: inout [UInt8]) {
        // Byte by byte, least significant first: a few appends cost less than one of a buffer.
        for k in 0..<MemoryLayout<T>.size { out.append(UInt8(truncatingIfNeeded: value >> (k &* 8))) }
    }

    static func append(_ string: String, to out: inout [UInt8]) {
        var string = string
        // Through the string's contiguous bytes: one copy, where the UTF-8 view is appended
        // element by element.
        string.withUTF8 { append(utf8: $0, to: &out) }
    }

    /// Appends a string's UTF-8 `bytes` as `append(_:to:)` writes a string: its length, then them.
    static func append(utf8 bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        append(UInt32(bytes.count), to: &out)
        out.append(contentsOf: bytes)
    }
}
