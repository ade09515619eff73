import Foundation

/// The notes of a vault as the index cache knows them (SPEC §8): each note's summary and, inside
/// the library, its folded searchable text. Built by `NoteStore`.
public struct Catalog: Sendable {
    /// The notes, in no particular order.
    public let notes: [Note]
    /// The folded searchable text of each note, by position in `notes`.
    let folded: [FoldedText]
    /// Problems with the vault's folders, and with the files read this time (new or changed since
    /// the index last saw them): a file's warnings are reported once per change, not on every command.
    public let diagnostics: [Diagnostic]
    /// How many files had to be read because the index did not know them as they are.
    public let filesRead: Int
    /// Whether the index file was written.
    public let indexWritten: Bool
    /// Why the index could not be written when it had to be; nil when it was written or was current.
    public let indexError: VaultError?

    /// The notes a query selects — every term in the searchable text, on all cores — sorted in
    /// its order and cut to its limit. The one search path of list, search and ID completion.
    public func run(_ query: NoteQuery) -> [Note] {
        var hits = notes
        if !query.search.isEmpty {
            let keep = Parallel.map(count: notes.count, chunk: 256) { i, _ in
                folded[i].withUnsafeBytes { query.search.matches(folded: $0) }
            }
            hits = notes.indices.compactMap { keep[$0] ? notes[$0] : nil }
        }
        var sorted = query.order.sort(hits, reverse: query.reverse)
        if let limit = query.limit, sorted.count > limit { sorted.removeSubrange(limit...) }
        return sorted
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

    func isCurrent(_ status: FileStatus) -> Bool {
        size == status.size && mtime == status.mtime && inode == status.inode
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
    static let version: UInt32 = 2

    /// The records as file bytes; `titleSource` is recorded, since titles and folded texts depend on it.
    static func encode(_ records: [IndexRecord], titleSource: TitleSource = .content) -> [UInt8] {
        var meta: [UInt8] = []
        meta.reserveCapacity(records.count * 160)
        var textOffset: UInt64 = 0
        for r in records {
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
                meta.append(0)
            }
            append(UInt32(r.warnings.count), to: &meta)
            for w in r.warnings {
                append(UInt32(max(0, w.line)), to: &meta)
                append(w.message, to: &meta)
            }
            append(textOffset, to: &meta)
            append(UInt64(r.folded.count), to: &meta)
            textOffset += UInt64(r.folded.count)
        }
        var out = magic
        out.reserveCapacity(magic.count + 16 + meta.count + Int(textOffset))
        append(version, to: &out)
        out.append(titleSource == .filename ? 1 : 0)
        append(UInt32(records.count), to: &out)
        append(UInt64(meta.count), to: &out)
        out += meta
        for r in records { r.folded.withUnsafeBytes { out.append(contentsOf: $0) } }
        return out
    }

    /// The records of an index file; nil when it is damaged, of another version, or made with
    /// another title source (then it is rebuilt).
    static func decode(_ storage: TextStorage, titleSource: TitleSource = .content) -> [IndexRecord]? {
        storage.withUnsafeBytes { bytes -> [IndexRecord]? in
            var reader = ByteReader(bytes: bytes)
            guard reader.take(magic.count).map(Array.init) == magic, reader.u32() == version,
                  reader.byte() == (titleSource == .filename ? 1 : 0),
                  let count = reader.u32(), let metaLength = reader.u64(),
                  metaLength <= UInt64(bytes.count - reader.offset) else { return nil }
            let textStart = reader.offset + Int(metaLength)
            let textLength = bytes.count - textStart
            var records: [IndexRecord] = []
            records.reserveCapacity(Int(min(count, 1 << 22)))
            for _ in 0..<count {
                guard let path = reader.string(), let size = reader.u64(), let mtime = reader.u64(),
                      let inode = reader.u64(), let flags = reader.byte() else { return nil }
                var note: Note?
                if flags & 1 != 0 {
                    guard let created = reader.u64(), let updated = reader.u64(), let title = reader.string(),
                          let preview = reader.string() else { return nil }
                    note = Note(
                        id: Note.id(forPath: path), path: path, title: title,
                        titleFromFrontMatter: flags & 2 != 0, createdAt: Double(bitPattern: created),
                        updatedAt: flags & 4 != 0 ? Double(bitPattern: updated) : nil, preview: preview)
                }
                guard let warningCount = reader.u32() else { return nil }
                var warnings: [ParseWarning] = []
                for _ in 0..<warningCount {
                    guard let line = reader.u32(), let message = reader.string() else { return nil }
                    warnings.append(ParseWarning(line: Int(line), message: message))
                }
                guard let offset = reader.u64(), let length = reader.u64(),
                      offset <= UInt64(textLength), length <= UInt64(textLength) - offset else { return nil }
                let start = textStart + Int(offset)
                records.append(IndexRecord(
                    path: path, size: Int64(bitPattern: size), mtime: Double(bitPattern: mtime), inode: inode,
                    note: note, warnings: warnings,
                    folded: FoldedText(storage: storage, range: start..<(start + Int(length)))))
            }
            return reader.offset == textStart ? records : nil
        }
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
    }

    private static func append(_ string: String, to out: inout [UInt8]) {
        append(UInt32(string.utf8.count), to: &out)
        out.append(contentsOf: string.utf8)
    }
}

/// A bounds-checked cursor over the index bytes; every read is nil past the end.
private struct ByteReader {
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
        var old: [String: IndexRecord] = [:]
        if !rebuild, let storage = TextStorage(mapping: indexPath), let records = NoteIndexFile.decode(storage, titleSource: titleSource) {
            old.reserveCapacity(records.count)
            for record in records { old[record.path] = record }
        }
        // A write killed before it could clean up (SIGKILL, a crash) leaves its temp here.
        FileSystem.sweepStaleTemps(in: stateFolder)
        // The index holds the text of every note, so nobody may read it who could not read the
        // vault folder and every note: it gets what a new file gets under the umask, within the
        // group and other bits that the vault folder and all notes grant; the owner keeps read
        // and write. (A vault at 0700, or one note at 0600, makes it 0600.)
        var shared = (FileSystem.status(canonicalRoot)?.mode ?? 0) & 0o066
        var records: [IndexRecord] = []
        var stale: [String] = []
        let (files, walkDiagnostics) = walk()
        for (path, status) in files {
            shared &= status.mode
            if let record = old[path], record.isCurrent(status) {
                records.append(record)
            } else {
                stale.append(path)
            }
        }
        let indexMode = FileSystem.newFileMode(within: 0o600 | shared)
        let changed = !stale.isEmpty || records.count != old.count || rebuild
        let freshCount = records.count
        records += readRecords(stale, progress: progress)
        var written = false
        var indexError: VaultError?
        if changed {
            // Only a cache: a vault we cannot write to still works, just without it.
            do {
                if let lock = try VaultLock(path: lockPath, wait: false) {
                    defer { lock.release() }
                    try FileSystem.writeAtomically(
                        NoteIndexFile.encode(records, titleSource: titleSource), to: indexPath, mode: indexMode,
                        keepExistingMode: false)
                    written = true
                }
            } catch {
                indexError = .indexNotWritten(path: indexPath, reason: error.brief)
            }
        } else if let current = FileSystem.status(indexPath), current.kind == .regular,
                  current.mode & ~indexMode != 0 {
            // A note made private since the index was written: make the index as private.
            chmod(indexPath, indexMode)
        }
        var notes: [Note] = []
        var folded: [FoldedText] = []
        var diagnostics = walkDiagnostics
        notes.reserveCapacity(records.count)
        folded.reserveCapacity(records.count)
        for (i, record) in records.enumerated() {
            for warning in record.warnings where i >= freshCount {
                diagnostics.append(Diagnostic(
                    path: fullPath(record.path), line: warning.line > 0 ? warning.line : nil, message: warning.message))
            }
            guard let note = record.note else { continue }
            notes.append(note)
            folded.append(record.folded)
        }
        return Catalog(notes: notes, folded: folded, diagnostics: diagnostics, filesRead: stale.count,
                       indexWritten: written, indexError: indexError)
    }

    /// Reads and folds files, on all cores, in batches so progress can be reported between them.
    private func readRecords(_ paths: [String], progress: ((Int, Int) -> Void)?) -> [IndexRecord] {
        var result: [IndexRecord] = []
        result.reserveCapacity(paths.count)
        let batch = 2048
        var start = 0
        while start < paths.count {
            let slice = Array(paths[start..<min(paths.count, start + batch)])
            result += Parallel.map(count: slice.count, chunk: 32) { record(for: slice[$0], folder: &$1) }
                .compactMap { $0 }
            start += slice.count
            progress?(start, paths.count)
        }
        return result
    }

    private func record(for path: String, folder: inout TextFolder) -> IndexRecord? {
        do {
            let loaded = try load(path: path)
            return IndexRecord(
                path: path, size: loaded.status.size, mtime: loaded.status.mtime, inode: loaded.status.inode,
                note: loaded.note, warnings: loaded.diagnostics.map { ParseWarning(line: $0.line ?? 0, message: $0.message) },
                folded: FoldedText(folder.foldedBytes(loaded.searchableText)))
        } catch {
            // Remember unreadable files too, so they are not read again until they change.
            guard let status = FileSystem.status(fullPath(path)) else { return nil }
            return IndexRecord(
                path: path, size: status.size, mtime: status.mtime, inode: status.inode, note: nil,
                warnings: [ParseWarning(line: 0, message: error.brief + "; skipped")], folded: FoldedText([]))
        }
    }
}
