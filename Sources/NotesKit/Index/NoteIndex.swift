import Foundation

/// The notes of a vault as the index cache knows them (SPEC §8): records of the mapped index,
/// read in place. A note's strings are made only when it is shown or asked for, and its folded
/// text is only paged in when a search reads it. Notes read from their files this time are in
/// the index just written (or, when it could not be written, in one encoded in memory), so every
/// note is read the same way. Built by `NoteStore`.
public struct Catalog: Sendable {
    /// The index (base and delta).
    let index: IndexView?
    /// The records of `index` that are notes and current.
    let mapped: [Int32]
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
    public var count: Int { mapped.count }

    /// Every note, in no particular order (this makes the strings of all of them).
    public var notes: [Note] { (0..<count).map { note(at: $0) } }

    /// The note at position `i` (see `MappedIndex.note(at:reading:)` for `reading`).
    func note(at i: Int, reading: Bool = false) -> Note {
        guard let index else { preconditionFailure("a catalog with notes has an index") }
        return index.note(at: Int(mapped[i]), reading: reading)
    }

    /// The folded title and tags of the note at position `i`, in place.
    func tags(at i: Int) -> TagsChunk {
        guard let index else { preconditionFailure("a catalog with notes has an index") }
        return index.tagsChunk(Int(mapped[i]))
    }

    /// The keys of the links of the note at position `i`, in place.
    func linkKeys(at i: Int) -> LinkKeysChunk {
        guard let index else { preconditionFailure("a catalog with notes has an index") }
        return index.linksChunk(Int(mapped[i]))
    }

    /// The links of the note at position `i`, made whole (see `MappedIndex.note(at:reading:)` for
    /// `reading`).
    func links(at i: Int, reading: Bool = false) -> [IndexedLink] {
        guard let index else { preconditionFailure("a catalog with notes has an index") }
        return index.links(at: Int(mapped[i]), reading: reading)
    }

    /// Whether the note at position `i` matches `search` — its folded text holds every text term —
    /// and has every tag of the tag terms and of `tags` (folded), or one nested below it.
    func matches(_ search: SearchQuery, tags: [[UInt8]], at i: Int) -> Bool {
        guard let index else { preconditionFailure("a catalog with notes has an index") }
        return Catalog.matches(search, tags: tags, record: Int(mapped[i]), of: index)
    }

    /// `matches(_:tags:at:)` of record `number` of `index`: for a loop over many notes, which
    /// takes the index once rather than a copy of it per note.
    static func matches(_ search: SearchQuery, tags: [[UInt8]], record number: Int, of index: IndexView) -> Bool {
        if !search.textTerms.isEmpty && !search.matches(folded: index.textBytes(number)) { return false }
        if search.tagTerms.isEmpty && tags.isEmpty { return true }
        let chunk = index.tagsChunk(number)
        return chunk.hasTags(search.tagTerms) && chunk.hasTags(tags)
    }

    /// How many of the notes have a part (text, strings, tags, links) that fails its checksum in
    /// the index: what `notes index` checks, reading every part (commands check only what they read).
    public var damagedNotes: Int {
        guard let index else { return 0 }
        return Parallel.map(count: count, chunk: 1024) { i, _ in
            let (file, number) = index.locate(Int(mapped[i]))
            return file.isSound(number) ? 0 : 1
        }.reduce(0, +)
    }

    /// Whether the name of the note at position `i` may be that of a conflict copy.
    func mayBeConflictCopy(at i: Int) -> Bool {
        guard let index else { preconditionFailure("a catalog with notes has an index") }
        return index.flags(Int(mapped[i])) & IndexLayout.mayBeConflictCopy != 0
    }

    /// The date `order` sorts the note at position `i` by.
    func date(at i: Int, order: SortOrder) -> Double {
        guard let index else { preconditionFailure("a catalog with notes has an index") }
        return index.date(at: Int(mapped[i]), order: order)
    }

    /// Calls `body` with the UTF-8 bytes of the vault path of the note at position `i`.
    func withPath<R>(at i: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        guard let index else { preconditionFailure("a catalog with notes has an index") }
        let (file, n) = index.locate(Int(mapped[i]))
        return body(file.pathBytes(n))
    }

    /// The position of the note at the vault path `path`, if the catalog has it.
    func position(ofPath path: String) -> Int? {
        guard let record = index?.find(path) else { return nil }
        return mapped.firstIndex(of: Int32(record))
    }

    /// Calls `body` with the UTF-8 bytes of the ID of the note at position `i`.
    func withID<R>(at i: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        guard let index else { preconditionFailure("a catalog with notes has an index") }
        return index.withID(at: Int(mapped[i]), body)
    }

    /// The notes a query selects — every term in the searchable text, every tag among the note's
    /// tags, on all cores — sorted in its order and cut to its limit. The one search path of list,
    /// search and ID completion. Only the notes returned are made into `Note`s.
    public func run(_ query: NoteQuery) -> [Note] {
        // The positions of the hits; nil when every note is one (no search).
        var hits: [Int]?
        var folder = TextFolder()
        let tags = query.tags.map { folder.foldedBytes($0.hasPrefix("#") ? String($0.dropFirst()) : $0) }
        if !query.search.isEmpty || !tags.isEmpty {
            let chunk = 256
            let readsText = !query.search.textTerms.isEmpty
            let (index, mapped) = (self.index, self.mapped)
            let found = Parallel.map(count: (count + chunk - 1) / chunk, chunk: 1) { c, _ -> [Int] in
                guard let index else { return [] }
                let positions = (c * chunk)..<min(count, (c + 1) * chunk)
                let found = positions.filter { i in Catalog.matches(query.search, tags: tags, record: Int(mapped[i]), of: index) }
                if query.once && readsText { index.releaseText(of: mapped[positions]) }
                return found
            }
            hits = found.flatMap { $0 }
        }
        Trace.mark("scan")
        let total = hits?.count ?? count
        func hit(_ p: Int) -> Int { hits?[p] ?? p }
        // A few of many (`list --limit 20`) are selected in one pass rather than sorted.
        let selecting = query.limit.map { $0 < total / 8 } ?? false
        let precedes = ordering(query.order, of: hits, readingDatesOnce: !selecting)
        let first = query.reverse ? { (a: Int, b: Int) in precedes(b, a) } : precedes
        var positions: [Int]
        if selecting, let limit = query.limit {
            positions = []
            positions.reserveCapacity(limit + 1)
            for position in 0..<total {
                guard positions.count < limit || first(position, positions[positions.count - 1]) else { continue }
                var low = 0, high = positions.count
                while low < high {
                    let middle = (low + high) / 2
                    if first(positions[middle], position) { low = middle + 1 } else { high = middle }
                }
                positions.insert(position, at: low)
                if positions.count > limit { positions.removeLast() }
            }
        } else {
            positions = (0..<total).sorted(by: first)
            if let limit = query.limit, positions.count > limit { positions.removeSubrange(limit...) }
        }
        defer { Trace.mark("sort+notes") }
        // The few notes a one-off command shows are read with `pread`: through the mapping, the
        // kernel would map whole runs of the page cache around each (megabytes for 20 notes).
        let reading = query.once && positions.count <= 64
        // Thousands of hits (a search) are made into notes on all cores.
        if positions.count > 2048 {
            let numbers = positions.map(hit)
            return Parallel.map(count: numbers.count, chunk: 512) { i, _ in note(at: numbers[i]) }
        }
        return positions.map { note(at: hit($0), reading: reading) }
    }

    /// Whether the note at position `hits[a]` comes before the one at `hits[b]` in `order`
    /// (`updated` and `created` newest first, `title` in localized standard order; ties by ID in
    /// code-point order, which UTF-8 byte order is). IDs are unique, so the order is total and a
    /// reversed order is the same list backwards. `hits` nil means every position. A sort reads
    /// each date many times, so `readingDatesOnce` reads them all first; a selection reads them
    /// in place. The one order of `run` and of the browser's `hits(order:)`.
    func ordering(_ order: SortOrder, of hits: [Int]?, readingDatesOnce: Bool) -> (Int, Int) -> Bool {
        let total = hits?.count ?? count
        func hit(_ p: Int) -> Int { hits?[p] ?? p }
        let dates = readingDatesOnce && order != .title ? (0..<total).map { date(at: hit($0), order: order) } : []
        let titles = order == .title ? (0..<total).map { note(at: hit($0)).title } : []
        return { a, b in
            if order == .title {
                let compared = titles[a].localizedStandardCompare(titles[b])
                if compared != .orderedSame { return compared == .orderedAscending }
            } else {
                let (x, y) = dates.isEmpty ? (date(at: hit(a), order: order), date(at: hit(b), order: order)) : (dates[a], dates[b])
                if x != y { return x > y }
            }
            return withID(at: hit(a)) { x in withID(at: hit(b)) { y in Catalog.precedes(x, y) } }
        }
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

extension Vault {
    /// Every note of the vault, from the index cache at `indexPath` where it is fresh (SPEC §8):
    /// one directory walk and one `fstatat` per file, and only new or changed files are read. The
    /// index is rewritten (atomically, holding the lock at `lockPath`) when anything changed; when
    /// another process holds the lock, this one leaves the writing to it. `rebuild` ignores the
    /// old index. `progress` is called on the calling thread with (files read, files to read).
    func catalog(
        indexPath: String, lockPath: String, rebuild: Bool = false, waitForLock: Bool = false,
        progress: ((Int, Int) -> Void)? = nil
    ) -> Catalog {
        let stateFolder = String(indexPath[..<(indexPath.lastIndex(of: "/") ?? indexPath.startIndex)])
        let deltaPath = indexPath + ".delta"
        let index = rebuild ? nil : mapIndex(indexPath, lockPath: lockPath).flatMap { base in
            base.kind == .base ? IndexView(base: base, delta: mapIndex(deltaPath, lockPath: lockPath)) : nil
        }
        // A write killed before it could clean up (SIGKILL, a crash) leaves its temp here.
        FileSystem.sweepStaleTemps(in: stateFolder)
        Trace.mark("map")
        // Without an index every file is read, and reading stats it: the walk need not.
        let survey = survey(against: index, statting: index != nil)
        Trace.mark("survey")
        // The index holds the text of every note, so nobody may read it who could not read the
        // vault folder and every note: it gets what a new file gets under the umask, within the
        // group and other bits that the vault folder and all notes grant; the owner keeps read
        // and write. (A vault at 0700, or one note at 0600, makes it 0600.)
        var indexMode = FileSystem.newFileMode(within: 0o600 | survey.sharedMode)
        // A note made private since an index file was written (even when nothing else changed):
        // make both files as private (only ever narrowing a mode, so a writer that chose a
        // stricter one is never undone).
        for path in [indexPath, deltaPath] {
            if let current = FileSystem.status(path), current.kind == .regular, current.mode & ~indexMode != 0 {
                chmod(path, current.mode & indexMode)
            }
        }
        let kept = survey.current
        let changed = !survey.stale.isEmpty || kept.count != (index?.liveCount ?? 0) || rebuild
        guard changed else {
            return Catalog(index: index, mapped: kept.filter { index?.isNote($0) == true }.map { Int32($0) },
                           diagnostics: survey.diagnostics, filesRead: 0, indexWritten: false, indexError: nil)
        }
        let plan = planWrite(kept: kept, of: index, reading: survey.stale.map(\.path))
        let path = plan.kind == .base ? indexPath : deltaPath
        var view: IndexView?
        var indexError: VaultError?
        // Only a cache: a vault we cannot write to still works, just without it. When another
        // process holds the lock, this one leaves the writing to it — unless told to wait for it
        // (`notes index`, whose whole job the writing is).
        var lock: VaultLock?
        var stream: IndexStream?
        do {
            lock = try VaultLock(path: lockPath, wait: waitForLock)
            if lock != nil {
                stream = try IndexStream(path: path, kept: plan.kept, of: index, capacity: kept.count + survey.stale.count)
            }
        } catch {
            indexError = .indexNotWritten(path: indexPath, reason: error.brief)
        }
        var (read, readDiagnostics, readMode) = readRecords(survey.stale, into: stream, progress: progress)
        // The modes of files the walk did not stat, as reading found them.
        indexMode &= readMode
        Trace.mark("read")
        if let stream {
            do {
                try stream.commit(removed: plan.removed, titleSource: titleSource, kind: plan.kind,
                                  generation: plan.generation, mode: indexMode)
                // The base is written before the old delta goes, and a delta of another generation
                // is never read, so a crash between the two loses nothing.
                if plan.kind == .base, FileSystem.status(deltaPath) != nil { try? FileSystem.remove(deltaPath) }
                // Read back while the lock is held, so it is the file just written.
                view = plan.view(of: index, written: mapIndex(path, lockPath: lockPath))
            } catch {
                indexError = .indexNotWritten(path: indexPath, reason: error.brief)
            }
        }
        lock?.release()
        let written = view != nil
        if view == nil {
            // Not written (another process is writing it, or it cannot be): the same records,
            // encoded in memory. Texts handed to a stream that then failed are read again.
            if stream != nil { read = readRecords(survey.stale, into: nil, progress: nil).0 }
            let bytes = NoteIndexFile.encode(kept: plan.kept, of: index, read: read, removed: plan.removed,
                                             titleSource: titleSource, kind: plan.kind, generation: plan.generation)
            view = plan.view(of: index, written: NoteIndexFile.map(TextStorage(bytes), titleSource: titleSource))
        }
        Trace.mark("write")
        let live = view.map { view in plan.live(in: view).filter { view.isNote($0) }.map { Int32($0) } } ?? []
        return Catalog(index: view, mapped: live, diagnostics: survey.diagnostics + readDiagnostics,
                       filesRead: survey.stale.count, indexWritten: written, indexError: indexError)
    }

    /// The index file at `path`, mapped; nil when there is none or it is not usable. A record of
    /// it whose part fails its check is read again from the note's file, and the index file is
    /// put aside — removed, holding the lock at `lockPath`, if it is still the file mapped — so
    /// that the next command writes it anew. When another process holds the lock, it is writing a
    /// new index already; if that is only a delta, a later command finds the damage again. When
    /// this process holds it, it is writing the file anew itself (copying the records it keeps,
    /// damaged ones read again), or rewriting notes (`move`: a later command puts the file aside).
    private func mapIndex(_ path: String, lockPath: String) -> MappedIndex? {
        guard let storage = TextStorage(mapping: path) else { return nil }
        let inode = storage.inode
        let repair = IndexRepair(reread: { [self] in reread($0) }, discard: {
            guard let inode, let lock = try? VaultLock(path: lockPath, wait: false) else { return }
            defer { lock.release() }
            if FileSystem.status(path)?.inode == inode { try? FileSystem.remove(path) }
        })
        return NoteIndexFile.map(storage, titleSource: titleSource, repair: repair)
    }

    /// The file at vault path `path` read again, as the only record of an index in memory; nil
    /// when it is gone.
    private func reread(_ path: String) -> MappedIndex? {
        var table = IndexTable(capacity: 1)
        var mode: mode_t = 0o666
        var folder = TextFolder()
        _ = encode(path, walked: nil, relativeTo: nil, into: &table, mode: &mode, folder: &folder)
        guard table.count == 1 else { return nil }
        let bytes = NoteIndexFile.encode(kept: [], of: nil, read: [table], removed: [], titleSource: titleSource,
                                         kind: .base, generation: 0)
        return NoteIndexFile.map(TextStorage(bytes), titleSource: titleSource)
    }

    /// What to write for the changes since `index`: a delta beside the base while the changes are
    /// few (a small change costs a small write), else a new base with a new generation, merging
    /// the delta in.
    private func planWrite(kept: [Int], of index: IndexView?, reading: [String]) -> IndexWritePlan {
        let readCount = reading.count
        if let index {
            let baseCount = index.base.count
            var keptInBase = [Bool](repeating: false, count: baseCount)
            var keptInDelta: [Int] = []
            for number in kept {
                if number < baseCount { keptInBase[number] = true } else { keptInDelta.append(number) }
            }
            // Paths of the base that no record of the new delta stands for: the files are gone.
            // Compared as bytes, as paths are everywhere else: Swift's String equality would take a
            // name in NFC and the same name in NFD (two files) for one.
            var covered = Set(reading.map { Array($0.utf8) })
            for number in keptInDelta { covered.insert(Array(index.path(at: number).utf8)) }
            let removed = (0..<baseCount).filter { !keptInBase[$0] }.map(index.base.path(at:))
                .filter { !covered.contains(Array($0.utf8)) }
            if keptInDelta.count + readCount + removed.count <= max(256, baseCount / 8) {
                return IndexWritePlan(kind: .delta, generation: index.base.generation, kept: keptInDelta,
                                      removed: removed, keptInBase: kept.filter { $0 < baseCount })
            }
        }
        return IndexWritePlan(kind: .base, generation: UInt64.random(in: 1...UInt64.max), kept: kept, removed: [],
                              keptInBase: [])
    }

    /// Reads and folds files, on all cores, in batches so progress can be reported between them.
    /// Each worker encodes its files straight into an index table: no note is kept as strings.
    /// Each batch is handed to `stream` as soon as it is read.
    /// Also returns the group and other permission bits that every file read grants (with the
    /// owner's read and write), for the index's mode.
    private func readRecords(
        _ files: [(path: String, status: FileStatus?)], into stream: IndexStream?, progress: ((Int, Int) -> Void)?
    ) -> ([IndexTable], [Diagnostic], mode_t) {
        var tables: [IndexTable] = []
        var diagnostics: [Diagnostic] = []
        var mode: mode_t = 0o666
        let batch = 2048, chunk = 32
        // Files are opened relative to the vault folder, open, sparing the kernel the walk above it.
        let rootFD = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { if rootFD >= 0 { close(rootFD) } }
        let relativeTo = rootFD >= 0 ? rootFD : nil
        var start = 0
        while start < files.count {
            let (first, end) = (start, min(files.count, start + batch))
            let chunks = Parallel.map(count: (end - start + chunk - 1) / chunk, chunk: 1) { c, folder in
                let files = files[(first + c * chunk)..<min(end, first + (c + 1) * chunk)]
                var table = IndexTable(capacity: files.count)
                // Folded text is about as long as the file: one buffer for the chunk, no regrowth.
                table.texts.reserveCapacity(files.reduce(0) { $0 + Int(max(0, $1.status?.size ?? 2048)) } + 64)
                var diagnostics: [Diagnostic] = []
                var mode: mode_t = 0o666
                for file in files {
                    diagnostics += encode(file.path, walked: file.status, relativeTo: relativeTo, into: &table,
                                          mode: &mode, folder: &folder)
                }
                return (table, diagnostics, mode)
            }
            stream?.add(chunks.map(\.0))
            for (var table, found, chunkMode) in chunks {
                // Texts handed to the stream are its to write and let go.
                if stream != nil { table.texts = [] }
                tables.append(table)
                diagnostics += found
                mode &= chunkMode
            }
            start = end
            progress?(start, files.count)
        }
        return (tables, diagnostics, 0o600 | mode)
    }

    /// Reads one file and adds its record to `table`, its searchable text folded straight into
    /// the table's texts; returns its warnings. A file that cannot be read is remembered (with its
    /// warning, and the status the walk saw) so that it is not read again until it changes.
    private func encode(
        _ path: String, walked: FileStatus?, relativeTo root: Int32?, into table: inout IndexTable,
        mode: inout mode_t, folder: inout TextFolder
    ) -> [Diagnostic] {
        let start = table.texts.count
        do {
            let loaded = try load(path: path, relativeTo: root)
            mode &= loaded.status.mode
            // The searchable text, as `LoadedNote.searchableText` has it: a title that is not a
            // body line, the aliases, then the body.
            for line in loaded.searchableHead {
                folder.appendFolded(line, to: &table.texts)
                table.texts.append(0x0A)
            }
            folder.appendFolded(loaded.document.body, to: &table.texts)
            table.add(path: path, size: loaded.status.size, mtime: loaded.status.mtime, inode: loaded.status.inode,
                      note: loaded.note, warnings: loaded.diagnostics.map { ParseWarning(line: $0.line ?? 0, message: $0.message) },
                      refs: Vault.refs(of: loaded, folder: &folder), textFrom: start)
            return loaded.diagnostics.map { Diagnostic(path: $0.path, line: ($0.line ?? 0) > 0 ? $0.line : nil, message: $0.message) }
        } catch {
            let message = error.brief + "; skipped"
            // A file deleted since the walk (by another process, now) is simply gone: nothing to say.
            let now = FileSystem.status(fullPath(path))
            // Remembered with the status the walk saw (or sees now), so it is not read again until
            // it changes (a file gone is remembered as no note, standing in for an older record).
            if let status = walked ?? now {
                mode &= status.mode
                table.add(path: path, size: status.size, mtime: status.mtime, inode: status.inode, note: nil,
                          warnings: now == nil ? [] : [ParseWarning(line: 0, message: message)],
                          refs: NoteRefs.Encoded(), textFrom: start)
            }
            return now == nil ? [] : [Diagnostic(path: fullPath(path), line: nil, message: message)]
        }
    }
}

extension Vault {
    /// The tags and links of a note read from its file, as the index keeps them (`NoteRefs`):
    /// its folded title, its tags folded and as spelled, its links with their resolution keys.
    static func refs(of loaded: LoadedNote, folder: inout TextFolder) -> NoteRefs.Encoded {
        var tags: [(spelling: String, folded: [UInt8])] = []
        for spelling in loaded.note.tags {
            let folded = folder.foldedBytes(spelling)
            if !folded.isEmpty { tags.append((spelling, folded)) }
        }
        let links = NoteLinks.of(loaded.document).map { link -> (link: NoteLink, keys: LinkKeys) in
            (link, LinkKeys.make(link, from: loaded.note.path, folder: &folder))
        }
        return NoteRefs.encode(foldedTitle: folder.foldedBytes(loaded.note.title), tags: tags, links: links)
    }
}

/// What a refresh writes: a base (everything kept, then what was read) or a delta of a base (the
/// delta's kept records, what was read, and the base's paths that are gone).
private struct IndexWritePlan {
    let kind: IndexKind
    let generation: UInt64
    /// View-wide numbers of the old view's records to copy into the file.
    let kept: [Int]
    /// Paths of the base whose files are gone (a delta's tombstones).
    let removed: [String]
    /// For a delta: the base's records that stay current.
    let keptInBase: [Int]

    /// The view with the file just written (or encoded); nil when that could not be read.
    func view(of old: IndexView?, written: MappedIndex?) -> IndexView? {
        guard let written else { return nil }
        if kind == .delta, let old { return IndexView(base: old.base, delta: written) }
        return IndexView(base: written, delta: nil)
    }

    /// The numbers of the records of `view` (as made by `view(of:written:)`) that stand for files.
    func live(in view: IndexView) -> [Int] {
        let base = view.base.count
        if kind == .delta, let delta = view.delta {
            return keptInBase + (0..<delta.count).filter { !delta.isRemoved($0) }.map { base + $0 }
        }
        return Array(0..<base)
    }
}
