import Foundation
import TestSupport
import Testing

@testable import notes

/// Hangups seen by the handler that was installed before raw mode, to check the chain.
nonisolated(unsafe) private var hangupsSeen: Int32 = 0

/// Stands for the temp-file cleanup handler: the one raw mode's handler must chain to.
private func countHangup(_ number: Int32) {
    hangupsSeen += 1
}

/// Raises `number` on this thread with it unblocked (test threads block signals), so its handler
/// has run when this returns.
private func deliver(_ number: Int32) {
    var only = sigset_t()
    sigemptyset(&only)
    sigaddset(&only, number)
    var previous = sigset_t()
    pthread_sigmask(SIG_UNBLOCK, &only, &previous)
    raise(number)
    pthread_sigmask(SIG_SETMASK, &previous, nil)
}

/// The terminal platform layer on a pseudo-terminal opened in this process. Serialized: raw mode
/// and signal handlers are per process.
@Suite(.serialized) struct TerminalTests {
    /// The modes raw mode changes, comparable.
    struct Modes: Equatable {
        var input, output, control, local: tcflag_t
        var minimum: cc_t

        init(_ fd: Int32) {
            var attributes = termios()
            tcgetattr(fd, &attributes)
            input = attributes.c_iflag
            output = attributes.c_oflag
            control = attributes.c_cflag
            local = attributes.c_lflag
            minimum = withUnsafeBytes(of: attributes.c_cc) { $0[Int(VMIN)] }
        }
    }

    @Test func rawModeChangesTheModesAndRestoreBringsThemBack() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let fd = pty.follower.fileDescriptor
        let before = Modes(fd)
        #expect(before.local & tcflag_t(ICANON) != 0)
        try Terminal.enterRawMode(fd)
        let raw = Modes(fd)
        #expect(raw.local & tcflag_t(ICANON | ECHO | ISIG | IEXTEN) == 0)
        #expect(raw.input & tcflag_t(ICRNL | IXON) == 0)
        #expect(raw.minimum == 1)
        Terminal.restore()
        #expect(Modes(fd) == before)
    }

    @Test func anErrorInsideRawModeStillRestores() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let fd = pty.follower.fileDescriptor
        let before = Modes(fd)
        #expect(throws: CommandError.self) {
            try Terminal.withRawMode(fd, alternateScreen: true) {
                #expect(Modes(fd) != before)
                throw CommandError("inside")
            }
        }
        #expect(Modes(fd) == before)
        // The alternate screen was entered, then left with the cursor shown. All of it was written
        // before `withRawMode` returned, but the terminal may hand it over in more than one read.
        let expected = Terminal.enterAlternateScreen + Terminal.showCursor + Terminal.leaveAlternateScreen
        var received: [UInt8] = []
        var waiter = pollfd(fd: pty.leader, events: Int16(POLLIN), revents: 0)
        while received.count < expected.utf8.count, poll(&waiter, 1, 5000) == 1 {
            var bytes = [UInt8](repeating: 0, count: 64)
            let count = read(pty.leader, &bytes, bytes.count)
            guard count > 0 else { break }
            received += bytes.prefix(count)
        }
        #expect(String(decoding: received, as: UTF8.self) == expected)
    }

    /// A hangup in raw mode restores the terminal, then runs the handler that was there before
    /// (in the program, the temp-file cleanup that ends the process), and puts it back.
    @Test func aFatalSignalRestoresTheTerminalAndChains() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let fd = pty.follower.fileDescriptor
        let before = Modes(fd)
        let original = signal(SIGHUP, countHangup)
        defer { signal(SIGHUP, original) }
        hangupsSeen = 0
        try Terminal.enterRawMode(fd)
        #expect(Modes(fd) != before)
        deliver(SIGHUP)
        #expect(Modes(fd) == before)
        #expect(hangupsSeen == 1)
        // Our handler is gone: another hangup goes straight to the previous one.
        deliver(SIGHUP)
        #expect(hangupsSeen == 2)
        Terminal.restore()
    }

    @Test func resizesAreNoted() {
        Terminal.watchResize()
        _ = Terminal.takeResize()
        deliver(SIGWINCH)
        #expect(Terminal.takeResize())
        #expect(!Terminal.takeResize())
    }

    /// A loop waiting in `poll` learns of a resize from a byte on its pipe, so it never sleeps
    /// through one; after `stopWatchingResize` nothing is written there.
    @Test func aResizeWakesAPollingLoop() throws {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { for end in ends { close(end) } }
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        Terminal.watchResize(notify: ends[1])
        deliver(SIGWINCH)
        var byte: UInt8 = 0
        #expect(read(ends[0], &byte, 1) == 1)
        #expect(Terminal.takeResize())
        Terminal.stopWatchingResize()
        Terminal.watchResize()
        deliver(SIGWINCH)
        #expect(read(ends[0], &byte, 1) == -1)
        Terminal.stopWatchingResize()
    }

    @Test func sizeComesFromTheTerminalThenTheEnvironment() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        var size = winsize()
        size.ws_col = 132
        size.ws_row = 43
        #expect(ioctl(pty.follower.fileDescriptor, UInt(TIOCSWINSZ), &size) == 0)
        let tty = Terminal.size(
            environment: ["COLUMNS": "10", "LINES": "5"], fd: pty.follower.fileDescriptor)
        #expect(tty.columns == 132 && tty.rows == 43)
        let notATerminal = Terminal.size(environment: ["COLUMNS": "100", "LINES": "30"], fd: -1)
        #expect(notATerminal.columns == 100 && notATerminal.rows == 30)
        let nothing = Terminal.size(environment: ["COLUMNS": "x"], fd: -1)
        #expect(nothing.columns == 80 && nothing.rows == 24)
    }

    @Test func progressBarDrawsOnlyWhenEnabledAndClearsItsLine() {
        #expect(
            ProgressBar.line(label: "Indexing", done: 5, total: 10, width: 10) == "Indexing [#####     ] 5/10"
        )
        #expect(ProgressBar.line(label: "Indexing", done: 0, total: 0, width: 4) == "Indexing [####] 0/0")
        var written: [String] = []
        let bar = ProgressBar(label: "Indexing", width: 4, enabled: true, delay: -1) { written.append($0) }
        bar.update(done: 1, total: 2)
        bar.finish()
        #expect(written == ["\rIndexing [##  ] 1/2", "\r\u{1B}[K"])
        var silent: [String] = []
        let off = ProgressBar(label: "Indexing", enabled: false, delay: -1) { silent.append($0) }
        off.update(done: 1, total: 2)
        off.finish()
        #expect(silent.isEmpty)
    }
}
