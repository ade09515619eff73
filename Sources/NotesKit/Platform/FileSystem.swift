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
    /// Modification time in nanoseconds since 1970, exact (a `Double` of seconds is off by a few
    /// hundred nanoseconds at today's dates, too coarse to order notes written in one second or to
    /// tell two writes apart). A time beyond the years 1678–2262 is held at the nearest end.
    public var mtime: Int64
    /// The modification time in seconds since 1970, for dates (a note's creation fallback).
    public var mtimeSeconds: Double { Double(mtime) * 1e-9 }
    /// The inode number.
    public var inode: UInt64
    /// The status-change time in nanoseconds since 1970: set to now by every write, rename and
    /// change of mode, and by nothing a user can set back (`touch`, `cp -p` and `rsync -a` keep a
    /// modification time, never this), so it tells a rewrite that kept size and mtime (git's
    /// index compares it too). 0 where unknown.
    public var ctime: Int64 = 0
    /// The permission bits (`st_mode & 0o7777`).
    public var mode: mode_t
}

/// Thin POSIX file operations: reads, atomic and exclusive writes, a directory walk that does not
/// follow symlinks; one file per concern beside this one (`FileSystem+Reading.swift`, …). All
/// platform `#if`s of the library live in `Platform/`.
public enum FileSystem {
    /// The folder `path` is in, as `(path as NSString).deletingLastPathComponent` gives it
    /// (`/a/b` → `/a`, `/a` → `/`, `a/b/` → `a`, doubled slashes as one), by bytes: without bridging
    /// to `NSString` (an import asks this of every file it writes), and without the crash of the
    /// toolchain's Foundation (a trap) on a path that is one relative name of one character (`a`,
    /// `x/`, `.`: an attachment named `1`), which is `""` here as on Apple's systems. `//` is `/`
    /// (that Foundation says `""`).
    public static func parentFolder(of path: String) -> String {
        var path = path
        return path.withUTF8 { b -> String in
            var end = b.count
            while end > 1 && b[end - 1] == 0x2F { end -= 1 }
            guard end > 0 else { return "" }
            // The last slash before the last name, and the end of the run of slashes it ends.
            var slash = end - 1
            while slash >= 0 && b[slash] != 0x2F { slash -= 1 }
            guard slash >= 0 else { return "" }
            var cut = slash
            while cut > 0 && b[cut - 1] == 0x2F { cut -= 1 }
            guard cut > 0 else { return "/" }
            var out: [UInt8] = []
            out.reserveCapacity(cut)
            var previousSlash = false
            for byte in b[..<cut] {
                if byte == 0x2F && previousSlash { continue }
                previousSlash = byte == 0x2F
                out.append(byte)
            }
            return String(decoding: out, as: UTF8.self)
        }
    }

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
            let mtime = nanoseconds(Int64(st.st_mtimespec.tv_sec), Int64(st.st_mtimespec.tv_nsec))
            let ctime = nanoseconds(Int64(st.st_ctimespec.tv_sec), Int64(st.st_ctimespec.tv_nsec))
        #else
            let mtime = nanoseconds(Int64(st.st_mtim.tv_sec), Int64(st.st_mtim.tv_nsec))
            let ctime = nanoseconds(Int64(st.st_ctim.tv_sec), Int64(st.st_ctim.tv_nsec))
        #endif
        return FileStatus(
            kind: kind, size: Int64(st.st_size), mtime: mtime, inode: UInt64(st.st_ino), ctime: ctime,
            mode: st.st_mode & 0o7777)
    }

    /// `seconds` and `nanoseconds` as one count of nanoseconds, held at `Int64`'s ends.
    static func nanoseconds(_ seconds: Int64, _ nanoseconds: Int64) -> Int64 {
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return seconds < 0 ? .min : .max }
        let (sum, overflowed) = scaled.addingReportingOverflow(nanoseconds)
        return overflowed ? (nanoseconds < 0 ? .min : .max) : sum
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
