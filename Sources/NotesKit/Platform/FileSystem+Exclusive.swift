import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

extension FileSystem {
    /// Moves a file (or folder) to a new name that must be free, so that a file appearing at the new
    /// name meanwhile is never replaced (`rename` would). The folders are synced.
    public static func moveExclusively(_ from: String, to: String) throws(FileSystemError) {
        switch renameExclusively(from, to) {
        case 0: break
        case EEXIST: throw .io(path: to, reason: "a file is already there")
        case let failure: throw .io(path: from, reason: String(cString: strerror(failure)))
        }
        syncDirectory(of: to)
        syncDirectory(of: from)
    }

    /// Renames `from` to `to` where the two are one file, on a file system that ignores case
    /// (`plan.md` to `Plan.md`): through a name of its own beside it with the same extension
    /// (`plan.notes-renaming-<pid>.md`: a crash between the steps leaves a note the user sees and
    /// every command lists), each step exclusive, since a rename to a name the file already has
    /// may do nothing there. Back to `from` when the second step fails.
    public static func renameCase(_ from: String, to: String) throws(FileSystemError) {
        let name = from.split(separator: "/").last.map(String.init) ?? from
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let ext = dot.map { String(name[$0...]) } ?? ""
        let between = String(from.dropLast(ext.count)) + ".notes-renaming-\(getpid())" + ext
        let failure = renameExclusively(from, between)
        guard failure == 0 else { throw .io(path: from, reason: String(cString: strerror(failure))) }
        let second = renameExclusively(between, to)
        guard second == 0 else {
            _ = renameExclusively(between, from)
            throw .io(path: to, reason: String(cString: strerror(second)))
        }
        syncDirectory(of: to)
    }

    /// Renames `from` to `to` unless something is at `to`, in one step of the file system
    /// (`renameat2` with RENAME_NOREPLACE, `renamex_np` with RENAME_EXCL): at every moment the file
    /// has one of its two names, never both, never neither, so a crash cannot leave two copies.
    /// Where the file system cannot do that, a hard link then an unlink of the old name (both names
    /// for a moment), and where it has no hard links either, `rename` once `to` is seen free.
    /// Returns 0, or the `errno` of the failure: EEXIST when `to` is taken. Folders are not synced.
    static func renameExclusively(_ from: String, _ to: String) -> Int32 {
        let failure = renameNoReplace(from, to)
        guard cannotRenameExclusively(failure) else { return failure }
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
        guard linkFailure == EPERM || linkFailure == EOPNOTSUPP || linkFailure == ENOSYS else {
            return linkFailure
        }
        if status(to) != nil { return EEXIST }
        return rename(from, to) == 0 ? 0 : errno
    }

    /// One step of `rename` that fails with EEXIST rather than replace what is at `to`: 0, or the
    /// `errno` of the failure (see `cannotRenameExclusively`).
    private static func renameNoReplace(_ from: String, _ to: String) -> Int32 {
        WriteStep.take(.rename)
        #if canImport(Darwin)
            if renamex_np(from, to, UInt32(RENAME_EXCL)) == 0 { return 0 }
        #else
            guard let renameat2 else { return ENOSYS }
            if renameat2(AT_FDCWD, from, AT_FDCWD, to, 1) == 0 { return 0 }  // RENAME_NOREPLACE
        #endif
        return errno
    }

    /// Whether `renameNoReplace` failed because the file system cannot rename without replacing.
    private static func cannotRenameExclusively(_ failure: Int32) -> Bool {
        failure == EINVAL || failure == ENOSYS || failure == ENOTSUP || failure == EOPNOTSUPP
    }

    #if os(Linux)
        /// glibc's `renameat2` (2.28 and later), which its headers declare only under `_GNU_SOURCE`.
        private static let renameat2 = LibC.function(
            "renameat2",
            as: (@convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32)
                .self)
    #endif

    /// Creates the first free one of the files `candidate(1)`, `candidate(2)`, … (all in one
    /// folder) holding `bytes`, and returns the number of the one it created. The bytes are
    /// written once to a temp file, then hard-linked into place: the file appears whole, and two
    /// processes never overwrite each other. An error names the file being created. Past
    /// `attempts` files taken, it fails with EEXIST.
    public static func createExclusively(
        _ bytes: [UInt8], attempts: Int = .max, firstFreeOf candidate: (Int) -> String
    ) throws(FileSystemError) -> Int {
        var attempt = 1
        // The name that is free now is the one being written, so it is the one an error names.
        while status(candidate(attempt)) != nil {
            guard attempt < attempts else {
                throw .writeFailed(path: candidate(attempt), reason: String(cString: strerror(EEXIST)))
            }
            attempt += 1
        }
        guard let made = try createFirstFree(bytes, from: attempt, through: attempts, candidate) else {
            throw .writeFailed(path: candidate(attempts), reason: String(cString: strerror(EEXIST)))
        }
        return made
    }

    /// Creates the file at `path` holding `bytes` unless something is there already (then returns
    /// false and writes nothing), the same way: whole, and never over another writer's file.
    public static func createExclusively(_ bytes: [UInt8], at path: String) throws(FileSystemError) -> Bool {
        guard status(path) == nil else { return false }
        return try createFirstFree(bytes, from: 1, through: 1) { _ in path } != nil
    }

    /// Creates the first free one of `candidate(first)` … `candidate(last)` as
    /// `createExclusively(_:firstFreeOf:)` does; nil when all were taken.
    private static func createFirstFree(
        _ bytes: [UInt8], from first: Int, through last: Int, _ candidate: (Int) -> String
    ) throws(FileSystemError) -> Int? {
        let temp = try writeTemp(bytes, beside: candidate(first), mode: newFileMode())
        defer { discard(temp) }
        pauseIfTesting()
        return try place(temp, from: first, through: last, candidate, sync: true)
    }

    /// Puts temp `i` of `prepared` (written beside `candidate(first)`) in place under the first
    /// free one of `candidate(first)` … `candidate(last)`, renamed there in one step that replaces
    /// nothing (`renameat2`'s RENAME_NOREPLACE, `renamex_np`'s RENAME_EXCL): the file appears whole,
    /// under one name, never over another writer's file. No name is looked at first: a taken one
    /// fails the rename, and the next is tried. Where the file system cannot rename so, the temp is
    /// linked as `createExclusively(_:firstFreeOf:)` does. The temp is used up either way (in
    /// place, or removed); the folder is not synced. Returns the number of the name it got; nil
    /// when all were taken.
    static func placeExclusively(
        _ prepared: PreparedBatch, _ i: Int, from first: Int, through last: Int, _ candidate: (Int) -> String
    ) throws(FileSystemError) -> Int? {
        let temp: TemporaryFiles.Entry
        switch prepared.temps[i] {
        case .failure(let error): throw error
        case .success(let written): temp = written
        }
        var attempt = first
        while true {
            let path = candidate(attempt)
            switch renameNoReplace(temp.path, path) {
            case 0:
                forget(temp)
                return attempt
            case EEXIST:
                guard attempt < last else {
                    discard(temp)
                    return nil
                }
                attempt += 1
            case let failure where cannotRenameExclusively(failure):
                defer { discard(temp) }
                return try place(temp, from: attempt, through: last, candidate, sync: false)
            case let failure:
                discard(temp)
                throw .writeFailed(path: path, reason: String(cString: strerror(failure)))
            }
        }
    }

    /// Links (or, without hard links, renames) a written temp into the first free one of
    /// `candidate(first)` … `candidate(last)`; nil when all were taken. With `sync`, the folder is
    /// synced after. The temp stays for the caller to discard (after a rename it is gone already).
    private static func place(
        _ temp: TemporaryFiles.Entry, from first: Int, through last: Int, _ candidate: (Int) -> String,
        sync: Bool
    ) throws(FileSystemError) -> Int? {
        var attempt = first
        while true {
            let path = candidate(attempt)
            WriteStep.take(.link)
            if link(temp.path, path) == 0 {
                if sync { syncDirectory(of: path) }
                return attempt
            }
            let failure = errno
            if failure == EEXIST {
                guard attempt < last else { return nil }
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
                    guard attempt < last else { return nil }
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
            if sync { syncDirectory(of: path) }
            return attempt
        }
    }
}
