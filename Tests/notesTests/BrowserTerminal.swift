import Foundation
import NotesKit
import TestSupport
import Testing

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// The screen a terminal would show for the bytes `notes` writes: just the sequences the browser
/// uses (cursor position, clear, colours — ignored —, the alternate screen, the cursor's
/// visibility), with wide characters taking two cells.
struct VirtualScreen {
    private(set) var columns: Int
    private(set) var rows: Int
    /// One string per cell: a character, "" for the right half of a wide one, " " when blank.
    private var cells: [[String]]
    private var row = 0, column = 0
    private(set) var alternate = false
    private(set) var cursorVisible = true
    private var pending: [UInt8] = []

    init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
        cells = Array(repeating: Array(repeating: " ", count: columns), count: rows)
    }

    /// The text of each row, without trailing blanks.
    var lines: [String] {
        cells.map { String($0.joined().reversed().drop { $0 == " " }.reversed()) }
    }

    var text: String { lines.joined(separator: "\n") }

    mutating func resize(columns: Int, rows: Int) {
        self = VirtualScreen(columns: columns, rows: rows)
    }

    mutating func feed(_ bytes: [UInt8]) {
        pending += bytes
        var i = 0
        var text: [UInt8] = []
        func flushText() {
            for character in String(decoding: text, as: UTF8.self) { put(character) }
            text = []
        }
        while i < pending.count {
            let byte = pending[i]
            if byte == 0x1B {
                flushText()
                guard let length = sequence(at: i) else { break }
                i += length
            } else if byte < 0x20 {
                flushText()
                switch byte {
                case 0x0D: column = 0
                case 0x0A: lineFeed()
                case 0x08: column = max(0, column - 1)
                default: break
                }
                i += 1
            } else {
                // A UTF-8 character cut short waits for the rest.
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                guard i + length <= pending.count else { break }
                text += pending[i..<(i + length)]
                i += length
            }
        }
        flushText()
        pending.removeFirst(i)
    }

    /// Applies the escape sequence at `i`; its length, or nil when it is not complete yet.
    private mutating func sequence(at i: Int) -> Int? {
        guard i + 1 < pending.count else { return nil }
        guard pending[i + 1] == UInt8(ascii: "[") else { return i + 2 <= pending.count ? 2 : nil }
        var end = i + 2
        while end < pending.count, !(0x40...0x7E).contains(pending[end]) { end += 1 }
        guard end < pending.count else { return nil }
        let body = String(decoding: pending[(i + 2)..<end], as: UTF8.self)
        let isPrivate = body.hasPrefix("?")
        let numbers = body.drop { $0 == "?" }.split(separator: ";", omittingEmptySubsequences: false).map {
            Int($0)
        }
        func number(_ index: Int, _ fallback: Int) -> Int {
            index < numbers.count ? numbers[index] ?? fallback : fallback
        }
        switch (pending[end], isPrivate) {
        case (UInt8(ascii: "H"), false), (UInt8(ascii: "f"), false):
            row = min(rows - 1, max(0, number(0, 1) - 1))
            column = min(columns - 1, max(0, number(1, 1) - 1))
        case (UInt8(ascii: "J"), false) where number(0, 0) == 2:
            clear()
        case (UInt8(ascii: "K"), false):
            for c in column..<columns { cells[row][c] = " " }
        case (UInt8(ascii: "h"), true):
            if number(0, 0) == 1049 {
                alternate = true
                clear()
            }
            if number(0, 0) == 25 { cursorVisible = true }
        case (UInt8(ascii: "l"), true):
            if number(0, 0) == 1049 { alternate = false }
            if number(0, 0) == 25 { cursorVisible = false }
        default:
            break
        }
        return end + 1 - i
    }

    private mutating func put(_ character: Character) {
        let width = DisplayWidth.of(character)
        guard width > 0 else { return }
        if column + width > columns {
            column = 0
            lineFeed()
        }
        cells[row][column] = String(character)
        if width == 2 { cells[row][column + 1] = "" }
        column += width
    }

    private mutating func lineFeed() {
        if row == rows - 1 {
            cells.removeFirst()
            cells.append(Array(repeating: " ", count: columns))
        } else {
            row += 1
        }
    }

    private mutating func clear() {
        cells = Array(repeating: Array(repeating: " ", count: columns), count: rows)
    }
}

/// `notes` running full screen on a pseudo-terminal, as in a terminal window: its standard
/// input and output are the terminal (its controlling one), standard error a file. The test types
/// keys and waits — with a deadline, never a sleep — for the screen to show something.
final class TerminalSession {
    let pty: PseudoTerminal
    let pid: pid_t
    private(set) var screen: VirtualScreen
    /// Every byte written to the terminal.
    private(set) var transcript: [UInt8] = []
    /// The terminal's modes before `notes` started.
    let modesBefore: TerminalTests.Modes
    private let errorPath: String
    private var status: Int32?
    private let watchdog: DispatchWorkItem

    /// Starts `notes arguments` in the sandbox on a `columns`×`rows` terminal; `stdin` and
    /// `stdout` say which of the two are the terminal (the others are files).
    init(
        _ s: Sandbox, _ arguments: [String] = ["browse"], columns: Int = 80, rows: Int = 24,
        env extra: [String: String] = [:], stdin: Bool = true, stdout: Bool = true
    ) throws {
        pty = try PseudoTerminal()
        var size = winsize()
        size.ws_col = UInt16(columns)
        size.ws_row = UInt16(rows)
        _ = ioctl(pty.follower.fileDescriptor, UInt(TIOCSWINSZ), &size)
        screen = VirtualScreen(columns: columns, rows: rows)
        modesBefore = TerminalTests.Modes(pty.follower.fileDescriptor)
        errorPath = s.root.path + "/.browser-err-" + UUID().uuidString
        var env = s.baseEnvironment()
        env["XDG_CACHE_HOME"] = s.root.path + "/cache"
        env["TERM"] = "xterm-256color"
        env.merge(extra) { $1 }
        let terminal = ChildStream.open(pty.followerName, flags: O_RDWR)
        let file = ChildStream.open(
            s.root.path + "/.browser-out-" + UUID().uuidString, flags: O_RDWR | O_CREAT)
        pid = try spawnChild(
            [Sandbox.binary] + arguments, environment: env, cwd: s.root.path,
            streams: [
                stdin ? terminal : .open("/dev/null", flags: O_RDONLY), stdout ? terminal : file,
                .open(errorPath, flags: O_WRONLY | O_CREAT | O_TRUNC),
            ],
            newSession: true)
        let pid = pid
        watchdog = DispatchWorkItem { kill(-pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 90, execute: watchdog)
    }

    deinit {
        watchdog.cancel()
        if status == nil {
            kill(-pid, SIGKILL)
            _ = waitChild(pid)
        }
        pty.close()
    }

    /// What `notes` wrote to standard error.
    var stderr: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }

    /// The terminal's output so far as text.
    var output: String { String(decoding: transcript, as: UTF8.self) }

    /// Types text (keys) as if at the keyboard.
    func type(_ text: String) { pty.type(text) }

    /// Changes the terminal's size (the kernel sends SIGWINCH to `notes`).
    func resize(columns: Int, rows: Int) {
        var size = winsize()
        size.ws_col = UInt16(columns)
        size.ws_row = UInt16(rows)
        _ = ioctl(pty.follower.fileDescriptor, UInt(TIOCSWINSZ), &size)
        screen.resize(columns: columns, rows: rows)
    }

    /// Reads the terminal until `done` holds for the screen, `notes` ends, or `seconds` pass;
    /// a failed wait is recorded with the screen as it was.
    @discardableResult
    func wait(
        for what: String, seconds: Double = 20, sourceLocation: SourceLocation = #_sourceLocation,
        _ done: (VirtualScreen) -> Bool
    ) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if done(screen) { return true }
            if status != nil || Date() > deadline {
                Issue.record(
                    "waited for \(what); the screen:\n\(screen.text)\n--- stderr\n\(stderr)",
                    sourceLocation: sourceLocation)
                return false
            }
            pump(milliseconds: 100)
        }
    }

    /// Waits for `text` to be on the screen.
    @discardableResult
    func wait(for text: String, seconds: Double = 20, sourceLocation: SourceLocation = #_sourceLocation)
        -> Bool
    {
        wait(for: "'\(text)'", seconds: seconds, sourceLocation: sourceLocation) { $0.text.contains(text) }
    }

    /// Reads the terminal until `notes` ends; its exit status (128 + N when killed by signal N).
    func exitStatus(seconds: Double = 20, sourceLocation: SourceLocation = #_sourceLocation) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while status == nil && Date() < deadline { pump(milliseconds: 100) }
        if status == nil {
            Issue.record("notes did not end; the screen:\n\(screen.text)", sourceLocation: sourceLocation)
        }
        pump(milliseconds: 0)
        return status
    }

    /// Whether the terminal's modes are those it had before `notes` started.
    var modesRestored: Bool { TerminalTests.Modes(pty.follower.fileDescriptor) == modesBefore }

    /// Reads what is there (waiting up to `milliseconds` for something), and notes an exit.
    private func pump(milliseconds: Int32) {
        var fds = [pollfd(fd: pty.leader, events: Int16(POLLIN), revents: 0)]
        if poll(&fds, 1, milliseconds) > 0 {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                var more = [pollfd(fd: pty.leader, events: Int16(POLLIN), revents: 0)]
                guard poll(&more, 1, 0) > 0 else { break }
                let count = read(pty.leader, &buffer, buffer.count)
                guard count > 0 else { break }
                transcript += buffer[..<count]
                screen.feed(Array(buffer[..<count]))
            }
        }
        if status == nil {
            var raw: Int32 = 0
            if waitpid(pid, &raw, WNOHANG) == pid { status = TestSupport.exitStatus(raw) }
        }
    }
}

/// A failed expectation about a session shows its screen: Swift Testing's default reflection of
/// the whole object (descriptors, a work item, C structures) crashed the test runner.
extension TerminalSession: CustomReflectable, CustomStringConvertible {
    var customMirror: Mirror { Mirror(self, children: []) }
    var description: String { "the screen:\n" + screen.text }
}
