import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// Everything under a folder that a user could see changed — each file's size, mode, inode and
/// modification time (an atomic replace makes a new inode, a write in place a new time) and, up
/// to 1 MB, a hash of its bytes; each folder (and, with `folderTimes`, its modification time: a
/// file made and removed again) and symlink (its target) — except what is skipped (by default the
/// tool's own state, `.notes/`). Read with raw system calls relative to each folder (so paths
/// longer than PATH_MAX and 100,000 files are fine), never following a link, for tests that check
/// that something changed nothing. The one tree snapshot of the tests.
public struct TreeSnapshot: Equatable, CustomStringConvertible {
    /// Relative path (bytes) to what is there.
    public private(set) var entries: [[UInt8]: String] = [:]
    /// Files up to this size have their bytes hashed.
    private let hashedSize: Int
    private let folderTimes: Bool

    /// The snapshot of `root`, without the relative paths in `skipped` (and what is under them) and
    /// those `skip` says to leave out.
    public init(
        _ root: String, skipping skipped: Set<String> = [".notes"], where skip: ((String) -> Bool)? = nil,
        hashingUpTo hashedSize: Int = 1 << 20, folderTimes: Bool = false
    ) {
        self.hashedSize = hashedSize
        self.folderTimes = folderTimes
        let fd = open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW)
        guard fd >= 0 else { return }
        walk(fd, prefix: [], skip: { skipped.contains($0) || skip?($0) == true })
    }

    /// The relative paths of the regular files, sorted.
    public var files: [String] {
        entries.filter { $0.value.hasPrefix("file ") }.keys.map { String(decoding: $0, as: UTF8.self) }
            .sorted()
    }

    public var description: String { "\(entries.count) entries" }

    /// The entries that differ from `other`'s, for a failure message.
    public func difference(from other: TreeSnapshot) -> [String] {
        Set(entries.keys).union(other.entries.keys).filter { entries[$0] != other.entries[$0] }.prefix(10).map
        {
            String(decoding: $0, as: UTF8.self) + ": " + (other.entries[$0] ?? "none") + " → "
                + (entries[$0] ?? "none")
        }
    }

    /// Walks the folder open as `fd` (and closes it).
    private mutating func walk(_ fd: Int32, prefix: [UInt8], skip: (String) -> Bool) {
        guard let dir = fdopendir(fd) else {
            close(fd)
            return
        }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw.prefix { $0 != 0 })
            }
            if name == Array(".".utf8) || name == Array("..".utf8) { continue }
            let path = prefix.isEmpty ? name : prefix + [UInt8(ascii: "/")] + name
            if skip(String(decoding: path, as: UTF8.self)) { continue }
            var st = stat()
            let cName = name.map { CChar(bitPattern: $0) } + [0]
            guard fstatat(fd, cName, &st, AT_SYMLINK_NOFOLLOW) == 0 else {
                entries[path] = "vanished"
                continue
            }
            let mode = String(st.st_mode & 0o7777, radix: 8)
            switch st.st_mode & S_IFMT {
            case S_IFDIR:
                entries[path] = "folder \(mode)" + (folderTimes ? " " + Self.time(st) : "")
                let child = openat(fd, cName, O_RDONLY | O_DIRECTORY | O_NOFOLLOW)
                if child >= 0 { walk(child, prefix: path, skip: skip) }
            case S_IFLNK:
                var target = [CChar](repeating: 0, count: 4097)
                let n = readlinkat(fd, cName, &target, 4096)
                entries[path] =
                    "link "
                    + String(decoding: target.prefix(max(0, n)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            case S_IFREG:
                let hash = st.st_size <= hashedSize ? Self.hash(fd, cName) : "-"
                entries[path] = "file \(mode) \(st.st_size) \(st.st_ino) \(Self.time(st)) \(hash)"
            default:
                entries[path] = "other \(st.st_mode)"
            }
        }
    }

    /// A modification time to the nanosecond.
    private static func time(_ st: stat) -> String {
        #if canImport(Darwin)
            "\(st.st_mtimespec.tv_sec).\(st.st_mtimespec.tv_nsec)"
        #else
            "\(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec)"
        #endif
    }

    /// FNV-1a of a file's bytes.
    private static func hash(_ dirfd: Int32, _ name: [CChar]) -> String {
        let fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return "unreadable" }
        defer { close(fd) }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            for k in 0..<n { hash = (hash ^ UInt64(buffer[k])) &* 0x0000_0100_0000_01b3 }
        }
        return String(hash, radix: 16)
    }
}

/// Raw file making for tests that need more than `Sandbox.write` does quickly: many files, folders
/// deeper than PATH_MAX.
public enum RawFiles {
    /// Creates `name` in the folder open as `dirfd` holding `bytes`.
    @discardableResult
    public static func create(_ dirfd: Int32, _ name: String, _ bytes: [UInt8]) -> Bool {
        let fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == bytes.count
    }

    /// Removes the tree at `path` through descriptors, each step one name long, so folders nested
    /// past PATH_MAX go too (FileManager's removal stops at them). One descriptor is open at a time
    /// (a folder is reopened through its child's `..`), so a deep tree does not run into the limit
    /// on open files. Best effort: what cannot be removed stays.
    public static func removeTree(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW)
        guard fd >= 0 else {
            unlink(path)
            return
        }
        let emptied = empty(fd)
        if emptied >= 0 { close(emptied) }
        rmdir(path)
    }

    /// Removes everything in the folder open as `fd`, which it closes; the folder's descriptor
    /// again (-1 if it could not be reopened).
    private static func empty(_ fd: Int32) -> Int32 {
        var fd = fd
        let listing = dup(fd)
        guard listing >= 0, let dir = fdopendir(listing) else { return fd }
        // Names as bytes: a test's file name need not be UTF-8.
        var names: [[CChar]] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: &entry.pointee.d_name) { raw in
                raw.prefix { $0 != 0 }.map { CChar(bitPattern: $0) } + [0]
            }
            if name != [46, 0] && name != [46, 46, 0] { names.append(name) }
        }
        closedir(dir)
        for name in names where unlinkat(fd, name, 0) != 0 {
            let child = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW)
            guard child >= 0 else { continue }
            close(fd)
            let emptied = empty(child)
            guard emptied >= 0 else { return -1 }
            fd = openat(emptied, "..", O_RDONLY | O_DIRECTORY)
            close(emptied)
            guard fd >= 0 else { return -1 }
            unlinkat(fd, name, AT_REMOVEDIR)
        }
        return fd
    }

    /// Makes `depth` nested folders named `name` under `root` and returns the deepest, open.
    public static func nest(_ root: String, _ name: String, depth: Int) -> Int32 {
        var fd = open(root, O_RDONLY | O_DIRECTORY)
        for _ in 0..<depth {
            mkdirat(fd, name, 0o755)
            let child = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW)
            close(fd)
            fd = child
            if fd < 0 { break }
        }
        return fd
    }
}
