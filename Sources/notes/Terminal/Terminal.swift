import NotesKit

/// The terminal: whether a stream is one, and its size.
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
        return (known && size.ws_col > 0 ? Int(size.ws_col) : fallback("COLUMNS", 80),
                known && size.ws_row > 0 ? Int(size.ws_row) : fallback("LINES", 24))
    }
}
