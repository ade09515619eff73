import Foundation
import NotesKit

/// The standard streams as commands use them: stdout buffered and flushed at exit, stderr lines,
/// warnings that `--quiet` silences, the y/N prompt, stdin read as UTF-8, and whether stdin and
/// stdout are terminals.
final class Output {
    let stdinIsTTY: Bool
    let stdoutIsTTY: Bool
    /// `--quiet`: no warnings.
    let quiet: Bool
    private var stdoutBuffer = ""
    /// Where output goes through a pager once it is longer than the terminal (`usePager`).
    private var paging: (command: String, environment: [String: String], rows: Int)?
    private var pager: Pager?
    /// The lines held while a pager may still be needed.
    private var heldLines = 0

    init(quiet: Bool, stdinIsTTY: Bool = Terminal.isTerminal(0), stdoutIsTTY: Bool = Terminal.isTerminal(1)) {
        self.quiet = quiet
        self.stdinIsTTY = stdinIsTTY
        self.stdoutIsTTY = stdoutIsTTY
    }

    /// Queues text for stdout (flushed at exit, or now with `flush()`).
    func out(_ text: String) {
        stdoutBuffer += text
        if paging != nil && pager == nil { heldLines += text.utf8.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) } }
        if let paging, pager == nil, stdoutBuffer.utf8.count > 1 << 16 || heldLines >= paging.rows {
            pager = try? Pager(command: paging.command, environment: paging.environment)
            if pager == nil { self.paging = nil }
        }
        if pager != nil || stdoutBuffer.utf8.count > 1 << 16 { flush() }
    }

    /// Sends this command's output through `command` when it turns out longer than `rows` lines
    /// (git's way); until then it is held, so short output never meets the pager.
    func usePager(_ command: String, environment: [String: String], rows: Int) {
        paging = (command, environment, max(1, rows))
    }

    /// Writes queued stdout text. While output may still go to a pager, it is held back.
    func flush() {
        guard !stdoutBuffer.isEmpty, paging == nil || pager != nil else { return }
        if let pager {
            if !pager.write(stdoutBuffer) { paging = nil }
        } else {
            FileHandle.standardOutput.write(Data(stdoutBuffer.utf8))
        }
        stdoutBuffer = ""
    }

    /// The end of the command: what is held is written, and a pager is waited for.
    func finish() {
        if pager == nil { paging = nil }
        flush()
        pager?.finish()
        pager = nil
        paging = nil
    }

    /// Writes a line to stderr, after what stdout has queued. Messages quote file names, IDs and
    /// arguments, which may hold escape sequences: control characters become spaces here, so that
    /// only text reaches the terminal.
    func err(_ line: String) {
        flush()
        FileHandle.standardError.write(Data((Output.printableLines(line) + "\n").utf8))
    }

    /// `text` with control characters (C0 but the line feed, C1, DEL) shown as spaces.
    static func printableLines(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { ANSI.printable(String($0)) }
            .joined(separator: "\n")
    }

    /// Writes `warning: …` to stderr, unless `--quiet`.
    func warn(_ message: String) {
        guard !quiet else { return }
        err("warning: " + message)
    }

    /// Asks a yes/no question on stderr and reads the answer from stdin; no means no.
    func confirm(_ question: String) -> Bool {
        flush()
        FileHandle.standardError.write(Data((Output.printableLines(question) + " [y/N] ").utf8))
        guard let answer = readLine() else { return false }
        return ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
    }

    /// Reads all of stdin as UTF-8 text.
    func readStandardInput() throws -> String {
        let data = FileHandle.standardInput.readDataToEndOfFile()
        guard let text = String(validating: data, as: UTF8.self) else {
            throw CommandError("standard input is not UTF-8 text; nothing saved")
        }
        return text
    }
}
