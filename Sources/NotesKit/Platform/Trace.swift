import Foundation

/// Phase timings on stderr when `NOTES_TRACE` is set (a developer's tool for speed work, see
/// `Benchmarks/README.md`): each mark prints the milliseconds since the one before.
public enum Trace {
    nonisolated(unsafe) private static var last: UInt64 = 0
    private static let enabled = ProcessInfo.processInfo.environment["NOTES_TRACE"] != nil

    /// Prints the time since the previous mark, labelled `phase`.
    public static func mark(_ phase: String) {
        guard enabled else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        let elapsed = last == 0 ? 0 : Double(now &- last) / 1e6
        FileHandle.standardError.write(Data("\(phase): \(String(format: "%.1f", elapsed)) ms\n".utf8))
        last = now
    }
}
