import Foundation

/// Phase timings on stderr when `NOTES_TRACE` is set (a developer's tool for speed work, see
/// `Benchmarks/README.md`): each mark prints the milliseconds since the one before and, where
/// `/proc` has them, the peak and current resident memory.
public enum Trace {
    private static let enabled = ProcessInfo.processInfo.environment["NOTES_TRACE"] != nil
    /// The time of the latest mark. Marks come from the main thread and from the browser's watcher
    /// thread; made, and locked, only once tracing is on.
    private static let latest = LatestMark()

    /// Prints the time since the previous mark, labelled `phase`.
    public static func mark(_ phase: String) {
        guard enabled else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        let last = latest.replace(with: now)
        let elapsed = last == 0 ? 0 : Double(now &- last) / 1e6
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let memory = status.split(separator: "\n").filter { $0.hasPrefix("VmHWM") || $0.hasPrefix("VmRSS") }
            .map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        let line =
            "\(phase): \(String(format: "%.1f", elapsed)) ms"
            + (memory.isEmpty ? "" : "; " + memory.joined(separator: ", "))
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

/// The time of the latest trace mark, read and replaced in one step under a lock. (Not
/// Synchronization's `Mutex`: the package supports macOS 13, and `Mutex` needs macOS 15.)
private final class LatestMark: @unchecked Sendable {
    private let lock = NSLock()
    private var time: UInt64 = 0

    /// Makes `now` the latest mark; returns the one before it (0 for none).
    func replace(with now: UInt64) -> UInt64 {
        lock.lock()
        defer { lock.unlock() }
        let previous = time
        time = now
        return previous
    }
}
