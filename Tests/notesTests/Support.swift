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
        if initVault { try fm.createDirectory(atPath: root.path + "/vault/.notes", withIntermediateDirectories: true) }
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
    @discardableResult
    /// With `tty`, standard input is a pseudo-terminal fed with `stdin` (for prompts and the
    /// editor); stdout and stderr stay files either way.
    func run(_ arguments: [String], stdin: String? = nil, cwd: String? = nil,
             env extra: [String: String] = [:], vaultVariable: Bool = true, tty: Bool = false) throws -> RunResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Sandbox.binary)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: cwd ?? root.path)
        var env: [String: String] = [
            "HOME": home, "XDG_CONFIG_HOME": config, "TZ": "UTC", "LANG": "C", "LC_ALL": "C",
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "TMPDIR": root.path,
        ]
        if vaultVariable { env["NOTES_VAULT"] = vault }
        env.merge(environment) { $1 }
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
        var terminal: PseudoTerminal?
        if tty {
            let pty = try PseudoTerminal()
            terminal = pty
            process.standardInput = pty.follower
        } else {
            process.standardInput = input
        }
        try process.run()
        if let terminal, let stdin { terminal.type(stdin) }
        process.waitUntilExit()
        try out.close()
        try err.close()
        try input.close()
        terminal?.close()
        return RunResult(
            status: process.terminationStatus,
            stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "<not UTF-8>",
            stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "<not UTF-8>")
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
#endif

/// A pseudo-terminal pair made with posix_openpt: the child gets the follower as its stdin.
final class PseudoTerminal {
    let leader: Int32
    let follower: FileHandle

    init() throws {
        leader = posix_openpt(O_RDWR | O_NOCTTY)
        guard leader >= 0, grantpt(leader) == 0, unlockpt(leader) == 0, let name = ptsname(leader) else {
            throw CocoaError(.fileReadUnknown)
        }
        let fd = open(String(cString: name), O_RDWR | O_NOCTTY)
        guard fd >= 0 else { throw CocoaError(.fileReadUnknown) }
        follower = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        // Echo would fill the leader's buffer with what we type; nobody reads it.
        var attributes = termios()
        if tcgetattr(fd, &attributes) == 0 {
            attributes.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(fd, TCSANOW, &attributes)
        }
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
