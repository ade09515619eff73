#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import Foundation

/// What `lstat` says of a path, in the few fields the tool uses.
public struct FileStatus: Equatable, Sendable {
    /// The kind of file.
    public enum Kind: Sendable { case regular, directory, symlink, other }
    /// The kind of file.
    public var kind: Kind
    /// Size in bytes.
    public var size: Int64
    /// Modification time, seconds since 1970 with nanoseconds.
    public var mtime: Double
    /// The inode number.
    public var inode: UInt64
    /// The permission bits (`st_mode & 0o7777`).
    public var mode: mode_t
}

/// Thin POSIX file operations: reads, atomic and exclusive writes, a directory walk that does not
/// follow symlinks. All platform `#if`s of the library live here.
public enum FileSystem {
    /// `lstat` of `path`, or nil when it does not exist.
    public static func status(_ path: String) -> FileStatus? {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        return makeStatus(st)
    }

    static func makeStatus(_ st: stat) -> FileStatus {
        let kind: FileStatus.Kind
        switch st.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symlink
        default: kind = .other
        }
        #if canImport(Darwin)
        let mtime = Double(st.st_mtimespec.tv_sec) + Double(st.st_mtimespec.tv_nsec) * 1e-9
        #else
        let mtime = Double(st.st_mtim.tv_sec) + Double(st.st_mtim.tv_nsec) * 1e-9
        #endif
        return FileStatus(
            kind: kind, size: Int64(st.st_size), mtime: mtime, inode: UInt64(st.st_ino), mode: st.st_mode & 0o7777)
    }

    /// Reads a whole regular file; also returns its status. Notes are read without following a
    /// final symlink (a link is never a note); `followSymlinks` is for files like the settings.
    /// `relativeTo` opens `path` relative to that open folder (a vault's, say), sparing the kernel
    /// the walk of the folders above it; errors still name `named`, the full path.
    public static func read(
        _ path: String, followSymlinks: Bool = false, relativeTo directory: Int32? = nil, named: String? = nil
    ) throws(VaultError) -> ([UInt8], FileStatus) {
        // Non-blocking, so a FIFO (or a device) put where a file was expected is refused below
        // rather than waiting forever for a writer; it changes nothing for a regular file.
        let flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | (followSymlinks ? 0 : O_NOFOLLOW)
        let fd = directory.map { openat($0, path, flags) } ?? open(path, flags)
        let path = named ?? path
        guard fd >= 0 else { throw .io(path: path, reason: lastError()) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw .io(path: path, reason: lastError()) }
        let status = makeStatus(st)
        guard status.kind == .regular else { throw .io(path: path, reason: "not a regular file") }
        // One byte more than the size, so the read that finds the end needs no bigger buffer;
        // uninitialized, since zeroing a large file's buffer costs as much as reading it.
        var capacity = max(Int(status.size), 0) + 1
        var bytes: [UInt8] = []
        while true {
            var failure: Int32 = 0
            let attempt = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
                count = 0
                while count < buffer.count {
                    let n = Glue.read(fd, buffer.baseAddress.map { UnsafeMutableRawPointer($0 + count) }, buffer.count - count)
                    if n < 0 {
                        if errno == EINTR { continue }
                        failure = errno
                        return
                    }
                    if n == 0 { return }
                    count += n
                    // All the bytes fstat counted: done, without one more read that only finds the
                    // end (the status says this size; a file growing meanwhile shows a new status
                    // next time, and an edit compares the file with these bytes before writing).
                    if count == capacity - 1 && bytes.isEmpty { return }
                }
            }
            if failure != 0 { throw .io(path: path, reason: String(cString: strerror(failure))) }
            bytes += attempt
            // A full buffer means the file grew since fstat: read on.
            guard attempt.count == capacity else { break }
            capacity = max(4096, bytes.count)
        }
        return (bytes, status)
    }

    // MARK: Permissions

    /// The process's file-creation mask. `umask(2)` can only be read by setting it, so this sets
    /// the strictest mask for that instant and puts the old one back. `main` reads it first thing,
    /// while the program is single-threaded, so no file is created under the stand-in (and one
    /// that were would be more private, never less).
    public static let creationMask: mode_t = {
        let current = umask(0o077)
        umask(current)
        return current
    }()

    /// The permission bits a new file gets: `limit` (at most `0o666`) less the umask, as `open(2)`
    /// gives a file it creates. `mkstemp` makes 0600 files whatever the umask, so temps are
    /// `fchmod`ed to this.
    public static func newFileMode(within limit: mode_t = 0o666) -> mode_t {
        limit & 0o666 & ~creationMask
    }

    // MARK: Writing

    /// Writes `bytes` to `path` atomically: a temp file in the same folder, fsync, rename, and an
    /// fsync of the folder. A crash leaves the old file or the new one, never a torn one.
    /// A new file gets `mode` less the umask; an existing file keeps its own permissions, unless
    /// `keepExistingMode` is false (the index, whose mode follows the vault's).
    public static func writeAtomically(
        _ bytes: [UInt8], to path: String, mode: mode_t = 0o666, keepExistingMode: Bool = true
    ) throws(VaultError) {
        try writeAtomically(to: path, mode: mode, keepExistingMode: keepExistingMode) { emit in
            bytes.withUnsafeBytes(emit)
        }
    }

    /// `writeAtomically` of what `produce` hands to `emit`, chunk after chunk, so a large file
    /// (the index, whose texts come straight from the mapping of the old one) is never gathered
    /// in memory first.
    public static func writeAtomically(
        to path: String, mode: mode_t = 0o666, keepExistingMode: Bool = true,
        _ produce: ((UnsafeRawBufferPointer) -> Void) -> Void
    ) throws(VaultError) {
        var permissions = newFileMode(within: mode)
        var st = stat()
        if keepExistingMode && stat(path, &st) == 0 { permissions = st.st_mode & 0o7777 }
        let file = try PendingFile(beside: path)
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
        case failed(VaultError)
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
        fileprivate var temps: [Result<TemporaryFiles.Entry, VaultError>]

        /// The first error, if a temp could not be written.
        public var firstFailure: VaultError? {
            for temp in temps { if case .failure(let error) = temp { return error } }
            return nil
        }

        /// Removes the temps: the batch will not be put in place.
        public func discard() {
            for temp in temps { if case .success(let entry) = temp { FileSystem.discard(entry) } }
        }
    }

    /// Writes the temps of a batch beside its files, in groups: a group's temps are written, then
    /// synced side by side (the file system commits them together, where one after the other would
    /// wait for the disk each time). Nothing is in place yet: a disk that cannot take every file
    /// fails here, before any is changed.
    public static func prepare(batch files: [(path: String, bytes: [UInt8], mode: mode_t)]) -> PreparedBatch {
        var temps: [Result<TemporaryFiles.Entry, VaultError>] = []
        temps.reserveCapacity(files.count)
        var folders: Set<String> = []
        for file in files {
            let folder = (file.path as NSString).deletingLastPathComponent
            if folders.insert(folder).inserted { sweepStaleTemps(in: folder.isEmpty ? "." : folder) }
        }
        let group = 64
        var start = 0
        while start < files.count {
            let range = start..<min(files.count, start + group)
            var pending: [(index: Int, file: PendingFile, mode: mode_t)] = []
            var failures: [Int: VaultError] = [:]
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

    /// Puts the temps of `prepare(batch: files)` in place one by one, and syncs each folder once.
    /// `isCurrent(i)` is asked just before file `i` is renamed (holding whatever lock the caller
    /// holds): when it says no, the file is left as it is and its temp removed.
    public static func commit(
        batch files: [(path: String, bytes: [UInt8], mode: mode_t)], prepared: PreparedBatch, isCurrent: (Int) -> Bool
    ) -> [BatchOutcome] {
        pauseIfTesting()
        var outcomes = [BatchOutcome](repeating: .written, count: files.count)
        var folders: [String] = []
        for (i, temp) in prepared.temps.enumerated() {
            let folder = (files[i].path as NSString).deletingLastPathComponent
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
    ) -> [Result<TemporaryFiles.Entry, VaultError>] {
        typealias Closed = Result<TemporaryFiles.Entry, VaultError>
        let results = UnsafeMutableBufferPointer<Closed?>.allocate(capacity: files.count)
        results.initialize(repeating: nil)
        defer { results.deallocate() }
        let threads = min(8, files.count)
        let done = DispatchGroup()
        let shared = UnsafeSendable(results), work = UnsafeSendable(files)
        for t in 0..<threads {
            done.enter()
            Thread.detachNewThread {
                for k in stride(from: t, to: work.value.count, by: threads) {
                    let (file, mode) = work.value[k]
                    do throws(VaultError) {
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

    /// Moves a file (or folder) to a new name that must be free, so that a file appearing at the new
    /// name meanwhile is never replaced (`rename` would). The folders are synced.
    public static func moveExclusively(_ from: String, to: String) throws(VaultError) {
        switch renameExclusively(from, to) {
        case 0: break
        case EEXIST: throw .io(path: to, reason: "a file is already there")
        case let failure: throw .io(path: from, reason: String(cString: strerror(failure)))
        }
        syncDirectory(of: to)
        syncDirectory(of: from)
    }

    /// Renames `from` to `to` unless something is at `to`, in one step of the file system
    /// (`renameat2` with RENAME_NOREPLACE, `renamex_np` with RENAME_EXCL): at every moment the file
    /// has one of its two names, never both, never neither, so a crash cannot leave two copies.
    /// Where the file system cannot do that, a hard link then an unlink of the old name (both names
    /// for a moment), and where it has no hard links either, `rename` once `to` is seen free.
    /// Returns 0, or the `errno` of the failure: EEXIST when `to` is taken. Folders are not synced.
    static func renameExclusively(_ from: String, _ to: String) -> Int32 {
        WriteStep.take(.rename)
        #if canImport(Darwin)
        if renamex_np(from, to, UInt32(RENAME_EXCL)) == 0 { return 0 }
        #else
        if let renameat2 = renameat2 {
            if renameat2(AT_FDCWD, from, AT_FDCWD, to, 1) == 0 { return 0 }  // RENAME_NOREPLACE
        } else {
            errno = ENOSYS
        }
        #endif
        let failure = errno
        guard failure == EINVAL || failure == ENOSYS || failure == ENOTSUP || failure == EOPNOTSUPP else {
            return failure
        }
        WriteStep.take(.link)
        if link(from, to) == 0 {
            WriteStep.take(.remove)
            guard unlink(from) == 0 else {
                let failure = errno
                unlink(to)
                return failure
            }
            return 0
        }
        let linkFailure = errno
        guard linkFailure == EPERM || linkFailure == EOPNOTSUPP || linkFailure == ENOSYS else { return linkFailure }
        if status(to) != nil { return EEXIST }
        return rename(from, to) == 0 ? 0 : errno
    }

    #if os(Linux)
    /// glibc's `renameat2` (2.28 and later), which its headers declare only under `_GNU_SOURCE`.
    private static let renameat2: (@convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32)? = {
        guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "renameat2") else { return nil }
        return unsafeBitCast(
            symbol, to: (@convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32).self)
    }()
    #endif

    /// Creates the first free one of the files `candidate(1)`, `candidate(2)`, … (all in one
    /// folder) holding `bytes`, and returns the number of the one it created. The bytes are
    /// written once to a temp file, then hard-linked into place: the file appears whole, and two
    /// processes never overwrite each other. An error names the file being created.
    public static func createExclusively(
        _ bytes: [UInt8], firstFreeOf candidate: (Int) -> String
    ) throws(VaultError) -> Int {
        var attempt = 1
        // The name that is free now is the one being written, so it is the one an error names.
        while status(candidate(attempt)) != nil { attempt += 1 }
        let temp = try writeTemp(bytes, beside: candidate(attempt), mode: newFileMode())
        defer { discard(temp) }
        pauseIfTesting()
        while true {
            let path = candidate(attempt)
            WriteStep.take(.link)
            if link(temp.path, path) == 0 {
                syncDirectory(of: path)
                return attempt
            }
            let failure = errno
            if failure == EEXIST {
                attempt += 1
                continue
            }
            guard failure == EPERM || failure == EOPNOTSUPP || failure == ENOSYS else {
                throw .writeFailed(path: path, reason: String(cString: strerror(failure)))
            }
            // No hard links here: claim the name with O_EXCL, then rename the temp over the empty
            // placeholder.
            WriteStep.take(.create)
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, newFileMode())
            if fd < 0 {
                if errno == EEXIST {
                    attempt += 1
                    continue
                }
                throw .writeFailed(path: path, reason: lastError())
            }
            close(fd)
            WriteStep.take(.rename)
            guard rename(temp.path, path) == 0 else {
                let reason = lastError()
                WriteStep.take(.remove)
                unlink(path)
                throw .writeFailed(path: path, reason: reason)
            }
            syncDirectory(of: path)
            return attempt
        }
    }

    /// The start of every temp file's name; the full name is `.notes-tmp-<pid>-XXXXXX`.
    static let tempPrefix = ".notes-tmp-"

    /// Writes `bytes` to a new temp file beside `path`, registered so a signal removes it; errors
    /// name `path`, the file the temp is for. Stale temps of dead processes in that folder are
    /// swept first.
    static func writeTemp(
        _ bytes: [UInt8], beside path: String, mode: mode_t
    ) throws(VaultError) -> TemporaryFiles.Entry {
        try writeTemp(beside: path, mode: mode) { emit in bytes.withUnsafeBytes(emit) }
    }

    /// `writeTemp` of the chunks `produce` hands to its argument.
    static func writeTemp(
        beside path: String, mode: mode_t, _ produce: ((UnsafeRawBufferPointer) -> Void) -> Void
    ) throws(VaultError) -> TemporaryFiles.Entry {
        let file = try PendingFile(beside: path)
        produce(file.append)
        return try file.close(mode: mode)
    }

    /// Removes a temp that will not be renamed into place, and unregisters it.
    static func discard(_ temp: TemporaryFiles.Entry) {
        WriteStep.take(.remove)
        unlink(temp.path)
        forget(temp)
    }

    /// Unregisters a temp that was renamed into place (or removed).
    static func forget(_ temp: TemporaryFiles.Entry) {
        if let slot = temp.slot { TemporaryFiles.shared.release(slot) }
    }

    /// Removes from `directory` the temp files (`.notes-tmp-<pid>-XXXXXX`) of processes that no
    /// longer exist: left by a crash, a power cut or SIGKILL. A temp whose process is alive is
    /// never touched, even another user's (`kill` says EPERM, not ESRCH). Temps without a pid
    /// (older versions) are left alone, since nothing tells whose they are. One `readdir` of the
    /// folder, no more.
    public static func sweepStaleTemps(in directory: String) {
        guard let dir = opendir(directory) else { return }
        defer { closedir(dir) }
        let prefixLength = tempPrefix.utf8.count
        var stale: [String] = []
        while let entry = readdir(dir) {
            let size = MemoryLayout.size(ofValue: entry.pointee.d_name)
            let name = withUnsafePointer(to: entry.pointee.d_name) { ptr in
                ptr.withMemoryRebound(to: CChar.self, capacity: size) {
                    // Most names are not temps: compare bytes before making a String.
                    strncmp($0, tempPrefix, prefixLength) == 0 ? String(cString: $0) : nil
                }
            }
            guard let name, let pid = tempOwner(name) else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { stale.append(name) }
        }
        for name in stale where status(directory + "/" + name)?.kind == .regular {
            WriteStep.take(.remove)
            unlink(directory + "/" + name)
        }
    }

    /// The pid in a temp's name `.notes-tmp-<pid>-XXXXXX`; nil for any other name.
    static func tempOwner(_ name: String) -> pid_t? {
        guard name.hasPrefix(tempPrefix) else { return nil }
        let rest = name.utf8.dropFirst(tempPrefix.utf8.count)
        guard let dash = rest.firstIndex(of: UInt8(ascii: "-")), rest.distance(from: dash, to: rest.endIndex) == 7
        else { return nil }
        let digits = rest[..<dash]
        guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              let pid = pid_t(String(decoding: digits, as: UTF8.self)), pid > 0 else { return nil }
        return pid
    }

    /// Test seam, documented here because nothing else reads it: with
    /// `NOTES_TEST_PAUSE_BEFORE_RENAME` set, the process stops itself (SIGSTOP) after a temp file
    /// is written and before it is put in place, so an end-to-end test can signal it at exactly
    /// that moment. Unset, it costs one `getenv`.
    static func pauseIfTesting() {
        if getenv("NOTES_TEST_PAUSE_BEFORE_RENAME") != nil { raise(SIGSTOP) }
    }

    static func syncDirectory(of path: String) {
        let directory = (path as NSString).deletingLastPathComponent
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

    /// Maps a whole regular file read-only (not following a final symlink), and returns the mapping
    /// and the open descriptor (for `pread`; the caller closes it); nil when it cannot. Only for
    /// files that are replaced by rename, never rewritten in place (the index).
    public static func map(_ path: String) -> (bytes: UnsafeRawBufferPointer, fd: Int32)? {
        // Non-blocking: an index replaced by a FIFO must not wait for a writer (it is refused below).
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        var st = stat()
        guard fstat(fd, &st) == 0, makeStatus(st).kind == .regular, st.st_size > 0,
              let base = mmap(nil, Int(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED
        else {
            close(fd)
            return nil
        }
        return (UnsafeRawBufferPointer(start: base, count: Int(st.st_size)), fd)
    }

    /// Unmaps what `map` mapped.
    public static func unmap(_ buffer: UnsafeRawBufferPointer) {
        if let base = buffer.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), buffer.count) }
    }

    /// Creates a new private (0700) directory from a `mkdtemp` template ending in `XXXXXX`.
    public static func makeTemporaryDirectory(_ template: String) throws(VaultError) -> String {
        var buffer = Array(template.utf8CString)
        WriteStep.take(.create)
        let made = buffer.withUnsafeMutableBufferPointer { $0.baseAddress.map { mkdtemp($0) } ?? nil }
        guard made != nil else { throw .io(path: template, reason: lastError()) }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Creates a directory and its parents; succeeds when it already exists.
    /// With `mkdir(2)` rather than FileManager, so a failure reads "Permission denied", not
    /// "The operation could not be completed. You don’t have permission."; the umask applies.
    public static func makeDirectory(_ path: String) throws(VaultError) {
        var st = stat()
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            // Only a missing folder is a step (`mkdir` of an existing one changes nothing).
            if stat(prefix, &st) == 0 { continue }
            WriteStep.take(.create)
            guard mkdir(prefix, 0o777) == 0 || errno == EEXIST else {
                throw .io(path: path, reason: lastError())
            }
        }
        guard stat(path, &st) == 0, st.st_mode & S_IFMT == S_IFDIR else {
            throw .io(path: path, reason: "a file is in the way of this folder")
        }
    }


    /// Removes a file or a whole directory tree (without following symlinks), one `unlink` or
    /// `rmdir` at a time (each a step of the crash seam).
    public static func remove(_ path: String) throws(VaultError) {
        var st = stat()
        guard lstat(path, &st) == 0 else { throw .io(path: path, reason: lastError()) }
        if st.st_mode & S_IFMT == S_IFDIR {
            guard let names = entries(path) else { throw .io(path: path, reason: lastError()) }
            for (name, _) in names { try remove(path + "/" + name) }
            WriteStep.take(.remove)
            guard rmdir(path) == 0 else { throw .io(path: path, reason: lastError()) }
        } else {
            WriteStep.take(.remove)
            guard unlink(path) == 0 else { throw .io(path: path, reason: lastError()) }
        }
    }

    /// Removes a file or a folder tree so that, to anyone looking, it goes in one step: it is renamed
    /// to a hidden temp name beside it (`.notes-tmp-<pid>-XXXXXX`, its contents going with it), then
    /// removed. A crash between the two leaves only that hidden name, for a sweep to remove (the
    /// trash's sweeps folders; `sweepStaleTemps` only files).
    public static func removeAtOnce(_ path: String) throws(VaultError) {
        let parent = (path as NSString).deletingLastPathComponent
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var attempt = 0
        while true {
            let name = String((0..<6).map { _ in letters[Int.random(in: 0..<letters.count)] })
            let hidden = (parent.isEmpty ? "." : parent) + "/" + tempPrefix + "\(getpid())-" + name
            switch renameExclusively(path, hidden) {
            case 0:
                syncDirectory(of: path)
                try? remove(hidden)
                return
            case let failure where (failure == EEXIST || failure == ENOTEMPTY) && attempt < 8:
                attempt += 1
            case let failure:
                throw .io(path: path, reason: String(cString: strerror(failure)))
            }
        }
    }

    /// The entries of a directory: (name, kind) where kind comes from `d_type` or `lstat`.
    public static func entries(_ directory: String) -> [(name: String, kind: FileStatus.Kind)]? {
        guard let dir = opendir(directory) else { return nil }
        defer { closedir(dir) }
        var result: [(String, FileStatus.Kind)] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { ptr in
                ptr.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: entry.pointee.d_name)) {
                    String(cString: $0)
                }
            }
            if name == "." || name == ".." { continue }
            let kind: FileStatus.Kind
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_REG): kind = .regular
            case Int32(DT_DIR): kind = .directory
            case Int32(DT_LNK): kind = .symlink
            case Int32(DT_UNKNOWN): kind = status(directory + "/" + name)?.kind ?? .other
            default: kind = .other
            }
            result.append((name, kind))
        }
        return result
    }

    /// The status of each of `names` in `directory` (nil where it is gone), never following a
    /// symlink: one `fstatat` per name on the open folder, so the kernel does not walk the whole
    /// path each time, spread over all cores when there are many.
    public static func statuses(of names: [String], in directory: String) -> [FileStatus?] {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return names.map { status(directory + "/" + $0) } }
        defer { close(fd) }
        return Parallel.map(count: names.count, chunk: 512) { i, _ in
            var st = stat()
            guard fstatat(fd, names[i], &st, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
            return makeStatus(st)
        }
    }

    /// The canonical absolute form of an existing path (symlinks resolved).
    public static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether a file descriptor is a terminal.
    public static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    static func lastError() -> String { String(cString: strerror(errno)) }
}

/// Unqualified libc calls that would otherwise be shadowed by the module's own names.
enum Glue {
    static func read(_ fd: Int32, _ buf: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if canImport(Darwin)
        Darwin.read(fd, buf, count)
        #else
        Glibc.read(fd, buf, count)
        #endif
    }

    static func close(_ fd: Int32) -> Int32 {
        #if canImport(Darwin)
        Darwin.close(fd)
        #else
        Glibc.close(fd)
        #endif
    }

    static func write(_ fd: Int32, _ buf: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Darwin)
        Darwin.write(fd, buf, count)
        #else
        Glibc.write(fd, buf, count)
        #endif
    }
}

/// A temp file beside `path`, written in pieces — appended, or at an offset — then closed (fsync)
/// and put in place, or removed. Registered so that a signal removes it; errors name `path`, the
/// file the temp is for, and the first write error is kept for `close`. Not for use from two
/// threads at once.
final class PendingFile: @unchecked Sendable {
    /// The file this temp will become.
    let path: String
    private let temp: TemporaryFiles.Entry
    private let fd: Int32
    private var failure: Int32 = 0
    private var closed = false
    /// Small pieces (one note's folded text) are gathered into writes of about a megabyte.
    private var buffer: [UInt8] = []
    private static let bufferSize = 1 << 20
    /// How many bytes were appended.
    private(set) var length = 0

    /// A new, empty temp beside `path`; stale temps of dead processes in that folder are swept
    /// first, unless the caller has (`sweep` false: many files of one folder).
    init(beside path: String, sweep: Bool = true) throws(VaultError) {
        self.path = path
        let parent = (path as NSString).deletingLastPathComponent
        let directory = parent.isEmpty ? "." : parent
        if sweep { FileSystem.sweepStaleTemps(in: directory) }
        WriteStep.take(.create)
        // A short fixed name, so a long note name never makes the temp name too long; the pid
        // says whose it is, so a sweep never takes the temp of a process still writing it.
        switch TemporaryFiles.shared.makeTemp(directory + "/" + FileSystem.tempPrefix + "\(getpid())-XXXXXX") {
        case .success(let made): (fd, temp) = made
        case .failure(let error): throw .writeFailed(path: path, reason: error.description)
        }
    }

    deinit {
        if !closed {
            _ = Glue.close(fd)
            FileSystem.discard(temp)
        }
    }

    /// Appends `chunk`.
    func append(_ chunk: UnsafeRawBufferPointer) {
        if buffer.count + chunk.count > Self.bufferSize { flush() }
        length += chunk.count
        if chunk.count >= Self.bufferSize {
            writeAll(chunk, at: length - chunk.count)
        } else {
            if buffer.capacity == 0 { buffer.reserveCapacity(Self.bufferSize) }
            buffer.append(contentsOf: chunk)
        }
    }

    /// Writes out what `append` gathered.
    private func flush() {
        let start = length - buffer.count
        buffer.withUnsafeBytes { writeAll($0, at: start) }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes `chunk` at `offset` (a placeholder filled in at the end, say), after what `append`
    /// gathered, so that it is not written over.
    func write(_ chunk: UnsafeRawBufferPointer, at offset: Int) {
        flush()
        writeAll(chunk, at: offset)
    }

    private func writeAll(_ chunk: UnsafeRawBufferPointer, at offset: Int) {
        var done = 0
        while failure == 0 && done < chunk.count {
            guard WriteStep.mayWrite() else {
                failure = errno
                break
            }
            let n = pwrite(fd, chunk.baseAddress.map { $0 + done }, chunk.count - done, off_t(offset + done))
            if n < 0 {
                if errno == EINTR { continue }
                failure = errno
                break
            }
            done += n
        }
    }

    /// Starts writing what is written so far to the disk, without waiting, so that `close` has
    /// less to wait for (Linux; elsewhere `close` does it all).
    func startWriteback() {
        flush()
        #if os(Linux)
        _ = PendingFile.syncFileRange?(fd, 0, 0, 2)  // SYNC_FILE_RANGE_WRITE
        #endif
    }

    #if os(Linux)
    /// glibc's `sync_file_range`, which its headers declare only under `_GNU_SOURCE`.
    private static let syncFileRange: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32)? = {
        guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "sync_file_range") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32).self)
    }()
    #endif

    /// Gives the file `mode`, writes it to the disk and closes it; the temp is returned for the
    /// caller to put in place (or remove). Throws, naming `path`, when any write failed.
    func close(mode: mode_t) throws(VaultError) -> TemporaryFiles.Entry {
        flush()
        closed = true
        WriteStep.take(.sync)
        if failure == 0 && (fchmod(fd, mode) != 0 || fsync(fd) != 0) { failure = errno }
        if Glue.close(fd) != 0 && failure == 0 { failure = errno }
        guard failure == 0 else {
            FileSystem.discard(temp)
            throw .writeFailed(path: path, reason: String(cString: strerror(failure)))
        }
        return temp
    }

    /// Closes the file (see `close`) and renames it over `path`: a crash leaves the old file or
    /// the new one, never a torn one.
    func commit(mode: mode_t) throws(VaultError) {
        let temp = try close(mode: mode)
        FileSystem.pauseIfTesting()
        WriteStep.take(.rename)
        guard rename(temp.path, path) == 0 else {
            let reason = FileSystem.lastError()
            FileSystem.discard(temp)
            throw .writeFailed(path: path, reason: reason)
        }
        FileSystem.forget(temp)
        FileSystem.syncDirectory(of: path)
    }
}
