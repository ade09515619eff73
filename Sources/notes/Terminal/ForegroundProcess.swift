import NotesKit

/// Runs a program in the terminal's foreground and waits for it, as a shell runs a job.
///
/// The child leads a process group of its own, and when we own the terminal the child's group is
/// made its foreground group for as long as it runs: it may read the terminal and change its modes
/// (a child in a background group is stopped by the kernel, SIGTTOU, at vim's first `tcsetattr`),
/// and a SIGTERM or SIGHUP sent to us reaches every process of the editor — `sh -c` and what it
/// started — and not the other members of our own group (a pipeline, a test runner). We wait for
/// them to end, then end ourselves (`Terminated`): no editor stays on a terminal that the shell
/// has taken back. When the editor stops (Ctrl-Z), we stop too, and both go on together.
/// Meanwhile we ignore SIGINT and SIGQUIT: they are the child's keys (Ctrl-C in vim). The child
/// gets their default actions back. Its standard input is the terminal, never a pipe or file
/// that ours may be (SPEC §4: `edit` in a `while read` loop must not give the editor the loop's
/// lines): our stdin when it is a terminal, else `/dev/tty` when we are its foreground, else
/// `/dev/null`.
enum ForegroundProcess {
    /// How the child ended.
    enum Outcome: Equatable {
        case exited(Int32)
        case signaled(Int32)
    }

    /// The child ended after we passed it a SIGTERM or SIGHUP sent to us: the caller keeps what
    /// must be kept, then calls `end()`.
    struct Terminated: Error {
        let signal: Int32

        /// Ends the process by the signal it got, as it would have ended without an editor open
        /// (the temp-file cleanup runs first).
        func end() -> Never {
            Terminal.restore()
            raise(signal)
            exit(128 + signal)
        }
    }

    /// Starts `executable` with `arguments` (argv[0] included) and `environment`, waits for it.
    /// Throws the `errno` of a failed start, or `Terminated`.
    static func run(_ executable: String, arguments: [String], environment: [String: String]) throws
        -> Outcome
    {
        let previousInterrupt = signal(SIGINT, SIG_IGN)
        let previousQuit = signal(SIGQUIT, SIG_IGN)
        // Taking the terminal back from a background group would stop us otherwise.
        let previousTTOU = signal(SIGTTOU, SIG_IGN)
        defer {
            signal(SIGINT, previousInterrupt)
            signal(SIGQUIT, previousQuit)
            signal(SIGTTOU, previousTTOU)
        }
        let input = standardInput()
        defer { if input >= 0 { close(input) } }
        let terminal = foregroundTerminal(opened: input)
        var modes = termios()
        let hasModes = terminal >= 0 && tcgetattr(terminal, &modes) == 0
        // Installed first: a signal that comes while the child starts is passed on once it runs.
        // Both cells are made here, not lazily in the handler (which may only call `kill`).
        Forwarding.target.pointee = 0
        Forwarding.received.pointee = 0
        let previousTerm = forward(SIGTERM)
        let previousHangUp = forward(SIGHUP)
        defer {
            Forwarding.target.pointee = 0
            if let previousTerm { signal(SIGTERM, previousTerm) }
            if let previousHangUp { signal(SIGHUP, previousHangUp) }
        }
        // The child gets the standard streams and nothing else we hold open (the index map, a
        // lock), and the default actions of the signals we (or a shell) may have changed.
        let pid: pid_t
        do throws(ProcessRunner.SpawnFailure) {
            pid = try ProcessRunner.spawn(
                executable, argv: arguments, environment: environment,
                streams: isatty(STDIN_FILENO) == 1 ? [:] : [0: input >= 0 ? .descriptor(input) : .null],
                defaultSignals: [
                    SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU,
                ], newGroup: true)
        } catch {
            let received = Forwarding.received.pointee
            if received != 0 { throw Terminated(signal: received) }
            throw SpawnError(code: error.code)
        }
        Forwarding.target.pointee = -pid
        if Forwarding.received.pointee != 0 { kill(-pid, Forwarding.received.pointee) }
        if terminal >= 0 {
            tcsetpgrp(terminal, pid)
            // Had it touched the terminal before it was its own, the kernel stopped it.
            kill(-pid, SIGCONT)
        }
        var status: Int32 = 0
        while true {
            guard waitpid(pid, &status, terminal >= 0 ? WUNTRACED : 0) >= 0 else {
                guard errno == EINTR else { throw SpawnError(code: errno) }
                continue
            }
            guard status & 0xff == 0x7f else { break }
            let stop = (status >> 8) & 0xff
            if stop != SIGTTOU && stop != SIGTTIN {
                // Suspended (Ctrl-Z): the shell gets the terminal and sees us stopped with it.
                tcsetpgrp(terminal, getpgrp())
                let previousStop = signal(SIGTSTP, SIG_DFL)
                raise(SIGTSTP)
                signal(SIGTSTP, previousStop)
            }
            tcsetpgrp(terminal, pid)
            kill(-pid, SIGCONT)
        }
        if terminal >= 0 { tcsetpgrp(terminal, getpgrp()) }
        let received = Forwarding.received.pointee
        if received != 0 {
            if hasModes { tcsetattr(terminal, TCSAFLUSH, &modes) }
            throw Terminated(signal: received)
        }
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
    }

    /// One of the standard descriptors when it is a terminal whose foreground group is ours, else
    /// the terminal `opened` for the child's input (none of them is one), else -1 (we run in the
    /// background, or without a terminal): then the child is not given it.
    private static func foregroundTerminal(opened: Int32) -> Int32 {
        for fd in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where isatty(fd) == 1 {
            return tcgetpgrp(fd) == getpgrp() ? fd : -1
        }
        return opened
    }

    /// The controlling terminal opened for the child's standard input when ours is not a
    /// terminal and we are the terminal's foreground, else -1 (the child then reads `/dev/null`).
    private static func standardInput() -> Int32 {
        guard isatty(STDIN_FILENO) == 0 else { return -1 }
        let terminal = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard terminal >= 0 else { return -1 }
        guard tcgetpgrp(terminal) == getpgrp() else {
            close(terminal)
            return -1
        }
        return terminal
    }

    /// Installs the forwarding handler for `number` unless the signal is ignored (`nohup`), and
    /// returns the handler it replaced, nil when it left the signal alone.
    private static func forward(_ number: Int32) -> SignalHandler? {
        let previous = signal(number, forwardHandler)
        guard unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) else {
            return previous
        }
        signal(number, SIG_IGN)
        return nil
    }

    /// A failed start or wait, with its `errno`.
    struct SpawnError: Error, CustomStringConvertible {
        let code: Int32
        var description: String { String(cString: strerror(code)) }
    }
}

/// What the forwarding handler reads and writes: allocated once, never freed.
private enum Forwarding {
    /// The editor's process group, negated (as `kill` takes it), or 0 when none runs.
    nonisolated(unsafe) static let target = cell(pid_t(0))
    /// The last signal passed on, or 0.
    nonisolated(unsafe) static let received = cell(sig_atomic_t(0))

    private static func cell<T>(_ value: T) -> UnsafeMutablePointer<T> {
        let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
        pointer.initialize(to: value)
        return pointer
    }
}

/// SIGTERM, SIGHUP while the editor runs: pass it on to the editor's group (woken, if it is
/// stopped) and note it. Async-signal-safe: `kill` only.
private func forwardHandler(_ number: Int32) {
    Forwarding.received.pointee = number
    let target = Forwarding.target.pointee
    guard target != 0 else { return }
    kill(target, number)
    kill(target, SIGCONT)
}
