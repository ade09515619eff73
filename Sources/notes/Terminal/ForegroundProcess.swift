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
    static func run(_ executable: String, arguments: [String], environment: [String: String]) throws -> Outcome {
        #if canImport(Darwin)
        var attributes: posix_spawnattr_t?
        #else
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU] {
            sigaddset(&defaults, signal)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        // The child gets the standard streams and nothing else we hold open (the index map, a lock).
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        posix_spawn_file_actions_init(&actions)
        for fd: Int32 in 0...2 { posix_spawn_file_actions_addinherit_np(&actions, fd) }
        let closeOthers = Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
        #else
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        _ = posix_spawn_file_actions_addclosefrom_np(&actions, 3)
        let closeOthers: Int32 = 0
        #endif
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | closeOthers))

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0.key + "=" + $0.value) } + [nil]
        defer { (argv + envp).forEach { free($0) } }

        let previousInterrupt = signal(SIGINT, SIG_IGN)
        let previousQuit = signal(SIGQUIT, SIG_IGN)
        defer {
            signal(SIGINT, previousInterrupt)
            signal(SIGQUIT, previousQuit)
        }
        var pid: pid_t = 0
        let started = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard started == 0 else { throw SpawnError(code: started) }
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
