import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

extension FileSystem {
    // MARK: Writing

    /// Writes `bytes` to `path` atomically: a temp file in the same folder, fsync, rename, and an
    /// fsync of the folder. A crash leaves the old file or the new one, never a torn one.
    /// A new file gets `mode` less the umask; an existing file keeps its own permissions, unless
    /// `keepExistingMode` is false (the index, whose mode follows the vault's). `durable` false: a
    /// cache that tells its own damage, put in place without the fsyncs (`PendingFile.durable`).
    public static func writeAtomically(
        _ bytes: [UInt8], to path: String, mode: mode_t = 0o666, keepExistingMode: Bool = true,
        durable: Bool = true, sweep: Bool = true
    ) throws(FileSystemError) {
        try writeAtomically(
            to: path, mode: mode, keepExistingMode: keepExistingMode, durable: durable, sweep: sweep
        ) { emit in
            bytes.withUnsafeBytes(emit)
        }
    }

    /// `writeAtomically` of what `produce` hands to `emit`, chunk after chunk, so a large file
    /// (the index, whose texts come straight from the mapping of the old one) is never gathered
    /// in memory first. `sweep: false` leaves the folder's stale temps to a sweep made already.
    public static func writeAtomically(
        to path: String, mode: mode_t = 0o666, keepExistingMode: Bool = true, durable: Bool = true,
        sweep: Bool = true, _ produce: ((UnsafeRawBufferPointer) -> Void) -> Void
    ) throws(FileSystemError) {
        var permissions = newFileMode(within: mode)
        var st = stat()
        if keepExistingMode && stat(path, &st) == 0 { permissions = st.st_mode & 0o7777 }
        let file = try PendingFile(beside: path, sweep: sweep, durable: durable)
        produce(file.append)
        try file.commit(mode: permissions)
    }

    /// What became of one file of `writeAtomically(batch:isCurrent:)`.
    public enum BatchOutcome: Sendable {
        /// Written.
        case written
        /// Left as it was: it changed since it was read (`isCurrent` said so).
        case changed
        /// Not written: the error.
        case failed(FileSystemError)
    }

    /// Writes many files, each atomically as `writeAtomically` does — a temp file, fsync, rename,
    /// so a crash leaves each old or new, never torn — but many at a time: `prepare(batch:)`, then
    /// `commit(batch:prepared:isCurrent:)`. Each file gets the mode given with it (a rewritten
    /// note its own, as read: the file may not be at `path` yet, as a moved note is not).
    public static func writeAtomically(
        batch files: [(path: String, bytes: [UInt8], mode: mode_t)], isCurrent: (Int) -> Bool
    ) -> [BatchOutcome] {
        commit(batch: files, prepared: prepare(batch: files), isCurrent: isCurrent)
    }

    /// The temp files of a batch, written and synced, not yet in place: one per file, or the error
    /// that kept it from being written.
    public struct PreparedBatch: Sendable {
        var temps: [Result<TemporaryFiles.Entry, FileSystemError>]

        /// The first error, if a temp could not be written.
        public var firstFailure: FileSystemError? {
            for temp in temps { if case .failure(let error) = temp { return error } }
            return nil
        }

        /// Removes the temps: the batch will not be put in place.
        public func discard() { discard(from: 0) }

        /// Removes the temps from the `first` on: those before it were put in place (or removed).
        func discard(from first: Int) {
            for temp in temps.dropFirst(first) {
                if case .success(let entry) = temp { FileSystem.discard(entry) }
            }
        }
    }

    /// Writes the temps of a batch beside its files and makes them durable. Nothing is in place
    /// yet: a disk that cannot take every file fails here, before any is changed. A batch of more
    /// than `syncedOneByOne` files is made durable at once, by one `syncfs` (Linux), where a sync
    /// each made the disk wait for each (a move rewriting 1,000 notes on ext4 with a journal:
    /// 285–431 → 208–299 ms writing); a smaller one file by file, side by side, so that it never
    /// waits for whatever else the disk has to write.
    public static func prepare(batch files: [(path: String, bytes: [UInt8], mode: mode_t)]) -> PreparedBatch {
        #if os(Linux)
            if files.count > syncedOneByOne, let syncfs = syncFileSystem {
                return prepareSyncedTogether(batch: files, syncfs: syncfs)
            }
        #endif
        return prepareSyncedEach(batch: files)
    }

    /// How many files a batch may hold that `prepare(batch:)` syncs one by one: also the size of
    /// the groups it writes them in.
    static let syncedOneByOne = 64

    /// `prepare(batch:)` file by file, in groups: a group's temps are written, then synced side by
    /// side (the file system commits them together, where one after the other would wait for the
    /// disk each time).
    private static func prepareSyncedEach(batch files: [(path: String, bytes: [UInt8], mode: mode_t)])
        -> PreparedBatch
    {
        var temps: [Result<TemporaryFiles.Entry, FileSystemError>] = []
        temps.reserveCapacity(files.count)
        var folders: Set<String> = []
        for file in files {
            let folder = FileSystem.parentFolder(of: file.path)
            if folders.insert(folder).inserted { sweepStaleTemps(in: folder.isEmpty ? "." : folder) }
        }
        let group = syncedOneByOne
        var start = 0
        while start < files.count {
            let range = start..<min(files.count, start + group)
            var pending: [(index: Int, file: PendingFile, mode: mode_t)] = []
            var failures: [Int: FileSystemError] = [:]
            for i in range {
                do {
                    let file = try PendingFile(beside: files[i].path, sweep: false)
                    files[i].bytes.withUnsafeBytes(file.append)
                    // The disk can start on it while the rest of the group is written.
                    file.startWriteback()
                    pending.append((i, file, files[i].mode & 0o7777))
                } catch {
                    failures[i] = error
                }
            }
            let closed = closeSideBySide(pending.map { ($0.file, $0.mode) })
            var k = 0
            for i in range {
                if let error = failures[i] {
                    temps.append(.failure(error))
                } else {
                    temps.append(closed[k])
                    k += 1
                }
            }
            start = range.upperBound
        }
        return PreparedBatch(temps: temps)
    }

    #if os(Linux)
        /// `prepare(batch:)` with no sync a file: the whole batch is made durable at once after the
        /// last is written, by one `syncfs` of each file system that holds them. A temp that could
        /// not be written, or whose file system could not be synced, is a failure (and removed).
        private static func prepareSyncedTogether(
            batch files: [(path: String, bytes: [UInt8], mode: mode_t)], syncfs: (Int32) -> Int32
        ) -> PreparedBatch {
            var folders: [String: (fd: Int32, error: Int32)] = [:]
            for file in files {
                let parent = FileSystem.parentFolder(of: file.path)
                let folder = parent.isEmpty ? "." : parent
                guard folders[folder] == nil else { continue }
                sweepStaleTemps(in: folder)
                // Opened before the temps are written: `syncfs` reports the write errors of the file
                // system since its descriptor was opened.
                let fd = open(folder, O_RDONLY | O_CLOEXEC | O_DIRECTORY)
                folders[folder] = (fd, fd < 0 ? errno : 0)
            }
            defer { for (fd, _) in folders.values where fd >= 0 { _ = LibC.close(fd) } }
            var temps: [Result<TemporaryFiles.Entry, FileSystemError>] = files.map { file in
                do throws(FileSystemError) {
                    let temp = try PendingFile(beside: file.path, sweep: false)
                    file.bytes.withUnsafeBytes(temp.append)
                    return .success(try temp.close(mode: file.mode & 0o7777, sync: false))
                } catch {
                    return .failure(error)
                }
            }
            var failures: [String: Int32] = [:]
            var synced: [UInt64: Int32] = [:]
            for (folder, (fd, error)) in folders {
                var st = stat()
                guard fd >= 0, fstat(fd, &st) == 0 else {
                    failures[folder] = fd < 0 ? error : errno
                    continue
                }
                let device = UInt64(st.st_dev)
                if synced[device] == nil {
                    WriteStep.take(.sync)
                    synced[device] = syncfs(fd) == 0 ? 0 : errno
                }
                if let failure = synced[device], failure != 0 { failures[folder] = failure }
            }
            guard !failures.isEmpty else { return PreparedBatch(temps: temps) }
            for (i, file) in files.enumerated() {
                let parent = FileSystem.parentFolder(of: file.path)
                guard let failure = failures[parent.isEmpty ? "." : parent],
                    case .success(let temp) = temps[i]
                else { continue }
                discard(temp)
                temps[i] = .failure(.writeFailed(path: file.path, reason: String(cString: strerror(failure))))
            }
            return PreparedBatch(temps: temps)
        }
    #endif

    #if os(Linux)
        /// glibc's `syncfs`, which its headers declare only under `_GNU_SOURCE`.
        private static let syncFileSystem = LibC.function(
            "syncfs", as: (@convention(c) (Int32) -> Int32).self)
    #endif

    /// Puts the temps of `prepare(batch: files)` in place one by one, and syncs each folder once.
    /// `isCurrent(i)` is asked just before file `i` is renamed (holding whatever lock the caller
    /// holds): when it says no, the file is left as it is and its temp removed.
    public static func commit(
        batch files: [(path: String, bytes: [UInt8], mode: mode_t)], prepared: PreparedBatch,
        isCurrent: (Int) -> Bool
    ) -> [BatchOutcome] {
        pauseIfTesting()
        var outcomes = [BatchOutcome](repeating: .written, count: files.count)
        var folders: [String] = []
        for (i, temp) in prepared.temps.enumerated() {
            let folder = FileSystem.parentFolder(of: files[i].path)
            if !folders.contains(folder) { folders.append(folder) }
            switch temp {
            case .failure(let error):
                outcomes[i] = .failed(error)
            case .success(let temp):
                guard isCurrent(i) else {
                    discard(temp)
                    outcomes[i] = .changed
                    continue
                }
                WriteStep.take(.rename)
                if rename(temp.path, files[i].path) == 0 {
                    forget(temp)
                } else {
                    let reason = lastError()
                    discard(temp)
                    outcomes[i] = .failed(.writeFailed(path: files[i].path, reason: reason))
                }
            }
        }
        for folder in folders { syncFolder(folder.isEmpty ? "." : folder) }
        return outcomes
    }

    /// Closes (fsyncs) temps on several threads at once, so their syncs reach the disk together.
    private static func closeSideBySide(
        _ files: [(file: PendingFile, mode: mode_t)]
    ) -> [Result<TemporaryFiles.Entry, FileSystemError>] {
        typealias Closed = Result<TemporaryFiles.Entry, FileSystemError>
        let results = UnsafeMutableBufferPointer<Closed?>.allocate(capacity: files.count)
        results.initialize(repeating: nil)
        defer { results.deallocate() }
        let threads = min(8, files.count)
        let done = DispatchGroup()
        let shared = UnsafeSendable(results)
        let work = UnsafeSendable(files)
        for t in 0..<threads {
            done.enter()
            Thread.detachNewThread {
                for k in stride(from: t, to: work.value.count, by: threads) {
                    let (file, mode) = work.value[k]
                    do throws(FileSystemError) {
                        shared.value[k] = .success(try file.close(mode: mode))
                    } catch {
                        shared.value[k] = .failure(error)
                    }
                }
                done.leave()
            }
        }
        done.wait()
        return results.map { $0 ?? .failure(.writeFailed(path: "", reason: "not written")) }
    }

    /// Test seam, documented here because nothing else reads it: with
    /// `NOTES_TEST_PAUSE_BEFORE_RENAME` set, the process stops itself (SIGSTOP) after a temp file
    /// is written and before it is put in place, so an end-to-end test can signal it at exactly
    /// that moment. Unset, it costs one `getenv`.
    static func pauseIfTesting() {
        if getenv("NOTES_TEST_PAUSE_BEFORE_RENAME") != nil { raise(SIGSTOP) }
    }

    static func syncDirectory(of path: String) {
        let directory = FileSystem.parentFolder(of: path)
        syncFolder(directory.isEmpty ? "." : directory)
    }

    /// Writes a folder's entries to the disk (after a rename into it).
    static func syncFolder(_ folder: String) {
        let fd = open(folder, O_RDONLY | O_CLOEXEC)
        if fd >= 0 {
            WriteStep.take(.sync)
            fsync(fd)
            close(fd)
        }
    }
}
