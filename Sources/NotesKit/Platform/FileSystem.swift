import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

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
/// follow symlinks; one file per concern beside this one (`FileSystem+Reading.swift`, …). All
/// platform `#if`s of the library live in `Platform/`.
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
            kind: kind, size: Int64(st.st_size), mtime: mtime, inode: UInt64(st.st_ino),
            mode: st.st_mode & 0o7777)
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

    /// The canonical absolute form of an existing path (symlinks resolved).
    public static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func lastError() -> String { String(cString: strerror(errno)) }
}
