import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

extension FileSystem {
    /// Creates a new private (0700) directory from a `mkdtemp` template ending in `XXXXXX`.
    public static func makeTemporaryDirectory(_ template: String) throws(FileSystemError) -> String {
        var buffer = Array(template.utf8CString)
        WriteStep.take(.create)
        let made = buffer.withUnsafeMutableBufferPointer { $0.baseAddress.map { mkdtemp($0) } ?? nil }
        guard made != nil else { throw .io(path: template, reason: lastError()) }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Creates a directory and its parents; succeeds when it already exists.
    /// With `mkdir(2)` rather than FileManager, so a failure reads "Permission denied", not
    /// "The operation could not be completed. You don’t have permission."; the umask applies.
    public static func makeDirectory(_ path: String) throws(FileSystemError) {
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
    public static func remove(_ path: String) throws(FileSystemError) {
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
    public static func removeAtOnce(_ path: String) throws(FileSystemError) {
        let parent = FileSystem.parentFolder(of: path)
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
                ptr.withMemoryRebound(
                    to: CChar.self, capacity: MemoryLayout.size(ofValue: entry.pointee.d_name)
                ) {
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
        return Parallel.map(count: names.count, chunk: 512) { i in
            var st = stat()
            guard fstatat(fd, names[i], &st, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
            return makeStatus(st)
        }
    }
}
