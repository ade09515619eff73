import Foundation

/// Phase timings on stderr when `NOTES_TRACE` is set (a developer's tool for speed work, see
/// `Benchmarks/README.md`): each mark prints the milliseconds since the one before and, where
/// `/proc` has them, the peak and current resident memory.
public enum Trace {
    nonisolated(unsafe) private static var last: UInt64 = 0
    private static let enabled = ProcessInfo.processInfo.environment["NOTES_TRACE"] != nil

    /// Prints the time since the previous mark, labelled `phase`.
    public static func mark(_ phase: String) {
        guard enabled else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        let elapsed = last == 0 ? 0 : Double(now &- last) / 1e6
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let memory = status.split(separator: "\n").filter { $0.hasPrefix("VmHWM") || $0.hasPrefix("VmRSS") }
            .map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        let line = "\(phase): \(String(format: "%.1f", elapsed)) ms" + (memory.isEmpty ? "" : "; " + memory.joined(separator: ", "))
        FileHandle.standardError.write(Data((line + "\n").utf8))
        last = now
    }
}
