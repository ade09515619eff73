import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// Phase timings on stderr when `NOTES_TRACE` is set (a developer's tool for speed work, see
/// `Benchmarks/README.md`): each mark prints the milliseconds since the one before, the CPU time
/// the process took meanwhile (user and system, all threads: over the milliseconds, how many
/// cores the phase kept busy) and, where `/proc` has them, the peak and current resident memory.
public enum Trace {
    private static let enabled = ProcessInfo.processInfo.environment["NOTES_TRACE"] != nil
    /// The time of the latest mark. Marks come from the main thread and from the browser's watcher
    /// thread; made, and locked, only once tracing is on.
    private static let latest = LatestMark()

    /// Prints the time since the previous mark, labelled `phase`.
    public static func mark(_ phase: String) {
        guard enabled else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        var usage = rusage()
        #if canImport(Darwin)
            getrusage(RUSAGE_SELF, &usage)
        #else
            getrusage(RUSAGE_SELF.rawValue, &usage)
        #endif
        func milliseconds(_ time: timeval) -> Double {
            Double(time.tv_sec) * 1e3 + Double(time.tv_usec) / 1e3
        }
        let cpu = milliseconds(usage.ru_utime) + milliseconds(usage.ru_stime)
        let (last, lastCPU) = latest.replace(with: (now, cpu))
        let elapsed = last == 0 ? 0 : Double(now &- last) / 1e6
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let memory = status.split(separator: "\n").filter { $0.hasPrefix("VmHWM") || $0.hasPrefix("VmRSS") }
            .map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        let line =
            "\(phase): \(String(format: "%.1f", elapsed)) ms, cpu \(String(format: "%.1f", cpu - lastCPU)) ms"
            + (memory.isEmpty ? "" : "; " + memory.joined(separator: ", "))
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

/// The time and CPU time of the latest trace mark, read and replaced in one step under a lock. (Not
/// Synchronization's `Mutex`: the package supports macOS 13, and `Mutex` needs macOS 15.)
private final class LatestMark: @unchecked Sendable {
    private let lock = NSLock()
    private var mark: (time: UInt64, cpu: Double) = (0, 0)

    /// Makes `now` (an uptime in nanoseconds, the process's CPU time in milliseconds) the latest
    /// mark; returns the one before it (zeros for none).
    func replace(with now: (time: UInt64, cpu: Double)) -> (time: UInt64, cpu: Double) {
        lock.lock()
        defer { lock.unlock() }
        let previous = mark
        mark = now
        return previous
    }
}
