import Foundation

extension Vault {
    /// Every note of the vault, from the index cache at `indexPath` where it is fresh:
    /// one directory walk and one `fstatat` per file, and only new or changed files are read. The
    /// index is rewritten (atomically, holding the lock at `lockPath`) when anything changed; when
    /// another process holds the lock, this one leaves the writing to it. `rebuild` ignores the
    /// old index. `progress` is called on the calling thread with (files read, files to read).
    ///
    /// `search`: the search the caller will run on the catalog. When every note is read (no
    /// index yet), each is matched as it is read, its folded text still at hand, and the catalog
    /// keeps what matched (`TextHits`), so that the search does not read every text again.
    func catalog(
        indexPath: String, lockPath: String, rebuild: Bool = false, waitForLock: Bool = false,
        search: SearchQuery? = nil, progress: ((Int, Int) -> Void)? = nil
    ) -> Catalog {
        let stateFolder = String(indexPath[..<(indexPath.lastIndex(of: "/") ?? indexPath.startIndex)])
        let deltaPath = indexPath + ".delta"
        let listingsPath = FolderListings.path(besideIndex: indexPath)
        // What the folders held when last listed (those still as they were are not listed again),
        // loaded while the index is mapped.
        let loading = rebuild ? nil : Beside { FolderListings.load(listingsPath) }
        let index =
            rebuild
            ? nil
            : mapIndex(indexPath, lockPath: lockPath).flatMap { base in
                base.kind == .base
                    ? IndexView(base: base, delta: mapIndex(deltaPath, lockPath: lockPath)) : nil
            }
        Trace.mark("map")
        let listings = loading?.value ?? nil
        // A write killed before it could clean up (SIGKILL, a crash) leaves its temp here.
        FileSystem.sweepStaleTemps(in: stateFolder)
        Trace.mark("listings")
        if index == nil {
            // Every note will be read, and the first front matter read asks for the local time
            // zone, whose data takes milliseconds to load (while the other reader waits on its
            // lock): loaded now, on the core the walk of a folder leaves idle.
            DispatchQueue.global().async { _ = TimeZone.current }
        }
        // Without an index every file is read, and reading stats it: the walk need not. Nor
        // need the reading wait for the walk: the walk goes on beside it, handing out what it has
        // found (`SurveyStream`), unless progress is reported (that needs the total first).
        let walk = index == nil && progress == nil ? SurveyStream(vault: self, listings: listings) : nil
        var survey =
            walk == nil ? survey(against: index, statting: index != nil, listings: listings) : Survey()
        if walk == nil { Trace.mark("survey") }
        // A walk beside the reading writes a new base: everything is read, nothing kept.
        var plan = walk == nil ? nil : planWrite(kept: [], of: nil, reading: [])
        // Only a cache: a vault we cannot write to still works, just without it. When another
        // process holds the lock, this one leaves the writing to it — unless told to wait for it
        // (`notes index`, whose whole job the writing is).
        var lock: VaultLock?
        var stream: IndexStream?
        var indexError: VaultError?
        func openStream(_ plan: IndexWritePlan, capacity: Int) {
            do {
                lock = try VaultLock(path: lockPath, wait: waitForLock, vault: root)
                if lock != nil {
                    stream = try IndexStream(
                        path: plan.kind == .base ? indexPath : deltaPath, kept: plan.kept, of: index,
                        capacity: capacity)
                }
            } catch {
                indexError = .indexNotWritten(path: indexPath, reason: error.brief)
            }
        }
        var read: [IndexTable] = []
        var readDiagnostics: [Diagnostic] = []
        var readMode: mode_t = 0o666
        // Matched as read: plain searches (every term in the text), whose text part needs nothing else.
        let matching = search.flatMap { $0.isPlain && !$0.textTerms.isEmpty ? $0 : nil }
        var textHits: [Bool] = []
        if let walk, let plan {
            openStream(plan, capacity: 0)
            (read, readDiagnostics, readMode, textHits) = readRecords(
                next: { count in
                    // The walk runs ahead of the reading: the index's tables get room for what it
                    // has found so far, rather than grow by doubling.
                    defer { stream?.expect(records: walk.found) }
                    return walk.next(atLeast: count)
                }, total: nil, into: stream, matching: matching)
            survey = walk.finish()
            Trace.mark("survey+read")
        }
        // The index holds the text of every note, so nobody may read it who could not read the
        // vault folder and every note: it gets what a new file gets under the umask, within the
        // group and other bits that the vault folder and all notes grant; the owner keeps read
        // and write. (A vault at 0700, or one note at 0600, makes it 0600.)
        var indexMode = FileSystem.newFileMode(within: 0o600 | survey.sharedMode)
        // A note made private since an index file was written (even when nothing else changed):
        // make the index's files as private (only ever narrowing a mode, so a writer that chose a
        // stricter one is never undone).
        for path in [indexPath, deltaPath, LinkedNotes.path(besideIndex: indexPath), listingsPath] {
            if let current = FileSystem.status(path), current.kind == .regular, current.mode & ~indexMode != 0
            {
                chmod(path, current.mode & indexMode)
            }
        }
        let kept = survey.current
        let changed =
            !survey.stale.isEmpty || !survey.newFiles.isEmpty || kept.count != (index?.liveCount ?? 0)
            || rebuild
        guard changed else {
            // (A walk beside the reading found nothing: its file, never written to, goes, before
            // the lock does.)
            stream?.abandon()
            lock?.release()
            keep(survey, at: listingsPath, mode: indexMode)
            let (notes, files) = index.map { Catalog.notesAndFiles(kept, of: $0) } ?? ([], [])
            return Catalog(
                index: index, mapped: notes, files: files,
                diagnostics: survey.diagnostics, filesRead: 0, indexWritten: false, indexError: nil,
                linkRules: linkRules, symlinkedFolders: survey.symlinkedFolders,
                indexPath: indexPath)
        }
        // The vault's other files that are new: a path each, nothing to read.
        var newFiles = IndexTable(capacity: survey.newFiles.count)
        newFiles.addFiles(survey.newFiles)
        if walk == nil {
            let written = planWrite(
                kept: kept, of: index, reading: survey.stale.map(\.path) + survey.newFiles)
            plan = written
            openStream(written, capacity: kept.count + survey.stale.count)
            (read, readDiagnostics, readMode) = readRecords(survey.stale, into: stream, progress: progress)
        }
        guard let plan else { preconditionFailure("a plan is made before reading") }
        let path = plan.kind == .base ? indexPath : deltaPath
        var view: IndexView?
        var others = [newFiles]
        stream?.add(&others)
        read.append(newFiles)
        // The modes of files the walk did not stat, as reading found them.
        indexMode &= readMode
        if walk == nil { Trace.mark("read") }
        if let stream {
            do {
                try stream.commit(
                    removed: plan.removed, titleSource: titleSource, kind: plan.kind,
                    generation: plan.generation, mode: indexMode)
                // The base is written before the old delta goes, and a delta of another generation
                // is never read, so a crash between the two loses nothing.
                if plan.kind == .base, FileSystem.status(deltaPath) != nil {
                    try? FileSystem.remove(deltaPath)
                }
                // Read back while the lock is held, so it is the file just written.
                view = plan.view(of: index, written: mapIndex(path, lockPath: lockPath))
            } catch {
                indexError = .indexNotWritten(path: indexPath, reason: error.brief)
            }
        }
        lock?.release()
        keep(survey, at: listingsPath, mode: indexMode)
        let written = view != nil
        if view == nil {
            // Not written (another process is writing it, or it cannot be): the same records,
            // encoded in memory. Texts handed to a stream that then failed are read again.
            if stream != nil { read = readRecords(survey.stale, into: nil, progress: nil).0 + [newFiles] }
            let bytes = NoteIndexFile.encode(
                kept: plan.kept, of: index, read: read, removed: plan.removed,
                titleSource: titleSource, kind: plan.kind, generation: plan.generation)
            view = plan.view(
                of: index, written: NoteIndexFile.map(TextStorage(bytes), titleSource: titleSource))
        }
        Trace.mark("write")
        let (notes, files) = view.map { Catalog.notesAndFiles(plan.live(in: $0), of: $0) } ?? ([], [])
        var catalog = Catalog(
            index: view, mapped: notes, files: files, diagnostics: survey.diagnostics + readDiagnostics,
            filesRead: survey.stale.count, indexWritten: written, indexError: indexError,
            linkRules: linkRules, symlinkedFolders: survey.symlinkedFolders,
            indexPath: written ? indexPath : nil)
        // A new base (written or in memory) numbers its records in the order they were read, as
        // `textHits` has them; the other files' records, after them, hold no text.
        if let matching, walk != nil, let view, view.delta == nil,
            view.base.count == textHits.count + newFiles.count
        {
            catalog.textHits = TextHits(
                search: matching, byRecord: textHits + [Bool](repeating: false, count: newFiles.count))
        }
        return catalog
    }

    /// Writes what `survey` found the folders held (`FolderListings`) to `path` when it listed a
    /// folder afresh whose listing may be kept: the next survey replays it rather than list the
    /// folder. Only a cache: a write that fails costs that listing again. Without the lock (a
    /// search must not keep a writer from the index): the file is put in place by a rename, and
    /// whichever of two writers renames last, each listing in it is checked against its folder.
    private func keep(_ survey: Survey, at path: String, mode: mode_t) {
        guard survey.listedAnew else { return }
        // (The folder's stale temps were swept as the refresh began.)
        try? FileSystem.writeAtomically(
            survey.folders.encoded(), to: path, mode: mode, keepExistingMode: false, durable: false,
            sweep: false)
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
        let repair = IndexRepair(
            reread: { [self] in reread($0) },
            discard: {
                guard let inode, let lock = try? VaultLock(path: lockPath, wait: false, vault: root) else {
                    return
                }
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
        var folding = TextFolder()
        _ = encode(path, walked: nil, relativeTo: nil, into: &table, mode: &mode, folding: &folding)
        guard table.count == 1 else { return nil }
        let bytes = NoteIndexFile.encode(
            kept: [], of: nil, read: [table], removed: [], titleSource: titleSource,
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
                return IndexWritePlan(
                    kind: .delta, generation: index.base.generation, kept: keptInDelta,
                    removed: removed, keptInBase: kept.filter { $0 < baseCount })
            }
        }
        return IndexWritePlan(
            kind: .base, generation: UInt64.random(in: 1...UInt64.max), kept: kept, removed: [],
            keptInBase: [])
    }

    /// Reads and folds files, on all cores, in batches so progress can be reported between them.
    /// Each worker encodes its files straight into an index table: no note is kept as strings.
    /// Each batch is handed to `stream` as soon as it is read, and then only the stream keeps it
    /// (the tables returned are empty: a stream that fails has the files read again); without a
    /// stream, the tables are returned.
    /// Also returns the group and other permission bits that every file read grants (with the
    /// owner's read and write), for the index's mode.
    private func readRecords(
        _ files: [(path: String, status: FileStatus?)], into stream: IndexStream?,
        progress: ((Int, Int) -> Void)?
    ) -> ([IndexTable], [Diagnostic], mode_t) {
        var start = 0
        let (tables, diagnostics, mode, _) = readRecords(
            next: { count in
                guard start < files.count else { return nil }
                defer { start = min(files.count, start + count) }
                return Array(files[start..<min(files.count, start + count)])
            }, total: files.count, into: stream, matching: nil, progress: progress)
        return (tables, diagnostics, mode)
    }

    /// `readRecords` of the files `next(count)` hands out, `count` or more at a time (nil when
    /// there are none left), `total` in all where known (for `progress`). With `matching`, also
    /// whether each record read has folded text that matches that search, in order.
    private func readRecords(
        next: (Int) -> [(path: String, status: FileStatus?)]?, total: Int?, into stream: IndexStream?,
        matching: SearchQuery?, progress: ((Int, Int) -> Void)? = nil
    ) -> (tables: [IndexTable], diagnostics: [Diagnostic], mode: mode_t, hits: [Bool]) {
        var hits: [Bool] = []
        var tables: [IndexTable] = []
        var diagnostics: [Diagnostic] = []
        var mode: mode_t = 0o666
        let batch = 2048
        let chunk = FileBatch.size
        // Files are opened relative to the vault folder, open, sparing the kernel the walk above it.
        let rootFD = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { if rootFD >= 0 { close(rootFD) } }
        let relativeTo = rootFD >= 0 ? rootFD : nil
        var done = 0
        while let files = next(batch) {
            var chunks = Parallel.map(count: files.count, runsOf: chunk, states: TextFolder.workers) {
                run, folding in
                let files = files[run]
                var table = IndexTable(capacity: files.count)
                table.reserve(notes: files.count)
                // Folded text is about as long as the file: one buffer for the chunk, no regrowth
                // (from the stream, a buffer used before).
                let textSize = files.reduce(0) { $0 + Int(max(0, $1.status?.size ?? 2048)) } + 64
                if let stream {
                    table.texts = stream.textBuffer(capacity: textSize)
                } else {
                    table.texts.reserveCapacity(textSize)
                }
                var diagnostics: [Diagnostic] = []
                var mode: mode_t = 0o666
                // One scratch for the chunk: taken and given back per file (with the time zone
                // asked for), it cost three locks a note.
                let scratch = RecordScratch.taken()
                defer { RecordScratch.workers.give(scratch) }
                var hits: [Bool] = []
                scratch.batch.read(files.lazy.map(\.path), relativeTo: readsInBatches ? relativeTo : nil)
                for (i, file) in zip(0..., files) {
                    let (count, textStart) = (table.count, table.texts.count)
                    let read = scratch.batch.file(i)
                    let taken =
                        read.map {
                            recordFromBytes(
                                $0.bytes, status: $0.status, path: file.path, into: &table, mode: &mode,
                                folding: &folding, scratch: scratch)
                        } ?? false
                    if !taken {
                        // A file read whole but not for the fast path goes straight to the slow one.
                        diagnostics += encode(
                            file.path, walked: file.status, relativeTo: relativeTo, into: &table,
                            mode: &mode, folding: &folding, fromBytes: read == nil, scratch: scratch)
                    }
                    // Matched while its text is still in the cache.
                    if let matching, table.count > count {
                        hits.append(
                            table.texts.withUnsafeBytes {
                                matching.matches(folded: UnsafeRawBufferPointer(rebasing: $0[textStart...]))
                            })
                    }
                }
                return (table, diagnostics, mode, hits)
            }
            // The tables moved out of `chunks`, so that each text buffer has one owner: the stream
            // empties it in place once written, keeping its memory for a later chunk.
            var read: [IndexTable] = []
            read.reserveCapacity(chunks.count)
            for i in chunks.indices {
                read.append(IndexTable())
                swap(&read[i], &chunks[i].0)
                diagnostics += chunks[i].1
                mode &= chunks[i].2
                hits += chunks[i].3
            }
            if let stream { stream.add(&read) } else { tables += read }
            done += files.count
            progress?(done, total ?? done)
        }
        return (tables, diagnostics, 0o600 | mode, hits)
    }

    /// Reads one file and adds its record to `table`, its searchable text folded straight into
    /// the table's texts; returns its warnings. `fromBytes` tries `recordFromBytes` first (tests
    /// compare the two ways), with `scratch` (else one of the workers'). A file that cannot be
    /// read is remembered (with its warning, and the status the walk saw) so that it is not read
    /// again until it changes.
    func encode(
        _ path: String, walked: FileStatus?, relativeTo root: Int32?, into table: inout IndexTable,
        mode: inout mode_t, folding: inout TextFolder, fromBytes: Bool = true,
        scratch given: RecordScratch? = nil
    ) -> [Diagnostic] {
        if fromBytes {
            // Most notes: straight from their bytes, no string of the note made.
            let scratch = given ?? RecordScratch.taken()
            defer { if given == nil { RecordScratch.workers.give(scratch) } }
            if recordFromBytes(
                path, relativeTo: root, into: &table, mode: &mode, folding: &folding, scratch: scratch)
            {
                return []
            }
        }
        let start = table.texts.count
        do {
            let loaded = try load(path: path, relativeTo: root, keepingAccessTime: true)
            mode &= loaded.status.mode
            // The searchable text, as `LoadedNote.searchableText` has it: a title that is not a
            // body line, the aliases, then the body.
            for line in loaded.searchableHead {
                folding.appendFolded(line, to: &table.texts)
                table.texts.append(0x0A)
            }
            folding.appendFolded(loaded.document.body, to: &table.texts)
            table.add(
                path: path, size: loaded.status.size, mtime: loaded.status.mtime, inode: loaded.status.inode,
                ctime: loaded.status.ctime,
                note: loaded.note,
                warnings: loaded.diagnostics.map { ParseWarning(line: $0.line ?? 0, message: $0.message) },
                refs: Vault.refs(of: loaded, folding: &folding), textFrom: start)
            return loaded.diagnostics.map {
                Diagnostic(path: $0.path, line: ($0.line ?? 0) > 0 ? $0.line : nil, message: $0.message)
            }
        } catch {
            let message = error.brief + "; skipped"
            // A file deleted since the walk (by another process, now) is simply gone: nothing to say.
            let now = FileSystem.status(fullPath(path))
            // Remembered with the status the walk saw (or sees now), so it is not read again until
            // it changes (a file gone is remembered as no note, standing in for an older record).
            if let status = walked ?? now {
                mode &= status.mode
                table.add(
                    path: path, size: status.size, mtime: status.mtime, inode: status.inode,
                    ctime: status.ctime,
                    note: nil,
                    warnings: now == nil ? [] : [ParseWarning(line: 0, message: message)],
                    refs: NoteRefs.Encoded(), textFrom: start)
            }
            return now == nil ? [] : [Diagnostic(path: fullPath(path), line: nil, message: message)]
        }
    }
}

extension Vault {
    /// The tags and links of a note read from its file, as the index keeps them (`NoteRefs`):
    /// its folded title, its tags folded and as spelled, its links (of every kind) with their
    /// resolution keys, its aliases folded, its headings and block ids, and where it was imported from.
    static func refs(of loaded: LoadedNote, folding: inout TextFolder) -> NoteRefs.Encoded {
        var tags: [(spelling: String, folded: [UInt8])] = []
        for spelling in loaded.note.tags {
            let folded = folding.foldedBytes(spelling)
            if !folded.isEmpty { tags.append((spelling, folded)) }
        }
        var (body, title) = (loaded.document.body, loaded.note.title)
        var encoded = NoteRefs.Encoded()
        var scratch = NoteRefs.LinkScratch()
        body.withUTF8 { bytes in
            title.withUTF8 { title in
                var code = CodeCursor(bytes)
                refs(
                    body: bytes, firstLine: NoteLinks.firstBodyLine(loaded.document), code: &code,
                    path: loaded.note.path, title: title, tags: tags, aliases: loaded.document.aliases,
                    importedFrom: loaded.document.frontMatter?.scalar("importedFrom") ?? "",
                    folding: &folding, scratch: &scratch, into: &encoded)
            }
        }
        return encoded
    }

    /// `refs(of:folding:)` of a note's parts, encoded into `encoded` (`NoteRefs.encode`: its
    /// memory used again, as is `scratch`'s): its body's bytes (whose first line is line
    /// `firstLine` of the file, its code found through `code`, a cursor over them at their
    /// start), its vault path and title (UTF-8), its tags with their folded forms, its aliases
    /// and `importedFrom`.
    static func refs(
        body: UnsafeBufferPointer<UInt8>, firstLine: Int, code: inout CodeCursor, path: String,
        title: UnsafeBufferPointer<UInt8>,
        tags: [(spelling: String, folded: [UInt8])], aliases: [String], importedFrom: String,
        folding: inout TextFolder, scratch: inout NoteRefs.LinkScratch, into encoded: inout NoteRefs.Encoded
    ) {
        // Links and anchors (as `NoteLinks.all` and `NoteAnchors.of` find them) from one look for
        // the body's code, which neither counts in; as spans of the body, no string made.
        scratch.spans.removeAll(keepingCapacity: true)
        NoteLinks.scan(body, firstLine: firstLine, everything: true, code: &code, into: &scratch.spans)
        scratch.anchors.removeAll()
        NoteAnchors.scan(body, firstLine: firstLine, code: &code, into: &scratch.anchors)
        scratch.foldedTitle.removeAll(keepingCapacity: true)
        folding.appendFolded(utf8: title, to: &scratch.foldedTitle)
        NoteRefs.encode(
            tags: tags, body: body, source: path, foldedAliases: aliases.map { folding.foldedBytes($0) },
            importedFrom: importedFrom, folding: &folding, scratch: &scratch, into: &encoded)
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

/// A value made on another thread while the caller goes on; `value` waits for it.
private final class Beside<Value: Sendable>: @unchecked Sendable {
    private var made: Value?
    private let done = DispatchSemaphore(value: 0)

    init(_ make: @escaping @Sendable () -> Value) {
        DispatchQueue.global().async {
            self.made = make()
            self.done.signal()
        }
    }

    /// The value, once made (waiting for it; `made` is not written after the signal).
    var value: Value? {
        done.wait()
        done.signal()
        return made
    }
}
