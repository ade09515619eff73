import NotesKit

/// Runs a program in the terminal's foreground and waits for it, as git runs an editor.
///
/// The child stays in our process group, so when that group owns the terminal (the usual case
/// in a shell) the child may read it and change its modes; a child in a group of its own, as
/// Foundation's `Process` makes, is stopped by the kernel (SIGTTOU) at vim's first `tcsetattr`.
/// While it runs we ignore SIGINT and SIGQUIT, which the terminal sends to the whole group: they
/// are the child's keys (Ctrl-C in vim). The child gets their default actions back.
enum ForegroundProcess {
    /// How the child ended.
    enum Outcome: Equatable {
        case exited(Int32)
        case signaled(Int32)
    }

    /// Starts `executable` with `arguments` (argv[0] included) and `environment`, waits for it.
    /// Throws the `errno` of a failed start.
    static func run(_ executable: String, arguments: [String], environment: [String: String]) throws
        -> Outcome
    {
        let previousInterrupt = signal(SIGINT, SIG_IGN)
        let previousQuit = signal(SIGQUIT, SIG_IGN)
        defer {
            signal(SIGINT, previousInterrupt)
            signal(SIGQUIT, previousQuit)
        }
        // The child gets the standard streams and nothing else we hold open (the index map, a
        // lock), and the default actions of the signals we (or a shell) may have changed.
        let pid: pid_t
        do throws(ProcessRunner.SpawnFailure) {
            pid = try ProcessRunner.spawn(
                executable, argv: arguments, environment: environment,
                defaultSignals: [
                    SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU,
                ])
        } catch {
            throw SpawnError(code: error.code)
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw SpawnError(code: errno) }
        }
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
    }

    /// A failed start or wait, with its `errno`.
    struct SpawnError: Error, CustomStringConvertible {
        let code: Int32
        var description: String { String(cString: strerror(code)) }
    }
}
