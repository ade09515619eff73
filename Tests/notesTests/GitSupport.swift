import Foundation
import TestSupport
import Testing

/// Real git repositories for end-to-end tests: git's configuration comes only from a file of the
/// sandbox (`GIT_CONFIG_GLOBAL`, no system file), so tests never depend on the machine's.
extension Sandbox {
    /// The sandbox's global git configuration file.
    var gitConfig: String { root.path + "/gitconfig" }

    /// Makes every run (of `notes` and of `git`) use a git configuration of this sandbox, with an
    /// identity unless `identity` is false, and the cache folder inside it.
    func useGit(identity: Bool = true) throws {
        var text =
            "[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n[commit]\n\tgpgsign = false\n"
        if identity { text += "[user]\n\tname = Test Writer\n\temail = writer@example.com\n" }
        try text.write(toFile: gitConfig, atomically: true, encoding: .utf8)
        environment["GIT_CONFIG_GLOBAL"] = gitConfig
        environment["GIT_CONFIG_NOSYSTEM"] = "1"
        environment["XDG_CACHE_HOME"] = root.path + "/cache"
    }

    /// Runs `git arguments` in `directory` (the vault by default) with the sandbox's environment.
    @discardableResult
    func git(
        _ arguments: [String], in directory: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> RunResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Sandbox.gitPath)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory ?? vault)
        process.environment = baseEnvironment()
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Small outputs: read after the exit would be enough, but a big log must not fill the pipe.
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return RunResult(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// `git arguments` that must succeed; its stdout.
    @discardableResult
    func gitOK(
        _ arguments: [String], in directory: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        let r = try git(arguments, in: directory)
        #expect(
            r.status == 0, "git \(arguments.joined(separator: " ")): \(r)", sourceLocation: sourceLocation)
        return r.stdout
    }

    /// Makes the vault a repository holding `files` (vault-relative, already written) and the
    /// vault's own `.notes/.gitignore`, committed and pushed to a bare `remote.git` beside it, and
    /// clones that to `other`; returns the clone's path.
    func pushedAndCloned(_ files: [String]) throws -> String {
        try useGit()
        let remote = root.path + "/remote.git"
        try gitOK(["init", "-q", "--bare", remote], in: root.path)
        try gitOK(["init", "-q"])
        try gitOK(["add", "--"] + files + [".notes/.gitignore"])
        try gitOK(["commit", "-q", "-m", "start"])
        try gitOK(["remote", "add", "origin", remote])
        try gitOK(["push", "-q", "-u", "origin", "main"])
        let other = root.path + "/other"
        try gitOK(["clone", "-q", remote, other], in: root.path)
        return other
    }

    /// Makes the vault a git repository with everything in it committed.
    func makeRepository(commitAll: Bool = true) throws {
        try useGit()
        try gitOK(["init", "-q"])
        if commitAll {
            try gitOK(["add", "-A"])
            try gitOK(["commit", "-q", "--allow-empty", "-m", "start"])
        }
    }

    /// `git status --porcelain` of the vault's repository ("" when clean).
    func gitStatus(in directory: String? = nil) throws -> String {
        try gitOK(["status", "--porcelain", "--untracked-files=all"], in: directory)
    }

    /// The subjects of the commits on HEAD, newest first.
    func commitSubjects(in directory: String? = nil) throws -> [String] {
        let r = try git(["log", "--format=%s"], in: directory)
        return r.status == 0 ? r.stdout.split(separator: "\n").map(String.init) : []
    }

    /// The files a commit changed (HEAD by default), in path order.
    func committedFiles(_ commit: String = "HEAD", in directory: String? = nil) throws -> [String] {
        try gitOK(["show", "--name-only", "--format=", commit], in: directory).split(separator: "\n").map(
            String.init)
    }

    /// The `git` executable (git is required by these tests; `.ci/run` installs it).
    static let gitPath: String = {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = String(folder) + "/git"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return "/usr/bin/git"
    }()
}
