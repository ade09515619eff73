import Foundation

/// The notes of a vault as the index cache knows them (SPEC §8). Most are records of the mapped
/// index file, read in place: a note's strings are made only when it is shown or asked for, and
/// its folded text is only paged in when a search reads it. Notes read from their files this time
/// (new or changed) sit beside them. Built by `NoteStore`.
public struct Catalog: Sendable {
    /// The mapped index (base and delta), when there was a usable one.
    let index: IndexView?
    /// The records of `index` that are notes and still current.
    let mapped: [Int32]
    /// Notes read from their files this time, with their folded text.
    let read: [(note: Note, folded: FoldedText)]
    /// Problems with the vault's folders, and with the files read this time (new or changed since
    /// the index last saw them): a file's warnings are reported once per change, not on every command.
    public let diagnostics: [Diagnostic]
    /// How many files had to be read because the index did not know them as they are.
    public let filesRead: Int
    /// Whether the index file was written.
    public let indexWritten: Bool
    /// Why the index could not be written when it had to be; nil when it was written or was current.
    public let indexError: VaultError?

    /// The number of notes.
    public var count: Int { mapped.count + read.count }

    /// Every note, in no particular order (this makes the strings of all of them).
    public var notes: [Note] { (0..<count).map(note(at:)) }

    /// The note at position `i` (mapped records first, then the notes read this time).
    func note(at i: Int) -> Note {
        if i < mapped.count, let index { return index.note(at: Int(mapped[i])) }
        return read[i - mapped.count].note
    }

    /// The folded searchable text of the note at position `i`.
    func folded(at i: Int) -> FoldedText {
        if i < mapped.count, let index { return index.folded(at: Int(mapped[i])) }
        return read[i - mapped.count].folded
    }

    /// The date `order` sorts the note at position `i` by.
    func date(at i: Int, order: SortOrder) -> Double {
        if i < mapped.count, let index { return index.date(at: Int(mapped[i]), order: order) }
        return order.date(of: read[i - mapped.count].note)
    }

    /// Calls `body` with the UTF-8 bytes of the ID of the note at position `i`.
    func withID<R>(at i: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        if i < mapped.count, let index { return index.withID(at: Int(mapped[i]), body) }
        var id = read[i - mapped.count].note.id
        return id.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    }

    /// The notes a query selects — every term in the searchable text, on all cores — sorted in
    /// its order and cut to its limit. The one search path of list, search and ID completion.
    /// Only the notes returned are made into `Note`s.
    public func run(_ query: NoteQuery) -> [Note] {
        var hits = Array(0..<count)
        if !query.search.isEmpty {
            let keep = Parallel.map(count: count, chunk: 256) { i, _ in
                folded(at: i).withUnsafeBytes { query.search.matches(folded: $0) }
            }
            hits = hits.filter { keep[$0] }
        }
        let order = query.order
        let dates = hits.map { date(at: $0, order: order) }
        let titles = order == .title ? hits.map { note(at: $0).title } : []
        var positions = hits.indices.sorted { a, b in
            if order == .title {
                let compared = titles[a].localizedStandardCompare(titles[b])
                if compared != .orderedSame { return compared == .orderedAscending }
            } else if dates[a] != dates[b] {
                return dates[a] > dates[b]
            }
            // Ties by ID in code-point order (which UTF-8 byte order is).
            return withID(at: hits[a]) { x in withID(at: hits[b]) { y in Catalog.precedes(x, y) } }
        }
        if query.reverse { positions.reverse() }
        if let limit = query.limit, positions.count > limit { positions.removeSubrange(limit...) }
        return positions.map { note(at: hits[$0]) }
    }

    /// Whether bytes `x` come before `y` in lexicographic byte order.
    static func precedes(_ x: UnsafeRawBufferPointer, _ y: UnsafeRawBufferPointer) -> Bool {
        let common = min(x.count, y.count)
        if common > 0, let a = x.baseAddress, let b = y.baseAddress {
            let compared = memcmp(a, b, common)
            if compared != 0 { return compared < 0 }
        }
        return x.count < y.count
    }
}

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
    /// A delta's note that the file is gone.
    var removed = false
}

/// One record of a mapped index file, read in place: numbers, and byte ranges of the mapping
/// for its strings. Holds no references, so arrays of it cost no reference counting.
struct MappedRecord {
    var path: Range<Int>
    var size: Int64
    var mtime: Double
    var inode: UInt64
    /// 1: a readable note; 2: its title is not a body line; 4: it has `updatedAt`.
    var flags: UInt8
    var createdAt: Double
    var updatedAt: Double
    var title: Range<Int>
    var preview: Range<Int>
    /// The warnings as stored: a count, then the line and message of each.
    var warnings: Range<Int>
    var text: Range<Int>

    var isNote: Bool { flags & 1 != 0 }

    /// In a delta: the file at `path` is gone from the vault, whatever the base says.
    static let removedFlag: UInt8 = 0x80
    var isRemoved: Bool { flags & MappedRecord.removedFlag != 0 }

    func isCurrent(_ status: FileStatus) -> Bool {
        !isRemoved && size == status.size && mtime == status.mtime && inode == status.inode
    }
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

/// An index file mapped in memory: its records, read in place, and a table that finds a record
/// by path comparing bytes, so checking 100,000 files against it makes no strings.
final class MappedIndex: @unchecked Sendable {
    let storage: TextStorage
    let records: [MappedRecord]
    let kind: IndexKind
    /// A base's own random number; a delta's is that of the base it extends.
    let generation: UInt64
    /// Open addressing over record numbers; -1 is an empty slot.
    private let slots: [Int32]

    init(storage: TextStorage, records: [MappedRecord], kind: IndexKind = .base, generation: UInt64 = 0) {
        self.storage = storage
        self.records = records
        self.kind = kind
        self.generation = generation
        var capacity = 16
        while capacity < records.count * 2 { capacity *= 2 }
        var slots = [Int32](repeating: -1, count: capacity)
        storage.withUnsafeBytes { bytes in
            for (number, record) in records.enumerated() {
                var slot = MappedIndex.hash(UnsafeRawBufferPointer(rebasing: bytes[record.path])) & (capacity - 1)
                while slots[slot] >= 0 { slot = (slot + 1) & (capacity - 1) }
                slots[slot] = Int32(number)
            }
        }
        self.slots = slots
    }

    /// A fast hash of a path's bytes (FNV-1a, folded to an Int).
    static func hash(_ bytes: UnsafeRawBufferPointer) -> Int {
        let hash = Hashing.fnv1a64(bytes)
        return Int(truncatingIfNeeded: hash ^ (hash >> 32))
    }

    /// The number of the record of `path`, if the index has one.
    func find(_ path: String) -> Int? {
        var path = path
        return path.withUTF8 { wanted -> Int? in
            let key = UnsafeRawBufferPointer(wanted)
            return storage.withUnsafeBytes { bytes -> Int? in
                var slot = MappedIndex.hash(key) & (slots.count - 1)
                while slots[slot] >= 0 {
                    let number = Int(slots[slot])
                    let stored = UnsafeRawBufferPointer(rebasing: bytes[records[number].path])
                    if stored.count == key.count, !Catalog.precedes(stored, key), !Catalog.precedes(key, stored) {
                        return number
                    }
                    slot = (slot + 1) & (slots.count - 1)
                }
                return nil
            }
        }
    }

    /// The string stored at `range` (bounds were checked when the index was read; bytes that are
    /// not UTF-8 are shown repaired).
    func string(_ range: Range<Int>) -> String {
        storage.withUnsafeBytes { String(decoding: UnsafeRawBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }

    /// The path of record `number`.
    func path(at number: Int) -> String { string(records[number].path) }

    /// The note of record `number` (a readable note's record).
    func note(at number: Int) -> Note {
        let record = records[number]
        let path = string(record.path)
        return Note(
            id: Note.id(forPath: path), path: path, title: string(record.title),
            titleFromFrontMatter: record.flags & 2 != 0, createdAt: record.createdAt,
            updatedAt: record.flags & 4 != 0 ? record.updatedAt : nil, preview: string(record.preview))
    }

    /// The date `order` sorts record `number` by.
    func date(at number: Int, order: SortOrder) -> Double {
        let record = records[number]
        if order == .created || record.flags & 4 == 0 { return record.createdAt }
        return record.updatedAt
    }

    /// Calls `body` with the bytes of record `number`'s ID (its path without `.md`).
    func withID<R>(at number: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        storage.withUnsafeBytes { bytes in
            var range = records[number].path
            let suffix = Array(".md".utf8)
            if range.count > 3, bytes[(range.upperBound - 3)..<range.upperBound].elementsEqual(suffix) {
                range = range.lowerBound..<(range.upperBound - 3)
            }
            return body(UnsafeRawBufferPointer(rebasing: bytes[range]))
        }
    }

    /// The folded text of record `number`.
    func folded(at number: Int) -> FoldedText { FoldedText(storage: storage, range: records[number].text) }

    /// The warnings of record `number`.
    func warnings(at number: Int) -> [ParseWarning] {
        storage.withUnsafeBytes { bytes in
            var reader = ByteReader(bytes: UnsafeRawBufferPointer(rebasing: bytes[records[number].warnings]))
            var warnings: [ParseWarning] = []
            for _ in 0..<(reader.u32() ?? 0) {
                guard let line = reader.u32(), let message = reader.string() else { break }
                warnings.append(ParseWarning(line: Int(line), message: message))
            }
            return warnings
        }
    }

    /// Record `number` with its strings made, as a record read from a file would be.
    func record(at number: Int) -> IndexRecord {
        let record = records[number]
        return IndexRecord(
            path: path(at: number), size: record.size, mtime: record.mtime, inode: record.inode,
            note: record.isNote ? note(at: number) : nil, warnings: warnings(at: number), folded: folded(at: number),
            removed: record.isRemoved)
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
        var live = base.records.count
        for (number, record) in (delta?.records ?? []).enumerated() {
            if let delta, base.find(delta.path(at: number)) != nil { live -= 1 }
            if !record.isRemoved { live += 1 }
        }
        liveCount = live
    }

    /// The number of the record of `path`, if the view has a live one.
    func find(_ path: String) -> Int? {
        if let delta, let number = delta.find(path) {
            return delta.records[number].isRemoved ? nil : base.records.count + number
        }
        return base.find(path)
    }

    /// The file and its own record number for a view-wide number.
    func locate(_ number: Int) -> (file: MappedIndex, number: Int) {
        if number >= base.records.count, let delta { return (delta, number - base.records.count) }
        return (base, number)
    }

    /// Numbers grouped by the file they belong to, in order.
    func split(_ numbers: [Int]) -> [(MappedIndex, [Int])] {
        var inBase: [Int] = [], inDelta: [Int] = []
        for number in numbers {
            if number < base.records.count { inBase.append(number) } else { inDelta.append(number - base.records.count) }
        }
        return [(base, inBase)] + (delta.map { [($0, inDelta)] } ?? [])
    }

    func record(_ number: Int) -> MappedRecord { let (file, n) = locate(number); return file.records[n] }
    func path(at number: Int) -> String { let (file, n) = locate(number); return file.path(at: n) }
    func note(at number: Int) -> Note { let (file, n) = locate(number); return file.note(at: n) }
    func folded(at number: Int) -> FoldedText { let (file, n) = locate(number); return file.folded(at: n) }

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
    let storage: TextStorage
    let range: Range<Int>

    init(_ bytes: [UInt8]) {
        storage = TextStorage(bytes)
        range = 0..<bytes.count
    }

    init(storage: TextStorage, range: Range<Int>) {
        self.storage = storage
        self.range = range
    }

    /// The number of bytes.
    public var count: Int { range.count }

    /// Calls `body` with the bytes.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        storage.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[range])) }
    }
}

/// Bytes that folded texts point into: an owned array, or a read-only memory map of a file.
final class TextStorage: @unchecked Sendable {
    private let array: [UInt8]
    private let mapped: UnsafeRawBufferPointer?

    init(_ bytes: [UInt8]) {
        array = bytes
        mapped = nil
    }

    /// Maps a whole file read-only; nil when it cannot be mapped (then the caller reads it).
    init?(mapping path: String) {
        guard let map = FileSystem.map(path) else { return nil }
        array = []
        mapped = map
    }

    deinit {
        if let mapped { FileSystem.unmap(mapped) }
    }

    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        if let mapped { return body(mapped) }
        return array.withUnsafeBytes(body)
    }
}

/// The `<vault>/.notes/index` file: a versioned binary cache, written atomically, read with bounds
/// checks; anything unexpected means "no index" and costs one rebuild. Layout: a header, the
/// metadata of every file, then one block of all folded texts (so reading metadata never pages
/// the texts in).
enum NoteIndexFile {
    static let magic = Array("MYNOTES-INDEX\n".utf8)
    /// Bump when the format or the folding changes, so old caches are rebuilt.
    static let version: UInt32 = 3

    /// The index file's bytes: the records `kept` of a mapped index (copied as they are, without
    /// making strings), then records read from files; `titleSource` is recorded, since titles and
    /// folded texts depend on it.
    static func encode(
        kept: [Int] = [], of index: IndexView? = nil, read: [IndexRecord], removed: [String] = [],
        titleSource: TitleSource = .content, kind: IndexKind = .base, generation: UInt64 = 0
    ) -> [UInt8] {
        var out: [UInt8] = []
        write(kept: kept, of: index, read: read, removed: removed, titleSource: titleSource, kind: kind,
              generation: generation) { out.append(contentsOf: $0) }
        return out
    }

    /// The index file's bytes (see `encode`) handed to `emit` in chunks: the header and metadata
    /// first, then each folded text straight from where it is (the old index's mapping, or the
    /// bytes just folded), so the file is never gathered in memory.
    static func write(
        kept: [Int] = [], of index: IndexView? = nil, read: [IndexRecord], removed: [String] = [],
        titleSource: TitleSource = .content, kind: IndexKind = .base, generation: UInt64 = 0,
        emit: (UnsafeRawBufferPointer) -> Void
    ) {
        var meta: [UInt8] = []
        meta.reserveCapacity((kept.count + read.count) * 160)
        var textLength: UInt64 = 0
        for (file, numbers) in index?.split(kept) ?? [] {
            file.storage.withUnsafeBytes { bytes in
                for number in numbers {
                    let r = file.records[number]
                    append(bytes: UnsafeRawBufferPointer(rebasing: bytes[r.path]), to: &meta)
                    append(UInt64(bitPattern: r.size), to: &meta)
                    append(r.mtime.bitPattern, to: &meta)
                    append(r.inode, to: &meta)
                    meta.append(r.flags)
                    if r.isNote {
                        append(r.createdAt.bitPattern, to: &meta)
                        append(r.updatedAt.bitPattern, to: &meta)
                        append(bytes: UnsafeRawBufferPointer(rebasing: bytes[r.title]), to: &meta)
                        append(bytes: UnsafeRawBufferPointer(rebasing: bytes[r.preview]), to: &meta)
                    }
                    meta.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[r.warnings]))
                    append(textLength, to: &meta)
                    append(UInt64(r.text.count), to: &meta)
                    textLength += UInt64(r.text.count)
                }
            }
        }
        // A path the base knows that the vault no longer has: no note, no text.
        let tombstones = removed.map { IndexRecord(path: $0, size: 0, mtime: 0, inode: 0, note: nil, warnings: [],
                                                   folded: FoldedText([]), removed: true) }
        for r in read + tombstones {
            append(r.path, to: &meta)
            append(UInt64(bitPattern: r.size), to: &meta)
            append(r.mtime.bitPattern, to: &meta)
            append(r.inode, to: &meta)
            if let note = r.note {
                meta.append(1 | (note.titleFromFrontMatter ? 2 : 0) | (note.updatedAt != nil ? 4 : 0))
                append(note.createdAt.bitPattern, to: &meta)
                append((note.updatedAt ?? 0).bitPattern, to: &meta)
                append(note.title, to: &meta)
                append(note.preview, to: &meta)
            } else {
                meta.append(r.removed ? MappedRecord.removedFlag : 0)
            }
            append(UInt32(r.warnings.count), to: &meta)
            for w in r.warnings {
                append(UInt32(max(0, w.line)), to: &meta)
                append(w.message, to: &meta)
            }
            append(textLength, to: &meta)
            append(UInt64(r.folded.count), to: &meta)
            textLength += UInt64(r.folded.count)
        }
        var header = magic
        append(version, to: &header)
        header.append(titleSource == .filename ? 1 : 0)
        header.append(kind.rawValue)
        append(generation, to: &header)
        append(UInt32(kept.count + read.count + tombstones.count), to: &header)
        append(UInt64(meta.count), to: &header)
        header.withUnsafeBytes(emit)
        meta.withUnsafeBytes(emit)
        for (file, numbers) in index?.split(kept) ?? [] {
            file.storage.withUnsafeBytes { bytes in
                for number in numbers { emit(UnsafeRawBufferPointer(rebasing: bytes[file.records[number].text])) }
            }
        }
        for r in read { r.folded.withUnsafeBytes(emit) }
    }

    /// The records of an index file, read in place; nil when it is damaged, of another version,
    /// or made with another title source (then it is rebuilt).
    static func map(_ storage: TextStorage, titleSource: TitleSource = .content) -> MappedIndex? {
        var kind = IndexKind.base, generation: UInt64 = 0
        let records = storage.withUnsafeBytes { bytes -> [MappedRecord]? in
            var reader = ByteReader(bytes: bytes)
            guard reader.take(magic.count).map(Array.init) == magic, reader.u32() == version,
                  reader.byte() == (titleSource == .filename ? 1 : 0),
                  let kindByte = reader.byte(), let fileKind = IndexKind(rawValue: kindByte),
                  let fileGeneration = reader.u64(),
                  let count = reader.u32(), let metaLength = reader.u64(),
                  metaLength <= UInt64(bytes.count - reader.offset) else { return nil }
            (kind, generation) = (fileKind, fileGeneration)
            let textStart = reader.offset + Int(metaLength)
            let textLength = bytes.count - textStart
            var records: [MappedRecord] = []
            // Every record takes at least 49 bytes: a count beyond that is damage.
            guard UInt64(count) * 49 <= metaLength else { return nil }
            records.reserveCapacity(Int(count))
            for _ in 0..<count {
                guard let path = reader.range(), let size = reader.u64(), let mtime = reader.u64(),
                      let inode = reader.u64(), let flags = reader.byte() else { return nil }
                var created: UInt64 = 0, updated: UInt64 = 0
                var title = 0..<0, preview = 0..<0
                if flags & 1 != 0 {
                    guard let c = reader.u64(), let u = reader.u64(), let t = reader.range(), let p = reader.range(),
                          // Damage that still parses must not reach the date code: it means a rebuild.
                          NoteDate.representable.contains(Double(bitPattern: c)),
                          flags & 4 == 0 || NoteDate.representable.contains(Double(bitPattern: u))
                    else { return nil }
                    (created, updated, title, preview) = (c, u, t, p)
                }
                let warningsStart = reader.offset
                guard let warningCount = reader.u32() else { return nil }
                for _ in 0..<warningCount {
                    guard reader.u32() != nil, reader.range() != nil else { return nil }
                }
                let warnings = warningsStart..<reader.offset
                guard let offset = reader.u64(), let length = reader.u64(),
                      offset <= UInt64(textLength), length <= UInt64(textLength) - offset else { return nil }
                let start = textStart + Int(offset)
                records.append(MappedRecord(
                    path: path, size: Int64(bitPattern: size), mtime: Double(bitPattern: mtime), inode: inode,
                    flags: flags, createdAt: Double(bitPattern: created), updatedAt: Double(bitPattern: updated),
                    title: title, preview: preview, warnings: warnings, text: start..<(start + Int(length))))
            }
            return reader.offset == textStart ? records : nil
        }
        return records.map { MappedIndex(storage: storage, records: $0, kind: kind, generation: generation) }
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
    }

    private static func append(_ string: String, to out: inout [UInt8]) {
        append(UInt32(string.utf8.count), to: &out)
        out.append(contentsOf: string.utf8)
    }

    private static func append(bytes: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        append(UInt32(bytes.count), to: &out)
        out.append(contentsOf: bytes)
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

    mutating func u32() -> UInt32? { take(4).map { UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self)) } }

    mutating func u64() -> UInt64? { take(8).map { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) } }

    mutating func string() -> String? {
        guard let length = u32(), let slice = take(Int(length)) else { return nil }
        return String(validating: slice, as: UTF8.self)
    }

    /// A length-prefixed string's place in the whole buffer, without making it.
    mutating func range() -> Range<Int>? {
        guard let length = u32(), take(Int(length)) != nil else { return nil }
        return (offset - Int(length))..<offset
    }
}

extension Vault {
    /// Every note of the vault, from the index cache at `indexPath` where it is fresh (SPEC §8):
    /// one directory walk and one `lstat` per file, and only new or changed files are read. The
    /// index is rewritten (atomically, holding the lock at `lockPath`) when anything changed; when
    /// another process holds the lock, this one leaves the writing to it. `rebuild` ignores the
    /// old index. `progress` is called on the calling thread with (files read, files to read).
    func catalog(
        indexPath: String, lockPath: String, rebuild: Bool = false, progress: ((Int, Int) -> Void)? = nil
    ) -> Catalog {
        let stateFolder = String(indexPath[..<(indexPath.lastIndex(of: "/") ?? indexPath.startIndex)])
        let deltaPath = indexPath + ".delta"
        func mapped(_ path: String) -> MappedIndex? {
            TextStorage(mapping: path).flatMap { NoteIndexFile.map($0, titleSource: titleSource) }
        }
        let index = rebuild ? nil : mapped(indexPath).flatMap { base in
            base.kind == .base ? IndexView(base: base, delta: mapped(deltaPath)) : nil
        }
        // A write killed before it could clean up (SIGKILL, a crash) leaves its temp here.
        FileSystem.sweepStaleTemps(in: stateFolder)
        // The index holds the text of every note, so nobody may read it who could not read the
        // vault folder and every note: it gets what a new file gets under the umask, within the
        // group and other bits that the vault folder and all notes grant; the owner keeps read
        // and write. (A vault at 0700, or one note at 0600, makes it 0600.)
        var shared = (FileSystem.status(canonicalRoot)?.mode ?? 0) & 0o066
        var kept: [Int] = []
        var stale: [(path: String, status: FileStatus)] = []
        let (files, walkDiagnostics) = walk()
        for (path, status) in files {
            shared &= status.mode
            if let number = index?.find(path), index?.record(number).isCurrent(status) == true {
                kept.append(number)
            } else {
                stale.append((path, status))
            }
        }
        let indexMode = FileSystem.newFileMode(within: 0o600 | shared)
        let changed = !stale.isEmpty || kept.count != (index?.liveCount ?? 0) || rebuild
        let read = readRecords(stale, progress: progress)
        var written = false
        var indexError: VaultError?
        if changed {
            // Only a cache: a vault we cannot write to still works, just without it.
            do {
                if let lock = try VaultLock(path: lockPath, wait: false) {
                    defer { lock.release() }
                    try writeIndex(
                        kept: kept, of: index, read: read, indexPath: indexPath, deltaPath: deltaPath, mode: indexMode)
                    written = true
                }
            } catch {
                indexError = .indexNotWritten(path: indexPath, reason: error.brief)
            }
        }
        // A note made private since an index file was written: make both files as private (only
        // ever narrowing a mode, so a writer that chose a stricter one is never undone).
        for path in [indexPath, deltaPath] {
            if let current = FileSystem.status(path), current.kind == .regular, current.mode & ~indexMode != 0 {
                chmod(path, current.mode & indexMode)
            }
        }
        var diagnostics = walkDiagnostics
        for record in read {
            for warning in record.warnings {
                diagnostics.append(Diagnostic(
                    path: fullPath(record.path), line: warning.line > 0 ? warning.line : nil, message: warning.message))
            }
        }
        let mapped = index.map { index in kept.filter { index.record($0).isNote }.map { Int32($0) } } ?? []
        return Catalog(
            index: index, mapped: mapped, read: read.compactMap { r in r.note.map { ($0, r.folded) } },
            diagnostics: diagnostics, filesRead: stale.count, indexWritten: written, indexError: indexError)
    }

    /// Writes what changed since `index`: a delta beside the base while the changes are few (a small
    /// change costs a small write), else a new base with a new generation, merging the delta in.
    /// The base is written before the old delta goes, and a delta of another generation is never
    /// read, so a crash between the two loses nothing; every record is checked against its file
    /// anyway, so a stale one only costs a re-read.
    private func writeIndex(
        kept: [Int], of index: IndexView?, read: [IndexRecord], indexPath: String, deltaPath: String, mode: mode_t
    ) throws(VaultError) {
        if let index {
            let baseCount = index.base.records.count
            var keptInBase = [Bool](repeating: false, count: baseCount)
            var keptInDelta: [Int] = []
            for number in kept {
                if number < baseCount { keptInBase[number] = true } else { keptInDelta.append(number) }
            }
            // Paths of the base that no record of the new delta stands for: the files are gone.
            // Compared as bytes, as paths are everywhere else: Swift's String equality would take a
            // name in NFC and the same name in NFD (two files) for one.
            var covered = Set(read.map { Array($0.path.utf8) })
            for number in keptInDelta { covered.insert(Array(index.path(at: number).utf8)) }
            let removed = (0..<baseCount).filter { !keptInBase[$0] }.map(index.base.path(at:))
                .filter { !covered.contains(Array($0.utf8)) }
            if keptInDelta.count + read.count + removed.count <= max(256, baseCount / 8) {
                try FileSystem.writeAtomically(to: deltaPath, mode: mode, keepExistingMode: false) { emit in
                    NoteIndexFile.write(kept: keptInDelta, of: index, read: read, removed: removed,
                                        titleSource: titleSource, kind: .delta, generation: index.base.generation,
                                        emit: emit)
                }
                return
            }
        }
        let generation = UInt64.random(in: 1...UInt64.max)
        try FileSystem.writeAtomically(to: indexPath, mode: mode, keepExistingMode: false) { emit in
            NoteIndexFile.write(kept: kept, of: index, read: read, titleSource: titleSource, kind: .base,
                                generation: generation, emit: emit)
        }
        if FileSystem.status(deltaPath) != nil { try? FileSystem.remove(deltaPath) }
    }

    /// Reads and folds files, on all cores, in batches so progress can be reported between them.
    private func readRecords(
        _ files: [(path: String, status: FileStatus)], progress: ((Int, Int) -> Void)?
    ) -> [IndexRecord] {
        var result: [IndexRecord] = []
        result.reserveCapacity(files.count)
        let batch = 2048
        var start = 0
        while start < files.count {
            let slice = Array(files[start..<min(files.count, start + batch)])
            result += Parallel.map(count: slice.count, chunk: 32) { record(for: slice[$0].path, walked: slice[$0].status, folder: &$1) }
            start += slice.count
            progress?(start, files.count)
        }
        return result
    }

    /// The record of one file; one that cannot be read is remembered (with its warning, and the
    /// status the walk saw) so that it is not read again until it changes.
    private func record(for path: String, walked: FileStatus, folder: inout TextFolder) -> IndexRecord {
        do {
            let loaded = try load(path: path)
            return IndexRecord(
                path: path, size: loaded.status.size, mtime: loaded.status.mtime, inode: loaded.status.inode,
                note: loaded.note, warnings: loaded.diagnostics.map { ParseWarning(line: $0.line ?? 0, message: $0.message) },
                folded: FoldedText(folder.foldedBytes(loaded.searchableText)))
        } catch {
            let status = walked
            return IndexRecord(
                path: path, size: status.size, mtime: status.mtime, inode: status.inode, note: nil,
                warnings: [ParseWarning(line: 0, message: error.brief + "; skipped")], folded: FoldedText([]))
        }
    }
}
