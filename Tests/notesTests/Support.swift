#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// What one run of the `notes` binary did.
struct RunResult: CustomStringConvertible {
    var status: Int32
    var stdout: String
    var stderr: String

    var description: String { "exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
}

/// A throwaway world for one end-to-end test: a temporary HOME, XDG_CONFIG_HOME and vault, and
/// a way to run the real `notes` binary in it. Everything is removed when the sandbox goes away.
final class Sandbox {
    let root: URL
    var home: String { root.path + "/home" }
    var config: String { root.path + "/config" }
    var vault: String { root.path + "/vault" }
    /// Extra environment for every run (e.g. NOTES_EDITOR).
    var environment: [String: String] = [:]

    /// Creates the folders; `initVault` also makes `vault/.notes`.
    init(initVault: Bool = true) throws {
        root = URL(fileURLWithPath: NSTemporaryDirectory())
            .appendingPathComponent("notes-e2e-" + UUID().uuidString)
        let fm = FileManager.default
        try fm.createDirectory(atPath: root.path + "/home", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: root.path + "/config", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: root.path + "/vault", withIntermediateDirectories: true)
        if initVault {
            // As `notes init` makes it.
            try fm.createDirectory(atPath: root.path + "/vault/.notes", withIntermediateDirectories: true)
            try Data("*\n".utf8).write(to: URL(fileURLWithPath: root.path + "/vault/.notes/.gitignore"))
        }
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// The built `notes` executable, beside the test bundle in the build products folder.
    static let binary: String = {
        if let override = ProcessInfo.processInfo.environment["NOTES_BINARY"] { return override }
        var candidates: [URL] = [URL(fileURLWithPath: CommandLine.arguments[0]), Bundle.main.bundleURL]
        candidates += Bundle.allBundles.map(\.bundleURL)
        for start in candidates {
            var dir = start.deletingLastPathComponent()
            for _ in 0..<4 {
                let path = dir.appendingPathComponent("notes").path
                var isDir: ObjCBool = false
                if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), !isDir.boolValue,
                   FileManager.default.isExecutableFile(atPath: path) {
                    return path
                }
                dir = dir.deletingLastPathComponent()
            }
        }
        return "notes"
    }()

    /// Runs `notes` with `arguments`, `stdin` as standard input (empty when nil), in `cwd`.
    /// With `tty`, `notes` runs as a session leader whose controlling terminal (and standard
    /// input) is a pseudo-terminal fed with `stdin`, as in a real terminal window (for prompts and
    /// the editor); stdout and stderr stay files either way.
    @discardableResult
    func run(_ arguments: [String], stdin: String? = nil, cwd: String? = nil,
             env extra: [String: String] = [:], vaultVariable: Bool = true, tty: Bool = false,
             shell: String? = nil) throws -> RunResult {
        let process = Process()
        // `shell` runs a command line in /bin/sh instead (a hint pasted into a shell).
        process.executableURL = URL(fileURLWithPath: shell == nil ? Sandbox.binary : "/bin/sh")
        process.arguments = shell.map { ["-c", $0] } ?? arguments
        process.currentDirectoryURL = URL(fileURLWithPath: cwd ?? root.path)
        var env = baseEnvironment(vaultVariable: vaultVariable)
        env.merge(extra) { $1 }
        process.environment = env
        let id = UUID().uuidString
        let outPath = root.path + "/.out-\(id)", errPath = root.path + "/.err-\(id)", inPath = root.path + "/.in-\(id)"
        try Data().write(to: URL(fileURLWithPath: outPath))
        try Data().write(to: URL(fileURLWithPath: errPath))
        try Data((tty ? "" : stdin ?? "").utf8).write(to: URL(fileURLWithPath: inPath))
        defer {
            for p in [outPath, errPath, inPath] { try? FileManager.default.removeItem(atPath: p) }
        }
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        let input = try FileHandle(forReadingFrom: URL(fileURLWithPath: inPath))
        process.standardOutput = out
        process.standardError = err
        let status: Int32
        if tty {
            let pty = try PseudoTerminal()
            status = try pty.run(
                Sandbox.binary, arguments, environment: env, cwd: cwd ?? root.path,
                stdout: out.fileDescriptor, stderr: err.fileDescriptor, typing: stdin)
            pty.close()
        } else {
            process.standardInput = input
            try process.run()
            process.waitUntilExit()
            status = process.terminationStatus
        }
        try out.close()
        try err.close()
        try input.close()
        return RunResult(
            status: status,
            stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "<not UTF-8>",
            stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "<not UTF-8>")
    }

    /// What every run gets: the temporary HOME, XDG_CONFIG_HOME and TMPDIR, UTC, the C locale,
    /// `NOTES_VAULT` (unless `vaultVariable` is false) and `environment`.
    func baseEnvironment(vaultVariable: Bool = true) -> [String: String] {
        var env: [String: String] = [
            "HOME": home, "XDG_CONFIG_HOME": config, "TZ": "UTC", "LANG": "C", "LC_ALL": "C",
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "TMPDIR": root.path,
        ]
        if vaultVariable { env["NOTES_VAULT"] = vault }
        env.merge(environment) { $1 }
        return env
    }

    /// Writes a file under the vault (folders created), with an optional modification time.
    func write(_ relative: String, _ text: String, mtime: Date? = nil) throws {
        try writeBytes(relative, Array(text.utf8), mtime: mtime)
    }

    /// Writes raw bytes under the vault.
    func writeBytes(_ relative: String, _ bytes: [UInt8], mtime: Date? = nil) throws {
        let path = vault + "/" + relative
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        if let mtime { try FileManager.default.setAttributes([.modificationDate: mtime], ofItemAtPath: path) }
    }

    /// The text of a file under the vault.
    func read(_ relative: String) throws -> String {
        try String(contentsOfFile: vault + "/" + relative, encoding: .utf8)
    }

    /// The raw bytes of a file under the vault.
    func bytes(_ relative: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: vault + "/" + relative)))
    }

    /// Whether a path exists under the vault.
    func exists(_ relative: String) -> Bool { FileManager.default.fileExists(atPath: vault + "/" + relative) }

    /// Writes an executable shell script (a scripted editor) and returns its path.
    func script(_ name: String, _ body: String) throws -> String {
        let path = root.path + "/" + name
        try ("#!/bin/sh\n" + body + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return path
    }
}

#if os(Linux)
// Glibc's module map hides these behind _XOPEN_SOURCE; they are plain C functions.
@_silgen_name("grantpt") private func grantpt(_ fd: Int32) -> Int32
@_silgen_name("unlockpt") private func unlockpt(_ fd: Int32) -> Int32
@_silgen_name("posix_openpt") private func posix_openpt(_ flags: Int32) -> Int32
@_silgen_name("ptsname") private func ptsname(_ fd: Int32) -> UnsafeMutablePointer<CChar>?
@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func posix_spawn_file_actions_addclosefrom_np(
    _ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32
@_silgen_name("posix_spawn_file_actions_addchdir_np")
private func posix_spawn_file_actions_addchdir_np(
    _ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ path: UnsafePointer<CChar>) -> Int32
#endif

/// A pseudo-terminal pair made with posix_openpt. `run` starts a program as the leader of a new
/// session whose controlling terminal is the follower, so the program and anything it starts in
/// its process group are in the terminal's foreground, as in a terminal window.
final class PseudoTerminal {
    let leader: Int32
    let followerName: String
    /// Kept open so the terminal's settings stay and it never hangs up while the child runs.
    let follower: FileHandle

    init() throws {
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
    func run(
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
    func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(leader, $0.baseAddress, $0.count) }
    }

    func close() {
        try? follower.close()
        #if canImport(Darwin)
        _ = Darwin.close(leader)
        #else
        _ = Glibc.close(leader)
        #endif
    }
}

/// A standard stream of a spawned child: a file opened by path, or one of our descriptors.
enum ChildStream {
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
func spawnChild(
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
    _ = posix_spawn_file_actions_addclosefrom_np(&actions, 3)
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
    posix_spawnattr_setflags(&attributes, Int16(
        POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | closeOthers | (newSession ? setSessionFlag : 0)))
    let cArgv = argv.map { strdup($0) } + [nil]
    let cEnv = environment.map { strdup($0.key + "=" + $0.value) } + [nil]
    defer { (cArgv + cEnv).forEach { free($0) } }
    var pid: pid_t = 0
    guard posix_spawn(&pid, argv[0], &actions, &attributes, cArgv, cEnv) == 0 else {
        throw CocoaError(.executableLoad)
    }
    return pid
}

/// `waitpid`, retried when interrupted; with `untraced`, it also returns when the child stops.
func waitChild(_ pid: pid_t, untraced: Bool = false) -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, untraced ? WUNTRACED : 0) < 0 && errno == EINTR {}
    return status
}

/// A wait status as a shell reports it: the exit code, or 128 + the signal that ended it.
func exitStatus(_ status: Int32) -> Int32 {
    let signal = status & 0x7f
    return signal == 0 ? (status >> 8) & 0xff : 128 + signal
}
