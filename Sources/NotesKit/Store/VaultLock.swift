import Foundation

/// `<state folder>/lock` (SPEC §3, §8): an advisory `flock` that writers of a vault's state (the
/// index, the trash, rewrites of notes) hold. The kernel drops it when the process ends however it
/// ends, so a lock left by a killed process never blocks anyone.
///
/// A `flock` belongs to one open of the file: a second `VaultLock` on the same file in the same
/// process waits for the first, as another process's would — unless the first was taken
/// `nestable`, and the second is taken on the same thread while it is held (a writer that
/// refreshes the index, whose own take of the lock must then not wait for itself).
public final class VaultLock {
    private let path: String
    private var fd: Int32 = -1
    /// Whether this hold is counted in `holdings` (taken nestable, or nested in such a one).
    private var shared = false

    /// Takes the lock at `path` (making its folder and file when missing). With `wait` false it
    /// gives up, returning nil, when another process still holds it after a moment (about 20 ms:
    /// a process starting another program holds a copy of every descriptor until the program
    /// starts, so a lock just released can look taken for that long).
    public init?(path: String, wait: Bool, nestable: Bool = false) throws(VaultError) {
        self.path = path
        if VaultLock.holdings.rejoin(path) {
            shared = true
            return
        }
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if !folder.isEmpty { try FileSystem.makeDirectory(folder) }
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, FileSystem.newFileMode(within: 0o600))
        guard fd >= 0 else { throw .writeFailed(path: path, reason: FileSystem.lastError()) }
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
            if code == EWOULDBLOCK && !wait { return nil }
            throw .writeFailed(path: path, reason: reason)
        }
        if nestable {
            VaultLock.holdings.add(path, fd: fd)
            shared = true
        } else {
            self.fd = fd
        }
    }

    /// Releases the lock (also done when the process ends). A nestable lock is released when it
    /// and every take nested in it are.
    public func release() {
        if shared {
            shared = false
            VaultLock.holdings.leave(path)
        } else if fd >= 0 {
            close(fd)
            fd = -1
        }
    }

    deinit { release() }

    /// The nestable locks this process holds: by path, the open file, the thread, how many takes.
    private static let holdings = Holdings()

    private final class Holdings: @unchecked Sendable {
        private struct Holding {
            var fd: Int32
            var thread: pthread_t
            var count: Int
        }

        private let mutex = NSLock()
        private var byPath: [String: Holding] = [:]

        /// Counts one more take when this thread holds the lock at `path` nestable.
        func rejoin(_ path: String) -> Bool {
            mutex.lock()
            defer { mutex.unlock() }
            guard var holding = byPath[path], pthread_equal(holding.thread, pthread_self()) != 0 else { return false }
            holding.count += 1
            byPath[path] = holding
            return true
        }

        func add(_ path: String, fd: Int32) {
            mutex.lock()
            defer { mutex.unlock() }
            byPath[path] = Holding(fd: fd, thread: pthread_self(), count: 1)
        }

        /// Counts one take less; the last closes the file, which releases the lock.
        func leave(_ path: String) {
            mutex.lock()
            defer { mutex.unlock() }
            guard var holding = byPath[path] else { return }
            holding.count -= 1
            if holding.count > 0 {
                byPath[path] = holding
            } else {
                byPath[path] = nil
                close(holding.fd)
            }
        }
    }
}
