import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// Test seams of the file layer (listed in `Sources/README.md`): every step the library takes to
/// change a file — creating a file or folder, writing, syncing, renaming, linking, removing — first
/// passes through `WriteStep.take(_:)` (or `mayWrite()`, for a write of data), numbered from 1 in
/// the order the process takes them.
///
/// * `NOTES_TEST_CRASH_AT=N`: the process kills itself with SIGKILL just before its N-th step, so a
///   test can run a command with N = 1, 2, 3, … until it finishes, and see what every step leaves
///   behind when the process dies there.
/// * `NOTES_TEST_FULL_DISK_AT=N`: from the N-th step on, every write of data fails with ENOSPC, as
///   on a disk that has just filled up (a small tmpfs does the same: files and folders can still be
///   made, renamed and removed; their bytes cannot be written). It lets the full-disk tests run
///   without the root a tmpfs needs.
///
/// Both are read once; unset, a step costs a load and a compare.
enum WriteStep {
    /// What a step does to the disk.
    enum Kind {
        case create, write, sync, rename, link, remove
    }

    private static let crashAt = number("NOTES_TEST_CRASH_AT")
    private static let fullDiskAt = number("NOTES_TEST_FULL_DISK_AT")
    private static let active = crashAt > 0 || fullDiskAt > 0
    private static let counter = Counter()

    /// Takes a step that no seam makes fail (all but writes of data). Never returns at the step a
    /// crash was asked for.
    @inline(__always)
    static func take(_ kind: Kind) {
        if active { _ = seam(kind) }
    }

    /// Takes a step that writes data: false, with `errno` set, when the full-disk seam says the
    /// disk is full. Never returns at the step a crash was asked for.
    @inline(__always)
    static func mayWrite() -> Bool {
        guard active else { return true }
        return seam(.write)
    }

    private static func seam(_ kind: Kind) -> Bool {
        let n = counter.next()
        if n == crashAt { kill(getpid(), SIGKILL) }
        if fullDiskAt > 0 && n >= fullDiskAt && kind == .write {
            errno = ENOSPC
            return false
        }
        return true
    }

    private static func number(_ name: String) -> Int {
        guard let value = getenv(name) else { return 0 }
        return Int(String(cString: value)).map { max(0, $0) } ?? 0
    }

    /// Steps are taken on several threads at once (a batch's syncs, the index's writer).
    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0

        func next() -> Int {
            lock.lock()
            defer { lock.unlock() }
            count += 1
            return count
        }
    }
}
