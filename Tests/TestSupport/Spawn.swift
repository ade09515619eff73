import Foundation
import NotesKit

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

// The one place the tests declare C functions that Glibc's module map hides (behind _XOPEN_SOURCE,
// or as GNU extensions); they are plain C functions. NotesKit's `ProcessRunner.spawn` is not used
// for the tests' children: it can neither start a new session (a child with a controlling
// terminal, for the pseudo-terminal tests) nor change folder, and opens no file by path.
#if os(Linux)
    @_silgen_name("grantpt") private func grantpt(_ fd: Int32) -> Int32
    @_silgen_name("unlockpt") private func unlockpt(_ fd: Int32) -> Int32
    // swift-format-ignore: AlwaysUseLowerCamelCase
    @_silgen_name("posix_openpt") private func posix_openpt(_ flags: Int32) -> Int32
    @_silgen_name("ptsname") private func ptsname(_ fd: Int32) -> UnsafeMutablePointer<CChar>?
    // swift-format-ignore: AlwaysUseLowerCamelCase
    @_silgen_name("posix_spawn_file_actions_addchdir_np")
    private func posix_spawn_file_actions_addchdir_np(
        _ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ path: UnsafePointer<CChar>
    ) -> Int32
#endif

/// A pseudo-terminal pair made with posix_openpt. `run` starts a program as the leader of a new
/// session whose controlling terminal is the follower, so the program and anything it starts in
/// its process group are in the terminal's foreground, as in a terminal window.
public final class PseudoTerminal {
    public let leader: Int32
    public let followerName: String
    /// Kept open so the terminal's settings stay and it never hangs up while the child runs.
    public let follower: FileHandle

    public init() throws {
        leader = posix_openpt(O_RDWR | O_NOCTTY)
        guard leader >= 0, grantpt(leader) == 0, unlockpt(leader) == 0, let name = ptsname(leader) else {
            throw CocoaError(.fileReadUnknown)
        }
        followerName = String(cString: name)
        let fd = open(followerName, O_RDWR | O_NOCTTY)
        guard fd >= 0 else { throw CocoaError(.fileReadUnknown) }
        follower = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        // Echo would fill the leader's buffer with what we type; nobody reads it.
        var attributes = termios()
        if tcgetattr(fd, &attributes) == 0 {
            attributes.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(fd, TCSANOW, &attributes)
        }
    }

    /// Runs `program` in a new session on this terminal (stdin), types `typing`, and returns its
    /// exit status (128 + N when killed by signal N). A run that has not ended after a minute is
    /// killed with its whole process group, so a hang fails the test instead of stalling the suite.
    public func run(
        _ program: String, _ arguments: [String], environment: [String: String], cwd: String,
        stdout: Int32, stderr: Int32, typing: String?
    ) throws -> Int32 {
        // The new session leader opening a terminal without O_NOCTTY makes it its controlling one.
        let pid = try spawnChild(
            [program] + arguments, environment: environment, cwd: cwd,
            streams: [.open(followerName, flags: O_RDWR), .descriptor(stdout), .descriptor(stderr)],
            newSession: true)
        if let typing { type(typing) }
        let watchdog = DispatchWorkItem { kill(-pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
        let status = waitChild(pid)
        watchdog.cancel()
        return exitStatus(status)
    }

    /// Types text as if at the keyboard.
    public func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(leader, $0.baseAddress, $0.count) }
    }

    public func close() {
        try? follower.close()
        #if canImport(Darwin)
            _ = Darwin.close(leader)
        #else
            _ = Glibc.close(leader)
        #endif
    }
}

/// A standard stream of a spawned child: a file opened by path, or one of our descriptors.
public enum ChildStream {
    case open(String, flags: Int32)
    case descriptor(Int32)
}

#if canImport(Darwin)
    private let setSessionFlag = Int32(POSIX_SPAWN_SETSID)
#else
    /// glibc's POSIX_SPAWN_SETSID, which its module map leaves out.
    private let setSessionFlag: Int32 = 0x80
#endif

/// Starts `argv` with posix_spawn as a shell would: default signal actions and none blocked
/// (whatever the test runner's threads ignore or block), and no descriptor but `streams` (0, 1,
/// 2) — files other tests have open for writing, such as their scripted editors, must not leak
/// into this child, or executing them fails with ETXTBSY. `newSession` makes the child a session
/// leader, so a terminal it opens becomes its controlling terminal. `cwd` nil keeps ours.
/// Unlike `Process`, which reaps its children itself, the caller may wait for a stop and signal.
public func spawnChild(
    _ argv: [String], environment: [String: String], cwd: String? = nil, streams: [ChildStream],
    newSession: Bool = false
) throws -> pid_t {
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
    for (fd, stream) in zip(Int32(0)..., streams) {
        switch stream {
        case .open(let path, let flags): posix_spawn_file_actions_addopen(&actions, fd, path, flags, 0o644)
        case .descriptor(let source): posix_spawn_file_actions_adddup2(&actions, source, fd)
        }
    }
    if let cwd { _ = posix_spawn_file_actions_addchdir_np(&actions, cwd) }
    #if os(Linux)
        _ = ProcessRunner.closeDescriptors(from: 3, in: &actions)
        let closeOthers: Int32 = 0
    #else
        let closeOthers = Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
    #endif
    var defaults = sigset_t()
    sigfillset(&defaults)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    var mask = sigset_t()
    sigemptyset(&mask)
    posix_spawnattr_setsigmask(&attributes, &mask)
    posix_spawnattr_setflags(
        &attributes,
        Int16(
            POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | closeOthers | (newSession ? setSessionFlag : 0)))
    let cArgv = argv.map { strdup($0) } + [nil]
    let cEnv = environment.map { strdup($0.key + "=" + $0.value) } + [nil]
    defer { for pointer in cArgv + cEnv { free(pointer) } }
    var pid: pid_t = 0
    guard posix_spawn(&pid, argv[0], &actions, &attributes, cArgv, cEnv) == 0 else {
        throw CocoaError(.executableLoad)
    }
    return pid
}

/// `waitpid`, retried when interrupted; with `untraced`, it also returns when the child stops.
public func waitChild(_ pid: pid_t, untraced: Bool = false) -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, untraced ? WUNTRACED : 0) < 0 && errno == EINTR {}
    return status
}

/// A wait status as a shell reports it: the exit code, or 128 + the signal that ended it.
public func exitStatus(_ status: Int32) -> Int32 {
    let signal = status & 0x7f
    return signal == 0 ? (status >> 8) & 0xff : 128 + signal
}
