#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// Files that are not what they should be, and bytes that are not text (SPEC §9): a clear message
/// or correct handling, the right exit code, nothing changed, and never a hang. Runs go through a
/// pseudo-terminal, whose runner kills a run that has not ended after a minute, so a hang fails.
@Suite struct BadInputTests {
    /// Opening a FIFO for reading waits for a writer: an index replaced by one must be refused
    /// at once (then replaced by a real index), not waited on.
    @Test func anIndexReplacedByAFIFOIsNotWaitedOn() throws {
        let s = try Sandbox()
        try s.write("a.md", "# Alpha\n")
        #expect(mkfifo(s.vault + "/.notes/index", 0o600) == 0)
        let list = try s.run(["list"], tty: true)
        #expect(list.status == 0, "\(list)")
        #expect(list.stdout.hasPrefix("a\t"))
        var st = stat()
        #expect(lstat(s.vault + "/.notes/index", &st) == 0 && st.st_mode & S_IFMT == S_IFREG)
    }

    @Test func anIndexReplacedByAFolderStillLists() throws {
        let s = try Sandbox()
        try s.write("a.md", "# Alpha\n")
        try FileManager.default.createDirectory(atPath: s.vault + "/.notes/index", withIntermediateDirectories: false)
        let list = try s.run(["list"], tty: true)
        #expect(list.status == 0 && list.stdout.hasPrefix("a\t"), "\(list)")
        let index = try s.run(["index"], tty: true)
        #expect(index.status == 1)
        #expect(index.stderr.contains("could not write the index '\(s.vault)/.notes/index'"), "\(index)")
    }

    @Test func aSettingsFileThatIsAFIFOIsNotWaitedOn() throws {
        let s = try Sandbox()
        try s.write("a.md", "# Alpha\n")
        try FileManager.default.createDirectory(atPath: s.config + "/notes", withIntermediateDirectories: true)
        #expect(mkfifo(s.config + "/notes/settings.json", 0o600) == 0)
        let list = try s.run(["list"], tty: true)
        #expect(list.status == 0 && list.stdout.hasPrefix("a\t"), "\(list)")
        #expect(list.stderr.contains("not a regular file"), "\(list)")
    }

    /// A note file replaced by a FIFO after the walk saw it is skipped with a warning, not waited on.
    @Test func aNoteThatIsAFIFOIsSkipped() throws {
        let s = try Sandbox()
        try s.write("a.md", "# Alpha\n")
        #expect(mkfifo(s.vault + "/pipe.md", 0o600) == 0)
        let list = try s.run(["list"], tty: true)
        #expect(list.status == 0 && list.stdout.hasPrefix("a\t") && !list.stdout.contains("pipe"), "\(list)")
        let show = try s.run(["show", "pipe"], tty: true)
        #expect(show.status == 1, "\(show)")
    }

    /// Arguments and `NOTES_VAULT` with bytes that are not UTF-8 (only a shell can pass them):
    /// a message and exit 1, nothing written.
    @Test func bytesThatAreNotUTF8InArgumentsAndTheVaultPath() throws {
        let s = try Sandbox()
        try s.write("a.md", "# Alpha\n")
        let show = try s.run([], shell: "'\(Sandbox.binary)' show \"$(printf 'a\\377')\"")
        #expect(show.status == 1 && show.stderr.hasPrefix("Error: "), "\(show)")
        let search = try s.run([], shell: "'\(Sandbox.binary)' search \"$(printf '\\377\\376')\"")
        #expect(search.status == 0 && search.stdout.isEmpty, "\(search)")
        let vault = try s.run([], shell: "NOTES_VAULT=\"$(printf '\(s.root.path)/\\377')\" '\(Sandbox.binary)' list")
        #expect(vault.status == 1 && vault.stderr.hasPrefix("Error: "), "\(vault)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: s.vault).sorted() == [".notes", "a.md"])
    }
}

@Suite struct RelativeVaultTests {
    /// `--vault .` (and `./`, `../vault`): a note is found by its ID, its file name and its path,
    /// as with an absolute vault path.
    @Test(arguments: [".", "./", "../vault"])
    func aRelativeVaultPathFindsNotes(_ vault: String) throws {
        let s = try Sandbox()
        try s.write("plan.md", "# Plan\n")
        try s.write("work/standup.md", "# Standup\n")
        let cwd = vault == "../vault" ? s.home : s.vault
        for argument in ["plan", "plan.md", "work/standup"] {
            let show = try s.run(["--vault", vault, "show", argument], cwd: cwd, vaultVariable: false)
            #expect(show.status == 0 && show.stdout.hasPrefix("# "), "\(vault) \(argument): \(show)")
        }
        let edit = try s.run(["--vault", vault, "edit", "plan", "more"], cwd: cwd, vaultVariable: false)
        #expect(edit.status == 0, "\(edit)")
        #expect(try String(contentsOfFile: s.vault + "/plan.md", encoding: .utf8).contains("more"))
    }
}
