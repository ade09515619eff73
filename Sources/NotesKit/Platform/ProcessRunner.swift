import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc

    // Glibc's module map, as NotesKit sees it, leaves out this GNU extension (glibc 2.34 and later).
    @_silgen_name("posix_spawn_file_actions_addclosefrom_np")
    private func closeFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32)
        -> Int32
#endif

#if canImport(Glibc)
    extension ProcessRunner {
        /// Makes a child spawned with `actions` close every descriptor from `first` on, so that it
        /// inherits none it was not given (glibc's `posix_spawn_file_actions_addclosefrom_np`).
        public static func closeDescriptors(
            from first: Int32, in actions: UnsafeMutablePointer<posix_spawn_file_actions_t>
        ) -> Int32 {
            closeFrom(actions, first)
        }
    }
#endif

/// What a finished program left: its exit status and everything it wrote.
public struct ProcessResult: Equatable, Sendable {
    /// The exit status, or 128 + the signal that ended it (as a shell reports it).
    public var status: Int32
    /// Everything written to standard output.
    public var stdout: [UInt8]
    /// Everything written to standard error.
    public var stderr: [UInt8]

    /// Standard output as text (invalid UTF-8 repaired).
    public var output: String { String(decoding: stdout, as: UTF8.self) }
    /// Standard error as text, trimmed of blank lines around it.
    public var errorText: String {
        String(decoding: stderr, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// A program that could not be started.
public enum ProcessError: Error, Equatable, Sendable {
    /// No executable of that name on `PATH`.
    case notFound(String)
    /// `posix_spawn` or a pipe failed with this `errno` text.
    case failed(String, reason: String)
}

/// Runs a program to completion with its output captured, as `git` is driven: started with
/// `posix_spawn` from an argument vector (never through a shell string), standard input from
/// `input` or `/dev/null`, no descriptor of ours but the three pipes (the index mapping and the
/// vault lock stay ours), default signal actions.
public enum ProcessRunner {
    /// The executable `name` is on `path` (a `PATH` value), or `name` itself when it holds a `/`.
    public static func find(_ name: String, path: String?) -> String? {
        if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
        for folder in (path ?? "/usr/bin:/bin").split(separator: ":") where !folder.isEmpty {
            let candidate = folder + "/" + name
            if access(candidate, X_OK) == 0, FileSystem.status(candidate)?.kind != .directory {
                return candidate
            }
        }
        return nil
    }

    /// Runs `executable` (a path) with `arguments` (argv[0] not included) in `environment` and
    /// waits for it; both output streams are read as they come, so neither can fill up and stall it.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String], input: [UInt8]? = nil
    ) throws(ProcessError) -> ProcessResult {
        var outPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        var inPipe: [Int32] = [-1, -1]
        guard pipe(&outPipe) == 0, pipe(&errPipe) == 0, input == nil || pipe(&inPipe) == 0 else {
            let reason = String(cString: strerror(errno))
            for fd in outPipe + errPipe + inPipe where fd >= 0 { close(fd) }
            throw .failed(executable, reason: reason)
        }
        let spawned: Result<pid_t, SpawnFailure>
        do throws(SpawnFailure) {
            spawned = .success(
                try ProcessRunner.spawn(
                    executable, argv: [executable] + arguments, environment: environment,
                    streams: [
                        0: input == nil ? .null : .descriptor(inPipe[0]), 1: .descriptor(outPipe[1]),
                        2: .descriptor(errPipe[1]),
                    ]))
        } catch {
            spawned = .failure(error)
        }
        // The child has its copies; ours of its ends must go, or reading never sees the end.
        close(outPipe[1])
        close(errPipe[1])
        if input != nil { close(inPipe[0]) }
        let pid: pid_t
        switch spawned {
        case .success(let started): pid = started
        case .failure(let failure):
            close(outPipe[0])
            close(errPipe[0])
            if input != nil { close(inPipe[1]) }
            throw failure.code == ENOENT
                ? .notFound(executable) : .failed(executable, reason: failure.description)
        }
        let (stdout, stderr) = pump(
            out: outPipe[0], err: errPipe[0], inFD: input == nil ? -1 : inPipe[1], input: input ?? [])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7f
        return ProcessResult(
            status: signal == 0 ? (status >> 8) & 0xff : 128 + signal, stdout: stdout, stderr: stderr)
    }

    /// One of a child's standard streams: a descriptor of ours, or `/dev/null`.
    public enum ChildStream: Sendable {
        case descriptor(Int32)
        case null
    }

    /// A program that `posix_spawn` could not start, with its `errno`.
    public struct SpawnFailure: Error, CustomStringConvertible {
        public let code: Int32
        public var description: String { String(cString: strerror(code)) }
    }

    /// Starts `executable` with `argv` (argv[0] included) in `environment` and returns its pid:
    /// the one way this program starts another (git, the pager, the editor). The child gets the
    /// `streams` given (the others of 0, 1, 2 inherited) and no other descriptor of ours (the index
    /// mapping, the vault lock), the default action of `defaultSignals` (nil: of every signal) and
    /// an empty signal mask; it stays in our process group, or with `newGroup` leads one of its own.
    public static func spawn(
        _ executable: String, argv: [String], environment: [String: String],
        streams: [Int32: ChildStream] = [:],
        defaultSignals: [Int32]? = nil, newGroup: Bool = false
    ) throws(SpawnFailure) -> pid_t {
        #if canImport(Darwin)
            var actions: posix_spawn_file_actions_t?
            var attributes: posix_spawnattr_t?
        #else
            var actions = posix_spawn_file_actions_t()
            var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        for (fd, stream) in streams.sorted(by: { $0.key < $1.key }) {
            switch stream {
            case .descriptor(let ours): posix_spawn_file_actions_adddup2(&actions, ours, fd)
            case .null:
                posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
            }
        }
        #if canImport(Darwin)
            for fd: Int32 in 0...2 { posix_spawn_file_actions_addinherit_np(&actions, fd) }
            let closeOthers = Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
        #else
            _ = closeFrom(&actions, 3)
            let closeOthers: Int32 = 0
        #endif
        var defaults = sigset_t()
        if let defaultSignals {
            sigemptyset(&defaults)
            for signal in defaultSignals { sigaddset(&defaults, signal) }
        } else {
            sigfillset(&defaults)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        if newGroup { posix_spawnattr_setpgroup(&attributes, 0) }
        posix_spawnattr_setflags(
            &attributes,
            Int16(
                POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | closeOthers
                    | (newGroup ? Int32(POSIX_SPAWN_SETPGROUP) : 0)))
        let argv = argv.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0.key + "=" + $0.value) } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let started = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard started == 0 else { throw SpawnFailure(code: started) }
        return pid
    }

    /// Writes `input` to `inFD` and reads `out` and `err` until both end, with `poll`, then closes them.
    private static func pump(out: Int32, err: Int32, inFD: Int32, input: [UInt8]) -> ([UInt8], [UInt8]) {
        var stdout: [UInt8] = []
        var stderr: [UInt8] = []
        var open = [out, err]
        var writeFD = inFD
        var written = 0
        if writeFD >= 0 && input.isEmpty {
            close(writeFD)
            writeFD = -1
        }
        // A reader that quits early must not end us with SIGPIPE; its EPIPE just stops the writing.
        let previousPipe = writeFD >= 0 ? signal(SIGPIPE, SIG_IGN) : nil
        defer { if let previousPipe { signal(SIGPIPE, previousPipe) } }
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !open.isEmpty || writeFD >= 0 {
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if writeFD >= 0 { fds.append(pollfd(fd: writeFD, events: Int16(POLLOUT), revents: 0)) }
            if poll(&fds, nfds_t(fds.count), -1) < 0 {
                if errno == EINTR { continue }
                break
            }
            for entry in fds where entry.revents != 0 {
                if entry.fd == writeFD {
                    let n = input[written...].withUnsafeBytes {
                        write(writeFD, $0.baseAddress, min($0.count, 65536))
                    }
                    if n > 0 { written += n }
                    if n < 0 && errno == EINTR { continue }
                    if n <= 0 || written == input.count {
                        close(writeFD)
                        writeFD = -1
                    }
                    continue
                }
                let n = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 {
                    close(entry.fd)
                    open.removeAll { $0 == entry.fd }
                } else if entry.fd == out {
                    stdout += buffer[..<n]
                } else {
                    stderr += buffer[..<n]
                }
            }
        }
        return (stdout, stderr)
    }
}
