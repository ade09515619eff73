import Foundation
import TestSupport
import Testing

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// File permissions, interrupted writes, unwritable vaults and full disks, end to end
///. Each test failed before its fix.
@Suite(.tags(.heavy), .skippedInQuickLoop) struct FileSafetyTests {
    /// A pid no process can have (above any `pid_max`), so `kill(pid, 0)` says ESRCH.
    static let deadPID = Int32.max

    @Test func newFilesFollowTheUmask() throws {
        let s = try Sandbox()
        let add = try Child.run(s, ["add", "Hello"], umask: "077")
        #expect(add.status == 0, "\(add)")
        #expect(try Child.run(s, ["add", "Bye"], umask: "077").status == 0)
        #expect(try Child.run(s, ["config", "set", "scheme", "blue"], umask: "077").status == 0)
        #expect(try Child.run(s, ["index"], umask: "077").status == 0)
        #expect(try Child.run(s, ["delete", "--yes", "bye"], umask: "077").status == 0)
        #expect(mode(s.vault + "/hello.md") == 0o600)
        #expect(mode(s.config + "/notes/settings.json") == 0o600)
        #expect(mode(s.vault + "/.notes/index") == 0o600)
        let trash = s.vault + "/.notes/trash"
        let entries = try FileManager.default.contentsOfDirectory(atPath: trash)
        #expect(entries.count == 1)
        for entry in entries {
            #expect(mode(trash + "/" + entry + "/bye.md") == 0o600)
            #expect(mode(trash + "/" + entry + "/deleted.json") == 0o600)
        }
    }

    @Test func theIndexFollowsTheUmask() throws {
        let s = try Sandbox()
        chmod(s.vault, 0o755)
        try s.write("a.md", "# A\n")
        chmod(s.vault + "/a.md", 0o644)
        #expect(try Child.run(s, ["index"], umask: "077").status == 0)
        #expect(mode(s.vault + "/.notes/index") == 0o600)
    }

    @Test func anOrdinaryUmaskStillGivesOrdinaryFiles() throws {
        let s = try Sandbox()
        #expect(try Child.run(s, ["add", "Hello"], umask: "022").status == 0)
        #expect(try Child.run(s, ["add", "Shared"], umask: "002").status == 0)
        #expect(mode(s.vault + "/hello.md") == 0o644)
        #expect(mode(s.vault + "/shared.md") == 0o664)
    }

    @Test func editAndTrashKeepANotesOwnMode() throws {
        let s = try Sandbox()
        try s.write("secret.md", "# Secret\n")
        chmod(s.vault + "/secret.md", 0o600)
        let edit = try Child.run(s, ["edit", "secret", "new text"], umask: "022")
        #expect(edit.status == 0, "\(edit)")
        #expect(try s.read("secret.md").contains("new text"))
        #expect(mode(s.vault + "/secret.md") == 0o600)
        try s.write("open.md", "# Open\n")
        chmod(s.vault + "/open.md", 0o640)
        #expect(try Child.run(s, ["edit", "open", "more"], umask: "077").status == 0)
        #expect(mode(s.vault + "/open.md") == 0o640)
        #expect(try Child.run(s, ["delete", "--yes", "secret"], umask: "022").status == 0)
        let trash = s.vault + "/.notes/trash"
        let entries = try FileManager.default.contentsOfDirectory(atPath: trash)
        #expect(entries.map { mode(trash + "/" + $0 + "/secret.md") } == [0o600])
        let restore = try Child.run(s, ["restore", "secret"], umask: "022")
        #expect(restore.status == 0, "\(restore)")
        #expect(mode(s.vault + "/secret.md") == 0o600)
    }

    @Test func theIndexIsNoMoreReadableThanTheVault() throws {
        let s = try Sandbox()
        try s.write("a.md", "# A\n")
        chmod(s.vault + "/a.md", 0o644)
        chmod(s.vault, 0o700)
        #expect(try Child.run(s, ["index"], umask: "022").status == 0)
        #expect(mode(s.vault + "/.notes/index") == 0o600)
    }

    /// A first index is built without a walk that stats each file (reading stats it): the modes
    /// the reads found must still narrow the index, and a rebuild must too.
    @Test func aFirstIndexIsNoMoreReadableThanItsMostPrivateNote() throws {
        let s = try Sandbox()
        chmod(s.vault, 0o755)
        try s.write("a.md", "# A\n")
        try s.write("b.md", "# B\n")
        chmod(s.vault + "/a.md", 0o644)
        chmod(s.vault + "/b.md", 0o640)
        #expect(try Child.run(s, ["index"], umask: "022").status == 0)
        #expect(mode(s.vault + "/.notes/index") == 0o640)
        chmod(s.vault + "/b.md", 0o600)
        #expect(try Child.run(s, ["index", "--rebuild"], umask: "022").status == 0)
        #expect(mode(s.vault + "/.notes/index") == 0o600)
    }

    /// The access time of the file at `path`, in seconds.
    func accessTime(_ path: String) -> Int {
        var st = stat()
        guard stat(path, &st) == 0 else { return -1 }
        return Int(st.st_atim.tv_sec)
    }

    /// Sets a file's access time to 2020 (before its modification time, so `relatime` updates
    /// it on the next read).
    func ageAccessTime(_ path: String) {
        var times = [
            timespec(tv_sec: 1_577_836_800, tv_nsec: 0), timespec(tv_sec: time(nil), tv_nsec: 0),
        ]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
    }

    /// An index reads every note, and must not write 100,000 access times back (nor make every
    /// note look just read): a first index leaves them as they were, where a plain read of
    /// another file on the same disk updates its own (else the disk keeps no access times, and
    /// there is nothing to see).
    @Test func aFirstIndexLeavesTheNotesAccessTimesAlone() throws {
        let s = try Sandbox()
        try s.write("a.md", "# A\n\nsome text\n")
        try s.write("sub/b.md", "---\ntitle: B\n---\nmore text\n")
        // Read the slow way (a carriage return), by another reader.
        try s.write("c.md", "# C\r\n\r\nwindows text\r\n")
        let control = s.base + "/control.txt"
        try "text\n".write(toFile: control, atomically: false, encoding: .utf8)
        let notes = ["a.md", "sub/b.md", "c.md"].map { s.vault + "/" + $0 }
        for path in notes + [control] { ageAccessTime(path) }
        _ = try String(contentsOfFile: control, encoding: .utf8)
        let r = try s.run(["search", "text"])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.split(separator: "\n").count == 3, "\(r)")
        if accessTime(control) != 1_577_836_800 {
            for path in notes { #expect(accessTime(path) == 1_577_836_800, "\(path)") }
        } else {
            print("skipped: this disk keeps no access times")
        }
    }

    @Test func theIndexIsNoMoreReadableThanItsMostPrivateNote() throws {
        let s = try Sandbox()
        chmod(s.vault, 0o755)
        try s.write("a.md", "# A\n")
        try s.write("b.md", "# B\n")
        chmod(s.vault + "/a.md", 0o644)
        chmod(s.vault + "/b.md", 0o644)
        #expect(try Child.run(s, ["index"], umask: "022").status == 0)
        #expect(mode(s.vault + "/.notes/index") == 0o644)
        // A note made private later: the next command makes the index as private, though
        // nothing else changed and the index is not rewritten.
        chmod(s.vault + "/b.md", 0o600)
        let list = try Child.run(s, ["list"], umask: "022")
        #expect(list.status == 0 && list.stderr == "", "\(list)")
        #expect(mode(s.vault + "/.notes/index") == 0o600)
    }

    @Test func staleTempsOfDeadProcessesAreSweptAndLiveOnesKept() throws {
        let s = try Sandbox()
        try s.write("a.md", "# A\n")
        // The index is current, so `list` below writes nothing and must sweep `.notes` anyway.
        #expect(try Child.run(s, ["index"]).status == 0)
        let live = getpid()
        let folders = [s.vault, s.vault + "/.notes", s.config + "/notes"]
        for folder in folders {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for pid in [Self.deadPID, live] {
                try Data("half a note".utf8).write(
                    to: URL(fileURLWithPath: folder + "/.notes-tmp-\(pid)-abcdef"))
            }
            // No pid in the name: nothing says whose it is, so it stays.
            try Data().write(to: URL(fileURLWithPath: folder + "/.notes-tmp-abcdef"))
        }
        let list = try Child.run(s, ["list"])
        #expect(list.status == 0 && list.stderr == "", "\(list)")
        #expect(try Child.run(s, ["add", "Hello"]).status == 0)
        #expect(try Child.run(s, ["config", "set", "sort", "title"]).status == 0)
        for folder in folders {
            let temps = try FileManager.default.contentsOfDirectory(atPath: folder)
                .filter { $0.hasPrefix(".notes-tmp-") }.sorted()
            #expect(temps == [".notes-tmp-\(live)-abcdef", ".notes-tmp-abcdef"], "\(folder)")
        }
    }

    /// The child stops itself (test seam) with its temp written and not yet renamed; SIGTERM then
    /// finds a real temp in flight.
    @Test(arguments: [SIGTERM, SIGINT, SIGHUP])
    func aSignalDuringAWriteLeavesNoTemp(_ number: Int32) throws {
        let s = try Sandbox()
        try s.write("n.md", "# Note\n\nold text\n")
        let child = try Child.start(
            s, ["edit", "n", "-"], stdin: "new text\n", env: ["NOTES_TEST_PAUSE_BEFORE_RENAME": "1"])
        let stopped = child.wait(untraced: true)
        #expect(isStopped(stopped), "status \(stopped)")
        #expect(temps(in: s.vault).count == 1, "the write should be paused with its temp in place")
        kill(child.pid, number)
        kill(child.pid, SIGCONT)
        let status = child.wait(untraced: false)
        #expect(signalOf(status) == number, "status \(status)")
        #expect(temps(in: s.vault).isEmpty)
        #expect(try s.read("n.md") == "# Note\n\nold text\n")
    }

    /// A move writes the temps of all the notes whose links it rewrites before it renames any:
    /// interrupted then, every one of them goes, not only as many as fit a small registry.
    @Test func aSignalDuringAMoveLeavesNoTempOfAnyRewrittenNote() throws {
        let s = try Sandbox()
        try s.write("hub.md", "# Hub\n")
        for k in 0..<40 { try s.write("n\(k).md", "# N\(k)\n\nSee [the hub](hub.md).\n") }
        // The index fresh, so that the first pause is the move's, not the index's own write.
        #expect(try s.run(["index"]).status == 0)
        let child = try Child.start(
            s, ["move", "hub", "center"], env: ["NOTES_TEST_PAUSE_BEFORE_RENAME": "1"])
        let stopped = child.wait(untraced: true)
        #expect(isStopped(stopped), "status \(stopped)")
        #expect(temps(in: s.vault).count == 40, "the move should be paused with its temps in place")
        kill(child.pid, SIGTERM)
        kill(child.pid, SIGCONT)
        let status = child.wait(untraced: false)
        #expect(signalOf(status) == SIGTERM, "status \(status)")
        #expect(temps(in: s.vault).isEmpty)
        #expect(try s.read("n7.md") == "# N7\n\nSee [the hub](hub.md).\n")
    }

    @Test func aSignalTheShellIgnoresStaysIgnored() throws {
        let s = try Sandbox()
        try s.write("n.md", "# Note\n")
        // `nohup` and background jobs start a command with the signal ignored.
        let child = try Child.start(
            s, ["edit", "n", "-"], stdin: "new text\n", env: ["NOTES_TEST_PAUSE_BEFORE_RENAME": "1"],
            shellPrefix: "trap '' HUP;")
        #expect(isStopped(child.wait(untraced: true)))
        kill(child.pid, SIGHUP)
        kill(child.pid, SIGCONT)
        let status = child.wait(untraced: false)
        #expect(exitCode(status) == 0, "status \(status)")
        #expect(try s.read("n.md").contains("new text"))
    }

    @Test func indexSaysWhenItCannotWriteTheIndex() throws {
        let s = try Sandbox()
        try s.write("a.md", "# A\n")
        chmod(s.vault + "/.notes", 0o555)
        defer { chmod(s.vault + "/.notes", 0o755) }
        // Root writes through permission bits; drop the capabilities that let it, as a user is.
        let wrapper = geteuid() == 0 ? try dropFileCapabilities() : []
        // A vault we may only read keeps our index in the cache folder.
        let index = try Child.run(s, ["index"], wrapper: wrapper)
        #expect(index.status == 0, "\(index)")
        #expect(index.stderr.hasPrefix("Index updated: 1 note, 1 read (\(s.home)/.cache/notes/"), "\(index)")
        #expect(index.stdout == "")
        let list = try Child.run(s, ["list"], wrapper: wrapper)
        #expect(list.status == 0, "\(list)")
        #expect(list.stdout.hasPrefix("a\t"))
        #expect(list.stderr == "")
        #expect(!FileManager.default.fileExists(atPath: s.vault + "/.notes/index"))
        // A folder used as a vault without `init` keeps its index in the cache folder,
        // so a read-only one still gets an index, and nothing is written into it.
        let plain = s.root.path + "/plain"
        try FileManager.default.createDirectory(atPath: plain, withIntermediateDirectories: true)
        try Data("# B\n".utf8).write(to: URL(fileURLWithPath: plain + "/b.md"))
        chmod(plain, 0o555)
        defer { chmod(plain, 0o755) }
        let cached = try Child.run(s, ["index"], env: ["NOTES_VAULT": plain], wrapper: wrapper)
        #expect(cached.status == 0, "\(cached)")
        #expect(
            cached.stderr.hasPrefix("Index updated: 1 note, 1 read (\(s.home)/.cache/notes/plain-"),
            "\(cached)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: plain) == ["b.md"])
        // An unwritable cache folder is the same failure as an unwritable `.notes`.
        try FileManager.default.createDirectory(atPath: s.home + "/.cache", withIntermediateDirectories: true)
        try FileManager.default.removeItem(atPath: s.home + "/.cache/notes")
        chmod(s.home + "/.cache", 0o555)
        defer { chmod(s.home + "/.cache", 0o755) }
        let unmade = try Child.run(s, ["index"], env: ["NOTES_VAULT": plain], wrapper: wrapper)
        #expect(unmade.status == 1, "\(unmade)")
        #expect(
            unmade.stderr.hasPrefix("Error: could not write the index '\(s.home)/.cache/notes/plain-"),
            "\(unmade)")
        #expect(
            unmade.stderr.hasSuffix("/index': Permission denied; notes work without it, only slower\n"),
            "\(unmade)")
    }

    @Test func aFullDiskNamesTheFileBeingWritten() throws {
        #if os(Linux)
            let s = try Sandbox()
            let disk = s.root.path + "/disk"
            try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
            guard mount("tmpfs", disk, "tmpfs", 0, "size=64k") == 0 else {
                try Test.cancel(
                    "cannot mount a small tmpfs here (\(String(cString: strerror(errno)))); it needs root")
            }
            defer { umount2(disk, Int32(MNT_DETACH)) }
            try FileManager.default.createDirectory(
                atPath: disk + "/.notes", withIntermediateDirectories: true)
            try Data("# Same\n".utf8).write(to: URL(fileURLWithPath: disk + "/same.md"))
            fill(disk + "/filler")
            let add = try Child.run(s, ["add", "Same"], env: ["NOTES_VAULT": disk])
            #expect(add.status == 1, "\(add)")
            #expect(
                add.stderr
                    == "Error: could not write '\(disk)/same-2.md': No space left on device; nothing was changed\n"
            )
            #expect(temps(in: disk).isEmpty)
            #expect(!FileManager.default.fileExists(atPath: disk + "/same-2.md"))
        #else
            try Test.cancel("a small tmpfs is mounted with Linux's mount(2)")
        #endif
    }
}

// MARK: Helpers

private func mode(_ path: String) -> mode_t? {
    var st = stat()
    return lstat(path, &st) == 0 ? st.st_mode & 0o7777 : nil
}

private func temps(in folder: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter {
        $0.hasPrefix(".notes-tmp-")
    }
}

// The wait-status macros, which Swift does not import.
private func isStopped(_ status: Int32) -> Bool { status & 0xFF == 0x7F }
private func signalOf(_ status: Int32) -> Int32? {
    let low = status & 0x7F
    return low != 0 && low != 0x7F ? low : nil
}
private func exitCode(_ status: Int32) -> Int32? { status & 0x7F == 0 ? (status >> 8) & 0xFF : nil }

/// Writes zeros until the file system is full.
private func fill(_ path: String) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard fd >= 0 else { return }
    defer { close(fd) }
    let block = [UInt8](repeating: 0, count: 4096)
    while block.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
}

/// A command that runs another without CAP_DAC_OVERRIDE and friends, so root obeys permission
/// bits; the test is cancelled when `setpriv` is missing.
private func dropFileCapabilities() throws -> [String] {
    let candidates: [String] = ["/usr/bin/setpriv", "/bin/setpriv"]
    let setpriv = candidates.first { access($0, X_OK) == 0 }
    guard let setpriv else {
        try Test.cancel("running as root, and setpriv is not there to drop CAP_DAC_OVERRIDE")
    }
    return [setpriv, "--bounding-set=-dac_override,-dac_read_search,-fowner"]
}

/// The `notes` binary run through `/bin/sh` (for a umask, a trap, or a wrapper command) with
/// `posix_spawn`, so a test can also wait for it to stop and signal it, which `Process` (that
/// reaps its children itself) does not allow.
struct Child {
    let pid: pid_t
    let outPath: String
    let errPath: String

    /// Runs to the end and returns what it did.
    static func run(
        _ s: Sandbox, _ arguments: [String], stdin: String? = nil, env: [String: String] = [:],
        umask: String? = nil, wrapper: [String] = []
    ) throws -> RunResult {
        let prefix = umask.map { "umask \($0);" } ?? ""
        let child = try start(s, arguments, stdin: stdin, env: env, shellPrefix: prefix, wrapper: wrapper)
        let status = child.wait(untraced: false)
        defer { for p in [child.outPath, child.errPath] { unlink(p) } }
        return RunResult(
            status: exitStatus(status),
            stdout: (try? String(contentsOfFile: child.outPath, encoding: .utf8)) ?? "<not UTF-8>",
            stderr: (try? String(contentsOfFile: child.errPath, encoding: .utf8)) ?? "<not UTF-8>")
    }

    /// Starts `sh -c '<prefix> exec [wrapper…] notes "$@"'` with stdin from a file holding `stdin`.
    static func start(
        _ s: Sandbox, _ arguments: [String], stdin: String? = nil, env extra: [String: String] = [:],
        shellPrefix: String = "", wrapper: [String] = []
    ) throws -> Child {
        var env = s.baseEnvironment()
        env.merge(extra) { $1 }
        let id = UUID().uuidString
        let inPath = s.root.path + "/.in-\(id)"
        let outPath = s.root.path + "/.out-\(id)"
        let errPath = s.root.path + "/.err-\(id)"
        try Data((stdin ?? "").utf8).write(to: URL(fileURLWithPath: inPath))
        defer { unlink(inPath) }
        let argv =
            ["/bin/sh", "-c", shellPrefix + " exec \"$@\"", "sh"] + wrapper + [Sandbox.binary] + arguments
        let pid = try spawnChild(
            argv, environment: env,
            streams: [
                .open(inPath, flags: O_RDONLY), .open(outPath, flags: O_WRONLY | O_CREAT | O_TRUNC),
                .open(errPath, flags: O_WRONLY | O_CREAT | O_TRUNC),
            ])
        return Child(pid: pid, outPath: outPath, errPath: errPath)
    }

    /// `waitpid`; with `untraced`, also returns when the child stops.
    func wait(untraced: Bool) -> Int32 { waitChild(pid, untraced: untraced) }
}
