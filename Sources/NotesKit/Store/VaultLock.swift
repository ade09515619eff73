import Foundation

/// `<state folder>/lock`: an advisory `flock` that writers of a vault's state (the
/// index, the trash, rewrites of notes) hold. The kernel drops it when the process ends however it
/// ends, so a lock left by a killed process never blocks anyone.
public final class VaultLock {
    private var fd: Int32
    private let path: String

    /// The lock files this process holds. `flock` locks belong to each open file, so taking a lock
    /// this process already holds would wait on itself: without waiting, such a lock is busy at
    /// once.
    private static let held = HeldPaths()

    private final class HeldPaths: @unchecked Sendable {
        private let lock = NSLock()
        private var paths: [String: Int] = [:]
        func add(_ path: String) { lock.withLock { paths[path, default: 0] += 1 } }
        func remove(_ path: String) {
            lock.withLock {
                paths[path, default: 1] -= 1
                if paths[path] == 0 { paths[path] = nil }
            }
        }
        func contains(_ path: String) -> Bool { lock.withLock { paths[path] != nil } }
    }

    /// Whether this process holds the lock at `path`.
    public static func isHeld(_ path: String) -> Bool { held.contains(path) }

    /// Takes the lock at `path` (making its folder and file when missing) of the vault at `root`,
    /// which must still be there (`Vault.checkStillThere`). With `wait` false it
    /// gives up, returning nil, when another process still holds it after a moment (about 20 ms:
    /// a process starting another program holds a copy of every descriptor until the program
    /// starts, so a lock just released can look taken for that long), and at once when this
    /// process holds it.
    public init?(path: String, wait: Bool, vault root: String) throws(VaultError) {
        self.path = path
        fd = -1
        if !wait && VaultLock.held.contains(path) { return nil }
        try Vault.checkStillThere(root)
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if !folder.isEmpty { try VaultError.mapping(FileSystem.makeDirectory(folder)) }
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, FileSystem.newFileMode(within: 0o600))
        // `flock` needs no write access: a lock file that is there but cannot be written (a vault
        // on a read-only disk, or not ours to write) still locks, and the write the lock is for
        // fails naming its own file.
        let failure = errno
        if fd < 0 && (failure == EROFS || failure == EACCES) {
            fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        }
        guard fd >= 0 else { throw .writeFailed(path: path, reason: String(cString: strerror(failure))) }
        var tries = 0
        while flock(fd, LOCK_EX | (wait ? 0 : LOCK_NB)) != 0 {
            let code = errno
            if code == EINTR { continue }
            if code == EWOULDBLOCK && !wait && tries < 20 {
                tries += 1
                usleep(1000)
                continue
            }
            let reason = FileSystem.lastError()
            close(fd)
            fd = -1
            if code == EWOULDBLOCK && !wait { return nil }
            throw .writeFailed(path: path, reason: reason)
        }
        VaultLock.held.add(path)
    }

    /// Releases the lock (also done when the process ends).
    public func release() {
        guard fd >= 0 else { return }
        close(fd)
        fd = -1
        VaultLock.held.remove(path)
    }

    deinit { release() }
}
