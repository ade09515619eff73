import Foundation
import NotesKit
import TestSupport
import Testing

/// The editor runs in the terminal's foreground, as git runs it: these run
/// `notes` as a session leader on a pseudo-terminal, as in a terminal window.
@Suite struct TerminalEditorTests {
    /// An editor that sets terminal modes the way vim does; outside the foreground process group
    /// the kernel stops it at the first `stty` and `notes` would wait for ever.
    static let sttyEditor = #"stty -echo && stty echo && printf '# Typed in a terminal\n' > "$1""#

    @Test func addWithAnEditorThatSetsTerminalModes() throws {
        let s = try Sandbox()
        let editor = try s.script("ed.sh", Self.sttyEditor)
        let r = try s.run(["add"], env: ["EDITOR": editor], tty: true)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout == "typed-in-a-terminal\n")
    }

    @Test func editWithAnEditorThatSetsTerminalModes() throws {
        let s = try Sandbox()
        try s.write("n.md", "old\n")
        let editor = try s.script("ed.sh", Self.sttyEditor)
        let r = try s.run(["edit", "n"], env: ["VISUAL": editor], tty: true)
        #expect(r.status == 0, "\(r)")
        #expect(try s.read("n.md").hasSuffix("---\n# Typed in a terminal\n"))
    }

    /// Ctrl-C and Ctrl-\ in the editor belong to the editor: `notes` ignores them while it waits,
    /// so the text the editor then saves is kept. (The editor runs as `sh -c '<command> "$1"'`;
    /// its parent is that shell and the shell's parent is `notes`.)
    @Test func interruptsWhileTheEditorRunsDoNotKillNotes() throws {
        let s = try Sandbox()
        let editor = try s.script(
            "ed.sh",
            #"""
            notes=$(cut -d' ' -f4 /proc/$PPID/stat)
            kill -INT "$notes"; kill -QUIT "$notes"
            printf '# Survived\n' > "$1"
            """#)
        let r = try s.run(["add"], env: ["NOTES_EDITOR": editor], tty: true)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout == "survived\n")
    }

    /// The editor gets the default SIGINT even though `notes` ignores it meanwhile.
    @Test func theEditorItselfCanBeInterrupted() throws {
        let s = try Sandbox()
        try s.write("n.md", "keep\n")
        let editor = try s.script("ed.sh", #"kill -INT $$; printf 'not reached\n' > "$1""#)
        let r = try s.run(["edit", "n"], env: ["NOTES_EDITOR": editor], tty: true)
        #expect(r.status == 1, "\(r)")
        #expect(r.stderr.contains("; nothing saved"), "\(r)")
        #expect(try s.read("n.md") == "keep\n")
    }

    /// A SIGTERM sent to `notes` while the editor is open reaches the editor (every process of
    /// it, as `sh -c` runs it), and `notes` waits for it to end, then ends as the signal says —
    /// no editor is left on the terminal. The editor records the signal and blocks on a fifo
    /// meanwhile; it says on the terminal when it is ready.
    @Test(arguments: [["add"], ["edit", "n"], ["browse"]])
    func aTermSignalWhileTheEditorRunsEndsTheEditorFirst(_ command: [String]) throws {
        let s = try Sandbox()
        try s.write("n.md", "# Note to edit\n")
        #expect(mkfifo(s.root.path + "/fifo", 0o600) == 0)
        let editor = try s.script(
            "ed.sh",
            #"""
            trap 'printf "%s\n" "$$" > "$NOTES_TEST_DIR/got-term"; kill $! 2>/dev/null; exit 0' TERM
            cat "$NOTES_TEST_DIR/fifo" > /dev/null &
            printf 'EDITOR-READY\n'
            wait $!
            """#)
        let t = try TerminalSession(s, command, env: ["NOTES_EDITOR": editor, "NOTES_TEST_DIR": s.root.path])
        defer {
            kill(-t.pid, SIGKILL)
            // A `cat` still waiting to open the fifo (a signal that came before it ran) opens it
            // now, reads its end and goes: no process outlives the test.
            let writer = open(s.root.path + "/fifo", O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
        }
        if command == ["browse"] {
            t.wait(for: "Note to edit")
            t.type("\r")
        }
        t.wait(for: "EDITOR-READY")
        kill(t.pid, SIGTERM)
        #expect(t.exitStatus() == 128 + SIGTERM, "\(t.stderr)")
        let recorded = try? String(contentsOfFile: s.root.path + "/got-term", encoding: .utf8)
        #expect(recorded != nil, "the editor never got SIGTERM")
        if let editorPID = recorded.flatMap({ pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) {
            #expect(kill(editorPID, 0) != 0 && errno == ESRCH, "the editor still runs")
        }
        #expect(t.modesRestored)
        #expect(try s.read("n.md") == "# Note to edit\n")
    }
}

/// Editor folders left by a `notes` that was killed while its editor was open.
@Suite struct AbandonedEditorSessionTests {
    /// A process ID that no process has (above Linux's and macOS's limits).
    static let deadPID = "999999999"

    /// Lays out `<TMPDIR>/notes-edit-<pid>-<suffix>/` as `notes` makes it: the text and a marker
    /// of the text handed to the editor.
    func session(_ s: Sandbox, pid: String, suffix: String, handed: String, now: String) throws -> String {
        let folder = s.root.path + "/notes-edit-\(pid)-\(suffix)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try now.write(toFile: folder + "/n.md", atomically: false, encoding: .utf8)
        _ = FileManager.default.createFile(
            atPath: folder + "/.original-" + Hashing.fnv1a(handed.utf8), contents: nil)
        return folder
    }

    @Test func unchangedFoldersOfDeadProcessesAreSweptAndTypedTextIsKeptAndReported() throws {
        let s = try Sandbox()
        let fm = FileManager.default
        let untouched = try session(s, pid: Self.deadPID, suffix: "aaaaaa", handed: "body\n", now: "body\n")
        let typed = try session(s, pid: Self.deadPID, suffix: "bbbbbb", handed: "body\n", now: "typed text\n")
        let live = try session(
            s, pid: "\(getpid())", suffix: "cccccc", handed: "body\n", now: "in progress\n")
        let editor = try s.script("ed.sh", #"printf '# New\n' > "$1""#)
        let r = try s.run(["add"], env: ["NOTES_EDITOR": editor], tty: true)
        #expect(r.status == 0, "\(r)")
        #expect(!fm.fileExists(atPath: untouched))
        #expect(!fm.fileExists(atPath: typed))
        let unsaved = s.root.path + "/notes-unsaved-\(Self.deadPID)-bbbbbb"
        #expect(try String(contentsOfFile: unsaved + "/n.md", encoding: .utf8) == "typed text\n")
        #expect(r.stderr.contains("left files in '\(unsaved)'"), "\(r)")
        #expect(fm.fileExists(atPath: live + "/n.md"))
        // Reported once: the next run says nothing more about it.
        let again = try s.run(["add"], env: ["NOTES_EDITOR": editor], tty: true)
        #expect(again.status == 0 && !again.stderr.contains("left files"), "\(again)")
        #expect(fm.fileExists(atPath: unsaved))
    }

    /// vim keeps what was typed but never written in a hidden swap file beside the text: a folder
    /// holding one is the user's work even though the text file itself is unchanged.
    @Test func aSwapFileBesideUnchangedTextIsKeptAndReportedEvenWhenQuiet() throws {
        let s = try Sandbox()
        let folder = try session(s, pid: Self.deadPID, suffix: "swpswp", handed: "body\n", now: "body\n")
        try "typed but never written".write(toFile: folder + "/.n.md.swp", atomically: false, encoding: .utf8)
        let editor = try s.script("ed.sh", #"printf '# New\n' > "$1""#)
        let r = try s.run(["-q", "add"], env: ["NOTES_EDITOR": editor], tty: true)
        #expect(r.status == 0, "\(r)")
        let unsaved = s.root.path + "/notes-unsaved-\(Self.deadPID)-swpswp"
        #expect(FileManager.default.fileExists(atPath: unsaved + "/.n.md.swp"))
        #expect(r.stderr.contains("left files in '\(unsaved)'"), "\(r)")
    }

    @Test func textOfAFailedEditorIsKeptWhereTheMessageSays() throws {
        let s = try Sandbox()
        try s.write("n.md", "keep\n")
        let editor = try s.script("ed.sh", #"printf 'typed\n' > "$1"; exit 3"#)
        let r = try s.run(["edit", "n"], env: ["NOTES_EDITOR": editor], tty: true)
        #expect(r.status == 1)
        let path = try #require(
            r.stderr.split(separator: "'").last { $0.hasSuffix("/n.md") }.map(String.init))
        #expect(path.contains("/notes-unsaved-"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "typed\n")
        let next = try s.run(
            ["edit", "n"], env: ["NOTES_EDITOR": try s.script("ok.sh", #"printf 'x\n' > "$1""#)], tty: true)
        #expect(next.status == 0, "\(next)")
        #expect(FileManager.default.fileExists(atPath: path))
    }

    /// An editor that saves Latin-1 (`café` as `caf\xE9`) leaves text `notes` cannot take as a
    /// note; it is kept where the message says, byte for byte, and the next run does not report
    /// it as an interrupted session.
    @Test func textThatIsNotUTF8IsKeptWhereTheMessageSays() throws {
        let s = try Sandbox()
        try s.write("n.md", "keep\n")
        let editor = try s.script("ed.sh", #"printf 'ok\ncaf\351\n' > "$1""#)
        let r = try s.run(["edit", "n"], env: ["NOTES_EDITOR": editor])
        #expect(r.status == 1, "\(r)")
        #expect(r.stderr.contains("is not UTF-8 (line 2, byte 4); nothing saved"), "\(r)")
        let path = try #require(
            r.stderr.split(separator: "'").first { $0.hasSuffix("/n.md") }.map(String.init))
        #expect(path.contains("/notes-unsaved-"))
        #expect(FileManager.default.contents(atPath: path) == Data("ok\ncaf".utf8 + [0xE9, 0x0A]))
        #expect(try s.read("n.md") == "keep\n")
        let next = try s.run(
            ["edit", "n"], env: ["NOTES_EDITOR": try s.script("ok.sh", #"printf 'x\n' > "$1""#)])
        #expect(next.status == 0 && !next.stderr.contains("interrupted"), "\(next)")
    }

    /// Latin-1 text from an editor that then fails is kept too (it is not the text handed over).
    @Test func textThatIsNotUTF8OfAFailedEditorIsKept() throws {
        let s = try Sandbox()
        try s.write("n.md", "keep\n")
        let editor = try s.script("ed.sh", #"printf 'caf\351\n' > "$1"; exit 3"#)
        let r = try s.run(["edit", "n"], env: ["NOTES_EDITOR": editor])
        #expect(
            r.status == 1 && r.stderr.contains("exited with status 3; nothing saved, your text is kept in"))
        let path = try #require(
            r.stderr.split(separator: "'").first { $0.hasSuffix("/n.md") }.map(String.init))
        #expect(FileManager.default.contents(atPath: path) == Data("caf".utf8 + [0xE9, 0x0A]))
    }

    /// An editor that saves under another name and removes the file it was given (or leaves a
    /// symlink there) leaves the typing beside it: the folder is kept and named. One that only
    /// removes the file leaves nothing to keep.
    @Test(arguments: [
        (#"printf 'typed\n' > "$1"; mv "$1" "$1.saved""#, "n.md.saved"),
        (#"printf 'typed\n' > "$1.real"; rm "$1"; ln -s "$1.real" "$1""#, "n.md.real"),
    ])
    func typingLeftBesideAMissingFileIsKept(script: String, saved: String) throws {
        let s = try Sandbox()
        try s.write("n.md", "keep\n")
        let r = try s.run(["edit", "n"], env: ["NOTES_EDITOR": try s.script("ed.sh", script)])
        #expect(r.status == 1 && r.stderr.contains("nothing saved, what it left is kept in"), "\(r)")
        let folder = try #require(r.stderr.split(separator: "'").last { $0.contains("/notes-unsaved-") })
        #expect(try String(contentsOfFile: folder + "/" + saved, encoding: .utf8) == "typed\n")
        let removed = try s.run(["edit", "n"], env: ["NOTES_EDITOR": try s.script("rm.sh", #"rm "$1""#)])
        #expect(removed.status == 1 && removed.stderr.contains("the editor removed the file"), "\(removed)")
        #expect(try s.read("n.md") == "keep\n")
    }
}

/// `edit` without TEXT opens the editor, whatever stdin is.
@Suite struct EditReadsStdinOnlyWhenAskedTests {
    @Test(arguments: ["", "replacement from a loop\n"])
    func editWithoutTextOpensTheEditorEvenWhenStdinIsNotATerminal(stdin: String) throws {
        let s = try Sandbox()
        try s.write("n.md", "original\n")
        let editor = try s.script("ed.sh", #"printf 'from the editor\n' >> "$1""#)
        let r = try s.run(["edit", "n"], stdin: stdin, env: ["NOTES_EDITOR": editor])
        #expect(r.status == 0, "\(r)")
        #expect(try s.read("n.md").hasSuffix("---\noriginal\nfrom the editor\n"))
    }

    /// The editor gets the terminal (or nothing), not the script's stdin: a `while read` loop's
    /// next lines stay the loop's.
    @Test func theEditorNeverReadsTheScriptsStdin() throws {
        let s = try Sandbox()
        try s.write("n.md", "original\n")
        let seen = s.root.path + "/seen"
        let editor = try s.script(
            "ed.sh", #"[ -t 0 ] || cat > '\#(seen)'; printf 'from the editor\n' >> "$1""#)
        let r = try s.run(["edit", "n"], stdin: "same8\nsame9\n", env: ["NOTES_EDITOR": editor])
        #expect(r.status == 0, "\(r)")
        #expect((try? String(contentsOfFile: seen, encoding: .utf8)) ?? "" == "")
        #expect(try s.read("n.md").hasSuffix("---\noriginal\nfrom the editor\n"))
    }

    @Test func everyNoteOfAWhileReadLoopIsEdited() throws {
        let s = try Sandbox()
        for id in ["a", "b", "c"] { try s.write(id + ".md", id + "\n") }
        let editor = try s.script("ed.sh", #"[ -t 0 ] || cat > /dev/null; printf 'edited\n' >> "$1""#)
        let bin = (Sandbox.binary as NSString).deletingLastPathComponent
        let r = try s.run(
            [], env: ["PATH": bin + ":/usr/bin:/bin", "NOTES_EDITOR": editor],
            shell: #"printf 'a\nb\nc\n' | while read id; do notes edit "$id" || exit 9; done"#)
        #expect(r.status == 0, "\(r)")
        for id in ["a", "b", "c"] { #expect(try s.read(id + ".md").hasSuffix(id + "\nedited\n"), "\(id)") }
    }

    @Test func aDashReadsStdin() throws {
        let s = try Sandbox()
        try s.write("n.md", "original\n")
        let r = try s.run(["edit", "n", "-"], stdin: "piped\n", env: ["NOTES_EDITOR": "false"])
        #expect(r.status == 0, "\(r)")
        #expect(try s.read("n.md").hasSuffix("---\npiped\n"))
    }
}

/// Commands that messages suggest work when pasted into a shell.
@Suite struct SuggestedCommandTests {
    @Test(arguments: ["Release notes/v1.13.8", "it's $HOME", "-dash first"])
    func theRestoreHintOfDeleteWorksWhenPasted(id: String) throws {
        let s = try Sandbox()
        try s.write(id + ".md", "# Note\n")
        let r = try s.run(["delete", "--yes", "--", id])
        #expect(r.status == 0, "\(r)")
        let hint = try #require(r.stderr.components(separatedBy: "bring it back with: ").last)
            .trimmingCharacters(in: .newlines)
        let bin = (Sandbox.binary as NSString).deletingLastPathComponent
        let pasted = try s.run([], env: ["PATH": bin + ":/usr/bin:/bin"], shell: hint)
        #expect(pasted.status == 0, "\(hint)\n\(pasted)")
        #expect(s.exists(id + ".md"), "\(hint)")
    }
}
