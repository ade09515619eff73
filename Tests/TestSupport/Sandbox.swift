import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// What one run of the `notes` binary did.
public struct RunResult: CustomStringConvertible, Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String

    public init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }

    public var description: String { "exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
}

/// A throwaway world for one test: a temporary HOME, XDG_CONFIG_HOME and vault, laid out as a real
/// folder tree (after swift-foundation's `FileManagerPlayground`; no mocks), and a way to run the
/// real `notes` binary in it. Everything is removed when the sandbox goes away. Nothing is ever
/// made under the real home: the folders live under the system temporary folder (or on a tmpfs,
/// or in a folder the test gives, see `Place`).
public final class Sandbox {
    /// Where the vault, the settings folder and the home are made.
    public enum Place: Sendable {
        /// In the sandbox's own temporary folder.
        case temporary
        /// On a tmpfs (`/dev/shm`) where there is one, else as `.temporary`: crash and disk tests
        /// run commands by the hundred, and there they cost a third of what they cost where every
        /// fsync goes to a disk (what SIGKILL leaves does not depend on it).
        case memory
        /// Under this folder (a file system a test mounted), which the sandbox does not remove.
        case folder(String)
    }

    /// One entry of a folder tree laid out by `lay(_:in:)`.
    public enum Item: Sendable {
        /// A file holding UTF-8 text.
        case file(String, String)
        /// A file holding raw bytes (for files that are not UTF-8).
        case bytes(String, [UInt8])
        /// A folder and what is in it.
        case directory(String, [Item])
        /// A symbolic link to `destination` (relative to the link, or absolute).
        case symlink(String, to: String)
    }

    /// A broken set-up, so that it fails loudly instead of testing nothing.
    public struct SetupError: Error, CustomStringConvertible {
        public let what: String
        public init(_ what: String) { self.what = what }
        public var description: String { "sandbox setup failed: \(what)" }
    }

    /// The sandbox's own folder (canonical, so that paths the code computes with realpath compare
    /// equal): the run's stream files and scripts, and by default the three folders below.
    public let root: URL
    /// The folder holding `vault`, `config` and `home`: `root` unless the place says otherwise.
    public let base: String
    public var home: String { base + "/home" }
    public var config: String { base + "/config" }
    public var vault: String { base + "/vault" }
    /// Extra environment for every run (e.g. NOTES_EDITOR).
    public var environment: [String: String] = [:]
    private let ownsBase: Bool

    /// Creates the folders in `place`; `initVault` also makes `vault/.notes` as `notes init` does;
    /// `layout` is laid out in the vault.
    public init(initVault: Bool = true, place: Place = .temporary, layout items: [Item] = []) throws {
        let made = try Self.makeTemporaryFolder(in: NSTemporaryDirectory(), prefix: "notes-tests-")
        root = URL(fileURLWithPath: made)
        switch place {
        case .temporary:
            (base, ownsBase) = (made, false)
        case .memory where access("/dev/shm", W_OK) == 0:
            (base, ownsBase) = (try Self.makeTemporaryFolder(in: "/dev/shm", prefix: "notes-scratch-"), true)
        case .memory:
            (base, ownsBase) = (made + "/scratch", false)
        case .folder(let given):
            (base, ownsBase) = (given, false)
        }
        let fm = FileManager.default
        for folder in [home, config, vault] {
            try fm.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        if initVault {
            try Self.lay([.directory(".notes", [.file(".gitignore", Self.stateIgnore)])], in: vault)
        }
        try Self.lay(items, in: vault)
    }

    /// The `.gitignore` `notes init` writes in `.notes/`: the state is ignored, but this file and
    /// the vault's settings are committed.
    public static let stateIgnore = "*\n!.gitignore\n!settings.json\n"

    /// A sandbox whose vault holds `items` and nothing else (no `.notes/`), for the tests that only
    /// need a folder tree: `try Sandbox(tree: […]).test { root in … }`.
    public convenience init(tree items: [Item]) throws {
        try self.init(initVault: false, layout: items)
    }

    deinit {
        // FileManager first; what it leaves (folders nested past PATH_MAX) through descriptors.
        for path in (ownsBase ? [base] : []) + [root.path] {
            if (try? FileManager.default.removeItem(atPath: path)) == nil { RawFiles.removeTree(path) }
        }
    }

    /// Runs `body` with the vault folder (where `layout` went) and returns what it returns; for
    /// tests that only need a folder tree (`init(tree:)`).
    @discardableResult
    public func test<R>(_ body: (String) throws -> R) rethrows -> R {
        try body(vault)
    }

    /// Lays out `items` in `folder` (folders on the way made).
    public static func lay(_ items: [Item], in folder: String) throws {
        let manager = FileManager.default
        for item in items {
            switch item {
            case .file(let name, let text):
                try write(Array(text.utf8), to: folder + "/" + name)
            case .bytes(let name, let bytes):
                try write(bytes, to: folder + "/" + name)
            case .directory(let name, let children):
                try manager.createDirectory(atPath: folder + "/" + name, withIntermediateDirectories: true)
                try lay(children, in: folder + "/" + name)
            case .symlink(let name, let destination):
                try manager.createSymbolicLink(atPath: folder + "/" + name, withDestinationPath: destination)
            }
        }
    }

    private static func write(_ bytes: [UInt8], to path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw SetupError("could not write \(path)")
        }
    }

    /// A fresh folder made by mkdtemp in `parent`, as a canonical absolute path (/tmp vs /private/tmp).
    private static func makeTemporaryFolder(in parent: String, prefix: String) throws -> String {
        var parent = parent
        while parent.count > 1 && parent.hasSuffix("/") { parent.removeLast() }
        var template = Array((parent + "/" + prefix + "XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkdtemp($0) } ?? nil
        }
        guard made != nil else { throw SetupError("mkdtemp in \(parent)") }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // As other folders are (mkdtemp makes 0700): a test may run `notes` as another user.
        guard chmod(path, 0o755) == 0 else { throw SetupError("chmod \(path)") }
        guard let resolved = realpath(path, nil) else { throw SetupError("realpath \(path)") }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The built `notes` executable, beside the test bundle in the build products folder
    /// (`NOTES_BINARY` names another).
    public static let binary: String = {
        if let override = ProcessInfo.processInfo.environment["NOTES_BINARY"] { return override }
        var candidates: [URL] = [URL(fileURLWithPath: CommandLine.arguments[0]), Bundle.main.bundleURL]
        candidates += Bundle.allBundles.map(\.bundleURL)
        for start in candidates {
            var dir = start.deletingLastPathComponent()
            for _ in 0..<4 {
                let path = dir.appendingPathComponent("notes").path
                var isDir: ObjCBool = false
                if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), !isDir.boolValue,
                    FileManager.default.isExecutableFile(atPath: path)
                {
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
    /// the editor); stdout and stderr stay files either way. `wrapper` runs `notes` through a
    /// command (such as setpriv) that execs it.
    @discardableResult
    public func run(
        _ arguments: [String], stdin: String? = nil, cwd: String? = nil,
        env extra: [String: String] = [:], vaultVariable: Bool = true, tty: Bool = false,
        shell: String? = nil, wrapper: [String] = []
    ) throws -> RunResult {
        let process = Process()
        // `shell` runs a command line in /bin/sh instead (a hint pasted into a shell).
        let argv = shell.map { ["/bin/sh", "-c", $0] } ?? (wrapper + [Sandbox.binary] + arguments)
        process.executableURL = URL(fileURLWithPath: argv[0])
        process.arguments = Array(argv.dropFirst())
        process.currentDirectoryURL = URL(fileURLWithPath: cwd ?? root.path)
        var env = baseEnvironment(vaultVariable: vaultVariable)
        env.merge(extra) { $1 }
        process.environment = env
        let id = UUID().uuidString
        let outPath = root.path + "/.out-\(id)"
        let errPath = root.path + "/.err-\(id)"
        let inPath = root.path + "/.in-\(id)"
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
                argv[0], Array(argv.dropFirst()), environment: env, cwd: cwd ?? root.path,
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
    public func baseEnvironment(vaultVariable: Bool = true) -> [String: String] {
        var env: [String: String] = [
            "HOME": home, "XDG_CONFIG_HOME": config, "TZ": "UTC", "LANG": "C", "LC_ALL": "C",
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "TMPDIR": base,
        ]
        if vaultVariable { env["NOTES_VAULT"] = vault }
        env.merge(environment) { $1 }
        return env
    }

    /// Writes a file under the vault (folders created), with an optional modification time.
    public func write(_ relative: String, _ text: String, mtime: Date? = nil) throws {
        try writeBytes(relative, Array(text.utf8), mtime: mtime)
    }

    /// Writes raw bytes under the vault.
    public func writeBytes(_ relative: String, _ bytes: [UInt8], mtime: Date? = nil) throws {
        let path = vault + "/" + relative
        try Self.write(bytes, to: path)
        if let mtime { try FileManager.default.setAttributes([.modificationDate: mtime], ofItemAtPath: path) }
    }

    /// The text of a file under the vault.
    public func read(_ relative: String) throws -> String {
        try String(contentsOfFile: vault + "/" + relative, encoding: .utf8)
    }

    /// The raw bytes of a file under the vault.
    public func bytes(_ relative: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: vault + "/" + relative)))
    }

    /// Whether a path exists under the vault.
    public func exists(_ relative: String) -> Bool {
        FileManager.default.fileExists(atPath: vault + "/" + relative)
    }

    /// Writes an executable shell script (a scripted editor) and returns its path.
    public func script(_ name: String, _ body: String) throws -> String {
        let path = root.path + "/" + name
        try ("#!/bin/sh\n" + body + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return path
    }
}

/// Small file helpers for assertions.
public enum Disk {
    /// The bytes of a file, or nil when it cannot be read.
    public static func bytes(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { Array($0) }
    }

    /// The text of a file, or nil when it cannot be read or is not UTF-8.
    public static func text(_ path: String) -> String? {
        bytes(path).flatMap { String(validating: $0, as: UTF8.self) }
    }

    /// Whether something (a file, folder or link, even a dangling one) is at `path`.
    public static func exists(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0
    }

    /// The names in a folder, sorted; empty when it cannot be read.
    public static func names(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }
}
