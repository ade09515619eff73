import NotesKit

/// The browser on a terminal: raw mode and the alternate screen (given back around the editor
/// and on every way out — a quit, an error, a signal; see `Terminal`), keys read as they come,
/// and a frame drawn after them with one write, only when something on the screen changed.
///
/// It waits in `poll` on the terminal and on a pipe that wakes it: for a resize (SIGWINCH), a
/// return from a stop (SIGCONT), and the watcher's news that the vault changed on disk. While a
/// search has notes left to check (a key draws as soon as the screen is full, or its budget is
/// spent), it checks them in short slices between polls, so that keys still come first.
enum BrowserLoop {
    /// How long an Esc waits for the rest of a sequence before it counts as the Esc key.
    static let escapeWait: Int32 = 25
    /// How long a slice of searching between keys lasts.
    static let searchSlice = Duration.milliseconds(10)

    /// Runs the browser until the user quits; keys come from `input`, frames go to `output`
    /// (the terminal whose modes change).
    static func run(_ session: BrowserSession, input: Int32, output: Int32) throws {
        let wake = try WakePipe()
        defer { wake.closeEnds() }
        Terminal.watchResize(notify: wake.writeEnd)
        defer { Terminal.stopWatchingResize() }
        let watcher = CatalogWatcher()
        session.watcher = watcher
        watcher.start(
            vault: session.store.vault, cacheDirectory: session.context.locations.cacheDirectory,
            order: session.state.hits.order, filter: session.filter, count: session.state.hits.catalog.count,
            notify: wake.writeEnd)
        defer { watcher.stop() }

        try Terminal.enterRawMode(output, alternateScreen: true)
        defer { Terminal.restore() }
        var shown: Frame?
        var decoder = KeyDecoder()
        // The editor gets the terminal as the shell had it, and the screen is drawn anew after it.
        let suspend = { (body: () throws -> Void) throws in
            Terminal.restore()
            let outcome = Result { try body() }
            try Terminal.enterRawMode(output, alternateScreen: true)
            shown = nil
            try outcome.get()
        }
        while true {
            if Terminal.takeResize() {
                let size = Terminal.size(environment: session.context.environment, fd: output)
                session.resize(ScreenSize(columns: size.columns, rows: size.rows))
                shown = nil
            }
            if let search = watcher.take() { session.adopt(search) }
            let frame = session.frame()
            try draw(frame.update(from: shown), to: output)
            shown = frame

            var fds = [
                pollfd(fd: input, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wake.readEnd, events: Int16(POLLIN), revents: 0),
            ]
            let timeout = decoder.hasPending ? escapeWait : session.state.searching ? 0 : 1000
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0 {
                guard errno == EINTR else {
                    throw CommandError("could not wait for keys: " + describe(errno))
                }
                continue
            }
            if fds[1].revents != 0 { wake.drain() }
            var keys: [Key] = []
            if ready == 0 && decoder.hasPending {
                keys = decoder.flush()
            } else if ready == 0 && session.state.searching {
                session.state.continueSearch(before: .now + searchSlice)
            }
            if fds[0].revents != 0 {
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = read(input, &buffer, buffer.count)
                if count > 0 {
                    keys += decoder.feed(buffer[..<count])
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    // The terminal is gone (its hangup signal usually comes first).
                    return
                }
            }
            if !keys.isEmpty { watcher.keyPressed() }
            for key in keys {
                if key == .control("z") {
                    // Stops like Ctrl-Z in a shell: the handler raw mode installed gives the
                    // terminal back first and takes it again on `fg` (then the screen is redrawn).
                    raise(SIGTSTP)
                    continue
                }
                guard let command = session.state.handle(key) else { continue }
                guard session.perform(command, suspend: suspend) else { return }
            }
        }
    }

    /// `strerror`'s sentence for an `errno`.
    static func describe(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// Writes a frame's bytes (none when nothing changed) with one `write`, or more only when the
    /// terminal takes fewer at a time.
    static func draw(_ text: String, to fd: Int32) throws {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard written > 0 else {
                throw CommandError("could not draw on the terminal: " + describe(errno))
            }
            bytes = bytes.dropFirst(written)
        }
    }
}

/// A pipe whose write end signal handlers and the watcher write a byte to, to wake `poll`;
/// both ends non-blocking, so a full pipe never blocks a writer (one byte waiting is enough).
struct WakePipe {
    let readEnd: Int32
    let writeEnd: Int32

    init() throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw CommandError("could not make a pipe: " + BrowserLoop.describe(errno))
        }
        for fd in ends {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        (readEnd, writeEnd) = (ends[0], ends[1])
    }

    /// Reads every byte waiting.
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(readEnd, &buffer, buffer.count) > 0 {}
    }

    func closeEnds() {
        for fd in [readEnd, writeEnd] { _ = close(fd) }
    }
}
