import Foundation

/// A one-line progress bar on stderr (`Indexing [#####     ] 50/100`), drawn only on a terminal
/// and only once the work has taken longer than `delay`, so quick runs print nothing.
final class ProgressBar {
    let label: String
    /// Columns of the bar between the brackets.
    let width: Int
    private let enabled: Bool
    private let delay: TimeInterval
    private let start: Date
    private let write: (String) -> Void
    private var shown = false

    init(
        label: String, width: Int = 30, enabled: Bool = Terminal.isTerminal(2), delay: TimeInterval = 0.5,
        write: @escaping (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }
    ) {
        self.label = label
        self.width = width
        self.enabled = enabled
        self.delay = delay
        self.write = write
        start = Date()
    }

    /// Redraws the bar for `done` of `total`, once the delay has passed.
    func update(done: Int, total: Int) {
        guard enabled, shown || Date().timeIntervalSince(start) > delay else { return }
        shown = true
        write("\r" + Self.line(label: label, done: done, total: total, width: width))
    }

    /// Clears the bar's line, if one was drawn.
    func finish() {
        if shown { write("\r\u{1B}[K") }
        shown = false
    }

    /// The bar's text: the label, `width` columns of `#` for the part done, and the counts.
    static func line(label: String, done: Int, total: Int, width: Int) -> String {
        let filled = total == 0 ? width : max(0, min(width, width * done / total))
        return "\(label) [" + String(repeating: "#", count: filled)
            + String(repeating: " ", count: width - filled)
            + "] \(done)/\(total)"
    }
}
