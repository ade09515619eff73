import NotesKit

/// The terminal as a platform: whether a stream is one, its size, raw mode with a restore that
/// happens whatever way the process ends, the alternate screen, and a flag set on resize.
///
/// What a signal handler needs lives in fixed C buffers (`SavedTerminal`), written before the
/// handlers are installed and read by them without locks or allocation: the handlers only call
/// `tcsetattr`, `write`, `signal` and `raise`, which are async-signal-safe.
enum Terminal {
    /// Whether the descriptor is a terminal.
    static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// The terminal's size in columns and rows: the tty's, else `COLUMNS` and `LINES`, else 80×24.
    static func size(environment: [String: String], fd: Int32 = STDOUT_FILENO) -> (columns: Int, rows: Int) {
        var size = winsize()
        let known = ioctl(fd, UInt(TIOCGWINSZ), &size) == 0
        func fallback(_ name: String, _ value: Int) -> Int {
            environment[name].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil } ?? value
        }
        return (
            known && size.ws_col > 0 ? Int(size.ws_col) : fallback("COLUMNS", 80),
            known && size.ws_row > 0 ? Int(size.ws_row) : fallback("LINES", 24)
        )
    }

    // MARK: Raw mode

    /// Switches `fd` to raw mode (no echo, no line editing, no signals from keys, bytes as they
    /// come) and, with `alternateScreen`, to the alternate screen, runs `body`, and restores both
    /// (and, with the alternate screen, shows the cursor) however `body` ends. A SIGINT, SIGTERM
    /// or SIGHUP meanwhile restores them before the handler that was there before runs (the
    /// temp-file cleanup, which then ends the process); SIGTSTP restores them while stopped and raw
    /// mode comes back on SIGCONT; `exit` restores them.
    static func withRawMode<T>(_ fd: Int32, alternateScreen: Bool = false, _ body: () throws -> T) throws -> T
    {
        try enterRawMode(fd, alternateScreen: alternateScreen)
        defer { restore() }
        return try body()
    }

    /// Enters raw mode (see `withRawMode`); pair it with `restore()`.
    static func enterRawMode(_ fd: Int32, alternateScreen: Bool = false) throws {
        guard SavedTerminal.fd.pointee < 0 else { throw CommandError("the terminal is already in raw mode") }
        var original = termios()
        guard tcgetattr(fd, &original) == 0 else {
            throw CommandError("cannot read the terminal's modes: " + describe(errno))
        }
        var raw = original
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_cflag |= tcflag_t(CS8)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        // One byte at a time, as soon as it arrives.
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        SavedTerminal.original.pointee = original
        SavedTerminal.raw.pointee = raw
        SavedTerminal.alternateScreen.pointee = alternateScreen ? 1 : 0
        SavedTerminal.fd.pointee = fd
        installHandlers()
        guard tcsetattr(fd, TCSAFLUSH, &raw) == 0 else {
            let error = errno
            restore()
            throw CommandError("cannot set the terminal's modes: " + describe(error))
        }
        if alternateScreen { writeAll(fd, enterAlternateScreen) }
    }

    /// Shows the cursor and leaves the alternate screen (when raw mode entered it), leaves raw
    /// mode, and puts the signal handlers back as they were. Does nothing outside raw mode.
    static func restore() {
        restoreSaved()
        uninstallHandlers()
    }

    /// The alternate screen: the shell's screen comes back untouched when it is left.
    static let enterAlternateScreen = "\u{1B}[?1049h"
    static let leaveAlternateScreen = "\u{1B}[?1049l"
    /// A full-screen program may hide the cursor while it draws; leaving shows it again.
    static let showCursor = "\u{1B}[?25h"

    /// Async-signal-safe: shows the cursor and leaves the alternate screen, sets the saved modes
    /// back, then forgets them.
    fileprivate static func restoreSaved() {
        let fd = SavedTerminal.fd.pointee
        guard fd >= 0 else { return }
        if SavedTerminal.alternateScreen.pointee != 0 { writeStatic(fd, "\u{1B}[?25h\u{1B}[?1049l") }
        tcsetattr(fd, TCSAFLUSH, SavedTerminal.original)
        SavedTerminal.fd.pointee = -1
    }

    /// `strerror`'s sentence for an `errno`.
    private static func describe(_ code: Int32) -> String { String(cString: strerror(code)) }

    private static func writeAll(_ fd: Int32, _ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }

    // MARK: Signals

    /// The signals after which the terminal must not stay raw.
    static let fatalSignals = [SIGINT, SIGTERM, SIGHUP]

    /// Installs the restoring handlers, keeping the handlers they replace to chain to. A signal
    /// the process ignores (`nohup`) stays ignored. `exit` restores too.
    private static func installHandlers() {
        _ = (
            SavedTerminal.previous, SavedTerminal.original, SavedTerminal.raw, SavedTerminal.fd,
            SavedTerminal.installed
        )
        guard SavedTerminal.installed.pointee == 0 else { return }
        SavedTerminal.installed.pointee = 1
        for number in fatalSignals + [SIGTSTP, SIGCONT] {
            let handler: SignalHandler =
                switch number {
                case SIGTSTP: suspendHandler
                case SIGCONT: continueHandler
                default: fatalHandler
                }
            let previous = signal(number, handler)
            SavedTerminal.previous[Int(number)] = previous
            if isIgnore(previous) && number != SIGCONT { signal(number, SIG_IGN) }
        }
        if SavedTerminal.exitHookInstalled.pointee == 0 {
            SavedTerminal.exitHookInstalled.pointee = 1
            atexit { Terminal.restoreSaved() }
        }
    }

    /// Async-signal-safe: puts back the handlers `installHandlers` replaced, once (so that a later
    /// raw mode never takes our own handler for the one to chain to).
    fileprivate static func uninstallHandlers() {
        guard SavedTerminal.installed.pointee != 0 else { return }
        SavedTerminal.installed.pointee = 0
        let previous = SavedTerminal.previous
        signal(SIGINT, previous[Int(SIGINT)])
        signal(SIGTERM, previous[Int(SIGTERM)])
        signal(SIGHUP, previous[Int(SIGHUP)])
        signal(SIGTSTP, previous[Int(SIGTSTP)])
        signal(SIGCONT, previous[Int(SIGCONT)])
    }

    fileprivate static func isIgnore(_ handler: SignalHandler?) -> Bool {
        unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    fileprivate static func isDefault(_ handler: SignalHandler?) -> Bool {
        unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_DFL, to: Int.self)
    }

    // MARK: Resize

    /// Starts noting SIGWINCH, for `takeResize()`; with `notify`, each one (and each SIGCONT in raw
    /// mode, after which the screen must be drawn again) also writes a byte there, so that a loop
    /// waiting in `poll` on the other end of a pipe wakes up.
    static func watchResize(notify: Int32 = -1) {
        _ = (SavedTerminal.resized, SavedTerminal.wakeFD)
        SavedTerminal.wakeFD.pointee = notify
        signal(SIGWINCH, resizeHandler)
    }

    /// Stops noting SIGWINCH and writing to the descriptor given to `watchResize`.
    static func stopWatchingResize() {
        signal(SIGWINCH, SIG_DFL)
        SavedTerminal.wakeFD.pointee = -1
    }

    /// Whether the terminal was resized since the last call.
    static func takeResize() -> Bool {
        let resized = SavedTerminal.resized.pointee != 0
        SavedTerminal.resized.pointee = 0
        return resized
    }
}

/// The C-compatible state the signal handlers read: allocated once, never freed.
private enum SavedTerminal {
    /// The raw-mode terminal, or -1 outside raw mode.
    nonisolated(unsafe) static let fd = cell(Int32(-1))
    nonisolated(unsafe) static let original = cell(termios())
    nonisolated(unsafe) static let raw = cell(termios())
    nonisolated(unsafe) static let alternateScreen = cell(Int32(0))
    nonisolated(unsafe) static let exitHookInstalled = cell(Int32(0))
    /// 1 while our signal handlers are installed.
    nonisolated(unsafe) static let installed = cell(Int32(0))
    nonisolated(unsafe) static let resized = cell(sig_atomic_t(0))
    /// Where a resize (or a continue) is announced with a byte, or -1.
    nonisolated(unsafe) static let wakeFD = cell(Int32(-1))
    /// The handler each signal had before ours, by signal number.
    nonisolated(unsafe) static let previous: UnsafeMutablePointer<SignalHandler?> = {
        let table = UnsafeMutablePointer<SignalHandler?>.allocate(capacity: 65)
        table.initialize(repeating: nil, count: 65)
        return table
    }()

    private static func cell<T>(_ value: T) -> UnsafeMutablePointer<T> {
        let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
        pointer.initialize(to: value)
        return pointer
    }
}

/// SIGINT, SIGTERM, SIGHUP: restore the terminal, then do what was there before — the previous
/// handler, or the default action (the process dies of the signal, as it would have).
private func fatalHandler(_ number: Int32) {
    Terminal.restoreSaved()
    let previous = SavedTerminal.previous[Int(number)]
    Terminal.uninstallHandlers()
    if let previous, !Terminal.isDefault(previous), !Terminal.isIgnore(previous) {
        previous(number)
    } else {
        raise(number)
    }
}

/// SIGTSTP (Ctrl-Z from outside raw mode, or a `kill -TSTP`): restore the terminal and stop; the
/// stop itself happens when this returns, since the signal is blocked while it runs.
private func suspendHandler(_ number: Int32) {
    let fd = SavedTerminal.fd.pointee
    guard fd >= 0 else { return }
    if SavedTerminal.alternateScreen.pointee != 0 { writeStatic(fd, "\u{1B}[?25h\u{1B}[?1049l") }
    tcsetattr(fd, TCSAFLUSH, SavedTerminal.original)
    signal(SIGTSTP, SIG_DFL)
    raise(SIGTSTP)
}

/// SIGCONT after a stop: raw mode (and the alternate screen) again, and the SIGTSTP handler back;
/// noted as a resize, since what was on the screen is gone.
private func continueHandler(_ number: Int32) {
    let fd = SavedTerminal.fd.pointee
    guard fd >= 0 else { return }
    tcsetattr(fd, TCSAFLUSH, SavedTerminal.raw)
    if SavedTerminal.alternateScreen.pointee != 0 { writeStatic(fd, "\u{1B}[?1049h") }
    signal(SIGTSTP, suspendHandler)
    resizeHandler(number)
}

/// Async-signal-safe: writes constant bytes, no allocation.
private func writeStatic(_ fd: Int32, _ text: StaticString) {
    _ = text.withUTF8Buffer { write(fd, $0.baseAddress, $0.count) }
}

/// SIGWINCH: note it, and wake the loop that draws; it reads the note with `Terminal.takeResize()`.
private func resizeHandler(_ number: Int32) {
    SavedTerminal.resized.pointee = 1
    let fd = SavedTerminal.wakeFD.pointee
    guard fd >= 0 else { return }
    // The interrupted code may be about to read errno.
    let saved = errno
    writeStatic(fd, "w")
    errno = saved
}
