import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// The temp files this process is writing, kept where a signal handler can reach them:
/// on SIGINT, SIGTERM or SIGHUP they are unlinked before the process dies, so an interrupted
/// 150 MB write leaves nothing behind. Temps of processes that died some other way (SIGKILL, a
/// crash) are swept later by `FileSystem.sweepStaleTemps(in:)`.
///
/// Paths live in a fixed C buffer, one slot each: the handler only reads bytes and calls
/// `unlink(2)`, which is async-signal-safe. It never takes a lock, so it may read a slot while
/// another thread fills it; that is why it unlinks only a name of this process's own temps
/// (`.notes-tmp-<our pid>-XXXXXX`), which a torn read cannot turn into any other file's name.
public final class TemporaryFiles: @unchecked Sendable {
    /// Bytes per slot: `PATH_MAX` on Linux. A longer path is written all the same, just not
    /// removed on a signal.
    static let slotSize = 4096
    /// Temps written at once by the whole process; more are written unregistered. A move writes
    /// every rewritten note's temp before it renames any, so this covers a note linked from a
    /// thousand others. The slots are zero pages until used (`calloc`): they cost no memory.
    static let sharedCapacity = 1024
    /// The shared registry's slots, a static `let` so the signal handler reaches them without an
    /// object reference.
    // Written under `lock`, read by the signal handler without it (see above).
    nonisolated(unsafe) fileprivate static let sharedSlots = allocateSlots(sharedCapacity)
    /// The registry every write uses.
    static let shared = TemporaryFiles(slots: sharedSlots, capacity: sharedCapacity)

    private let slots: UnsafeMutablePointer<CChar>
    private let capacity: Int
    private let lock = NSLock()
    private var claimed: [Bool]

    /// A registry of its own (for tests); the program uses `shared`.
    convenience init(capacity: Int) {
        self.init(slots: Self.allocateSlots(capacity), capacity: capacity)
    }

    private init(slots: UnsafeMutablePointer<CChar>, capacity: Int) {
        self.slots = slots
        self.capacity = capacity
        claimed = Array(repeating: false, count: capacity)
    }

    private static func allocateSlots(_ capacity: Int) -> UnsafeMutablePointer<CChar> {
        // Zeroed by calloc, which maps fresh zero pages for a large block rather than writing them.
        if let zeroed = calloc(capacity, slotSize) { return zeroed.assumingMemoryBound(to: CChar.self) }
        let slots = UnsafeMutablePointer<CChar>.allocate(capacity: capacity * slotSize)
        slots.initialize(repeating: 0, count: capacity * slotSize)
        return slots
    }

    /// A registered temp file: its path and the slot that holds it (nil when none was free).
    struct Entry {
        var path: String
        var slot: Int?
    }

    /// Creates a temp file from a `mkstemp` template, registered from the moment it exists:
    /// `mkstemp` fills in the name inside the slot itself. Returns the open descriptor, or the
    /// `errno` of the failure.
    func makeTemp(_ template: String) -> Result<(fd: Int32, entry: Entry), Errno> {
        let bytes = Array(template.utf8CString)
        let slot = claim(bytes)
        var buffer = bytes
        let fd: Int32
        if let slot {
            fd = mkstemp(slots + slot * Self.slotSize)
        } else {
            fd = buffer.withUnsafeMutableBufferPointer { $0.baseAddress.map { mkstemp($0) } ?? -1 }
        }
        guard fd >= 0 else {
            let error = errno
            if let slot { release(slot) }
            return .failure(Errno(error))
        }
        let path =
            slot.map { String(cString: slots + $0 * Self.slotSize) }
            ?? String(
                decoding: buffer.prefix { $0 != 0 }.map { UInt8(truncatingIfNeeded: $0) }, as: UTF8.self)
        return .success((fd, Entry(path: path, slot: slot)))
    }

    /// Copies a NUL-terminated path into a free slot; nil when none is free or the path is too long.
    func claim(_ path: [CChar]) -> Int? {
        guard path.count <= Self.slotSize, path.last == 0 else { return nil }
        lock.lock()
        defer { lock.unlock() }
        guard let slot = claimed.firstIndex(of: false) else { return nil }
        claimed[slot] = true
        path.withUnsafeBufferPointer { source in
            guard let base = source.baseAddress else { return }
            (slots + slot * Self.slotSize).update(from: base, count: source.count)
        }
        return slot
    }

    /// Forgets a temp: once it was renamed into place, or removed.
    func release(_ slot: Int) {
        lock.lock()
        defer { lock.unlock() }
        slots[slot * Self.slotSize] = 0
        claimed[slot] = false
    }

    /// Unlinks every registered temp of this process (what the signal handler does).
    func removeAll() {
        Self.unlinkOwnTemps(slots, capacity: capacity)
    }

    /// Async-signal-safe: reads the slots and calls `unlink`, nothing else; no allocation, no lock.
    fileprivate static func unlinkOwnTemps(_ slots: UnsafeMutablePointer<CChar>, capacity: Int) {
        let pid = Int(getpid())
        for slot in 0..<capacity {
            let path = slots + slot * slotSize
            if path[0] != 0 && isOwnTempName(path, pid: pid) { unlink(path) }
        }
    }

    /// Whether a slot holds, within its bounds, a path whose last component is
    /// `.notes-tmp-<pid>-` followed by six name characters. Pointer arithmetic only.
    static func isOwnTempName(_ path: UnsafePointer<CChar>, pid: Int) -> Bool {
        var length = 0
        var nameStart = 0
        while length < slotSize && path[length] != 0 {
            if path[length] == 0x2F { nameStart = length + 1 }
            length += 1
        }
        guard length < slotSize else { return false }
        let prefix: StaticString = ".notes-tmp-"
        var i = nameStart
        var p = 0
        while p < prefix.utf8CodeUnitCount {
            guard i < length, UInt8(truncatingIfNeeded: path[i]) == prefix.utf8Start[p] else { return false }
            i += 1
            p += 1
        }
        var number = 0
        var digits = 0
        while i < length, path[i] >= 0x30, path[i] <= 0x39, digits < 10 {
            number = number * 10 + Int(path[i] - 0x30)
            digits += 1
            i += 1
        }
        guard digits > 0, number == pid, i < length, path[i] == 0x2D else { return false }
        return length - (i + 1) == 6
    }

    /// Installs the handler for SIGINT, SIGTERM and SIGHUP: it removes this process's temps, then
    /// dies of the signal as it would have (default action, re-raised), so the exit status and the
    /// shell's behaviour do not change. Call once at program start, while single-threaded. A
    /// signal the process was started ignoring (`nohup`, a background job) stays ignored.
    public static func installSignalHandlers() {
        // Made now, so the handler never runs the lazy initializer.
        _ = sharedSlots
        for number in [SIGINT, SIGTERM, SIGHUP] {
            let previous = signal(number, removeTempsAndDie)
            if unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
                signal(number, SIG_IGN)
            }
        }
    }
}

/// The signal handler: see `TemporaryFiles.installSignalHandlers()`.
private func removeTempsAndDie(_ number: Int32) {
    TemporaryFiles.unlinkOwnTemps(TemporaryFiles.sharedSlots, capacity: TemporaryFiles.sharedCapacity)
    signal(number, SIG_DFL)
    raise(number)
}

/// An `errno` value that failed a call; its description is `strerror`'s.
struct Errno: Error, CustomStringConvertible {
    var code: Int32
    init(_ code: Int32) { self.code = code }
    var description: String { String(cString: strerror(code)) }
}
