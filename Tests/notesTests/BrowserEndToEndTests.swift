import Foundation
import NotesKit
import TestSupport
import Testing

/// The browser run for real: the `notes` binary on a pseudo-terminal, keys typed,
/// the screen read back, and the terminal checked after every way out.
@Suite struct BrowserEndToEndTests {
    /// A sandbox with three notes, newest first: Crème brûlée, Groceries, Standup.
    static func kitchen() throws -> Sandbox {
        let s = try Sandbox()
        try s.write(
            "creme.md", "---\ncreatedAt: 2026-11-03T10:00:00Z\n---\n# Crème brûlée\n\nSugar on top.\n")
        try s.write(
            "groceries.md", "---\ncreatedAt: 2026-11-02T10:00:00Z\n---\n# Groceries for the week\n\n- milk\n")
        try s.write("standup.md", "---\ncreatedAt: 2026-11-01T10:00:00Z\n---\n# Standup notes\n")
        return s
    }

    static let enterAlternate = "\u{1B}[?1049h"
    static let leaveAlternate = "\u{1B}[?1049l"
    static let showCursor = "\u{1B}[?25h"

    /// The terminal as the shell had it: modes, main screen, a visible cursor — and the last
    /// thing written is the way back (show the cursor, leave the alternate screen).
    static func expectRestored(_ t: TerminalSession, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(t.modesRestored, sourceLocation: sourceLocation)
        #expect(!t.screen.alternate && t.screen.cursorVisible, sourceLocation: sourceLocation)
        let output = t.output
        let entered = output.range(of: enterAlternate, options: .backwards)
        let left = output.range(of: showCursor + leaveAlternate, options: .backwards)
        #expect(entered != nil, sourceLocation: sourceLocation)
        if let entered, let left {
            #expect(left.lowerBound > entered.lowerBound, sourceLocation: sourceLocation)
        }
        #expect(
            output.hasSuffix(showCursor + leaveAlternate), "\(output.suffix(40).debugDescription)",
            sourceLocation: sourceLocation)
    }

    @Test func typingFiltersTheRowsAndControlCQuitsRestoringTheTerminal() throws {
        let s = try Self.kitchen()
        let t = try TerminalSession(s)
        t.wait(for: "Search your note...")
        #expect(t.screen.lines[0].hasPrefix("My Notes") && t.screen.lines[0].hasSuffix("3 notes"))
        #expect(t.screen.lines[2].hasPrefix(">  Crème brûlée"))
        t.type("gro")
        t.wait(for: "1 of 3")
        #expect(t.screen.lines[1] == "> gro")
        #expect(t.screen.lines[2].hasPrefix(">  Groceries for the week"))
        #expect(!t.screen.text.contains("Crème"))
        // UTF-8 and CJK typing, and Backspace over a character of several bytes.
        t.type("\u{15}crè")
        t.wait(for: "> crè")
        #expect(t.screen.lines[2].hasPrefix(">  Crème brûlée") && !t.screen.text.contains("Groceries"))
        t.type("\u{7F}\u{7F}\u{7F}東")
        t.wait(for: "Enter: create \"東\"")
        t.type("\u{3}")
        #expect(t.exitStatus() == 0)
        Self.expectRestored(t)
        #expect(t.stderr == "")
    }

    @Test func notesAloneOnATerminalIsTheBrowserAndEscapeClearsThenQuits() throws {
        let s = try Self.kitchen()
        let t = try TerminalSession(s, [])
        t.wait(for: "My Notes")
        t.type("week")
        t.wait(for: "1 of 3")
        t.type("\u{1B}")
        t.wait(for: "Search your note...")
        #expect(t.screen.text.contains("Standup notes"))
        t.type("\u{1B}")
        #expect(t.exitStatus() == 0)
        Self.expectRestored(t)
    }

    @Test func movingAndPagingKeys() throws {
        let s = try Sandbox()
        for n in 0..<30 {
            try s.write(
                String(format: "n%02d.md", n),
                "---\ncreatedAt: 2026-10-\(String(format: "%02d", 30 - n))T00:00:00Z\n---\n# Note \(n)\n")
        }
        let t = try TerminalSession(s, columns: 40, rows: 8)
        t.wait(for: ">  Note 0")
        t.type("\u{1B}[B\u{1B}[B\u{0A}")
        t.wait(for: ">  Note 3")
        t.type("\u{0B}\u{1B}[A")
        t.wait(for: ">  Note 1")
        t.type("\u{1B}[6~")
        t.wait(for: ">  Note 6")
        t.type("\u{1B}[F")
        t.wait(for: ">  Note 29")
        t.type("\u{1B}[5~")
        t.wait(for: ">  Note 24")
        t.type("\u{1B}OH")
        t.wait(for: ">  Note 0")
        t.type("\u{3}")
        #expect(t.exitStatus() == 0)
    }

    /// Enter opens the selected note in the editor — with the terminal given back as the shell
    /// had it — and comes back to the list, refreshed, with the same note selected.
    @Test func enterEditsTheSelectedNoteAndComesBackWithItSelected() throws {
        let s = try Self.kitchen()
        let editor = try s.script(
            "ed.sh",
            #"""
            stty -a > "$NOTES_TEST_STTY"
            printf '\nAdded in the editor.\n' >> "$1"
            """#)
        let t = try TerminalSession(
            s, env: ["NOTES_EDITOR": editor, "NOTES_TEST_STTY": s.root.path + "/stty.txt"])
        t.wait(for: "Standup notes")
        t.type("\u{1B}[B\u{1B}[B")
        t.wait(for: ">  Standup notes")
        t.type("\r")
        t.wait(for: "Saved 'standup'.")
        // Edited, it is the newest: first, and still selected.
        #expect(t.screen.lines[2].hasPrefix(">  Standup notes"))
        #expect(try s.read("standup.md").hasSuffix("# Standup notes\n\nAdded in the editor.\n"))
        let stty = try String(contentsOfFile: s.root.path + "/stty.txt", encoding: .utf8)
        let modes = Set(stty.split(whereSeparator: { $0 == " " || $0 == "\n" }))
        #expect(modes.contains("icanon") && modes.contains("isig") && modes.contains("icrnl"), "\(stty)")
        // Around the editor: the alternate screen was left, then entered again.
        #expect(t.output.components(separatedBy: Self.enterAlternate).count == 3)
        t.type("\u{3}")
        #expect(t.exitStatus() == 0)
        Self.expectRestored(t)
    }

    @Test func enterWithNoMatchCreatesANoteTitledWithTheSearch() throws {
        let s = try Self.kitchen()
        let t = try TerminalSession(s, env: ["NOTES_EDITOR": "true"])
        t.wait(for: "Search your note...")
        t.type("Plan the garden")
        t.wait(for: "Enter: create \"Plan the garden\"")
        t.type("\r")
        t.wait(for: "Added 'plan-the-garden'.")
        #expect(t.screen.lines[2].hasPrefix(">  Plan the garden"))
        #expect(try s.read("plan-the-garden.md").hasSuffix("---\n# Plan the garden\n"))
        t.type("\u{3}")
        #expect(t.exitStatus() == 0)
    }

    @Test func controlNWithAnEmptyNoteSavesNothingAndSaysSo() throws {
        let s = try Self.kitchen()
        let t = try TerminalSession(s, env: ["NOTES_EDITOR": "true"])
        t.wait(for: "Search your note...")
        t.type("\u{0E}")
        t.wait(for: "The new note was empty; nothing saved.")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: s.vault).filter { $0.hasSuffix(".md") }.count
                == 3)
        t.type("\u{3}")
        #expect(t.exitStatus() == 0)
    }

    @Test func controlDAsksThenMovesTheNoteToTheTrash() throws {
        let s = try Self.kitchen()
        let t = try TerminalSession(s)
        t.wait(for: "Groceries")
        t.type("\u{1B}[B\u{04}")
        t.wait(for: "Delete \"Groceries for the week\"? y/N")
        t.type("n")
        t.wait(for: "Kept 'groceries'.")
        #expect(s.exists("groceries.md"))
        t.type("\u{04}")
        t.wait(for: "Delete \"Groceries for the week\"? y/N")
        t.type("y")
        t.wait(for: "Moved 'groceries' to the trash")
        #expect(!s.exists("groceries.md"))
        #expect(!t.screen.text.contains("Groceries for the week"))
        let trash = try s.run(["trash"])
        #expect(trash.stdout.hasPrefix("groceries\t"), "\(trash)")
        t.type("\u{3}")
        #expect(t.exitStatus() == 0)
    }

    @Test func controlTAndControlSAreSavedToTheSettingsAtOnce() throws {
        let s = try Self.kitchen()
        let settings = s.config + "/notes/settings.json"
        try FileManager.default.createDirectory(
            atPath: s.config + "/notes", withIntermediateDirectories: true)
        try "{\"custom\": 1}\n".write(toFile: settings, atomically: true, encoding: .utf8)
        let t = try TerminalSession(s)
        t.wait(for: "Search your note...")
        t.type("\u{14}")
        t.wait(for: "Dark mode on; saved.")
        #expect(
            try String(contentsOfFile: settings, encoding: .utf8)
                == "{\n  \"custom\" : 1,\n  \"isDarkOn\" : true\n}\n")
        t.type("\u{13}")
        t.wait(for: "Theme blue; saved.")
        #expect(
            try String(contentsOfFile: settings, encoding: .utf8)
                == "{\n  \"custom\" : 1,\n  \"isDarkOn\" : true,\n  \"scheme\" : \"blue\"\n}\n")
        t.type("\u{3}")
        #expect(t.exitStatus() == 0)
    }

    /// A kill from outside — `kill`, or the terminal window closing — restores the terminal first.
    @Test(arguments: [SIGTERM, SIGHUP, SIGINT])
    func aSignalRestoresTheTerminal(signal: Int32) throws {
        let s = try Self.kitchen()
        let t = try TerminalSession(s)
        t.wait(for: "Search your note...")
        t.type("cr")
        t.wait(for: "> cr")
        kill(t.pid, signal)
        #expect(t.exitStatus() == 128 + signal)
        Self.expectRestored(t)
    }

    @Test func aResizeRedrawsAtTheNewSize() throws {
        let s = try Self.kitchen()
        let t = try TerminalSession(s, columns: 80, rows: 24)
        t.wait(for: "Search your note...")
        t.resize(columns: 20, rows: 5)
        t.wait(for: "the footer on the last of 5 rows") { $0.lines[4].hasPrefix(" Enter edit") }
        #expect(t.screen.lines[0] == "My Notes     3 notes")
        t.type("\u{3}")
        #expect(t.exitStatus() == 0)
    }

    @Test func aNoteAddedByAnotherProgramShowsUpWithoutAKey() throws {
        let s = try Self.kitchen()
        let t = try TerminalSession(s)
        t.wait(for: "Search your note...")
        try s.write("outside.md", "---\ncreatedAt: 2026-11-29T10:00:00Z\n---\n# Written from outside\n")
        t.wait(for: "Written from outside")
        // It is the newest; the note that was selected stays selected.
        #expect(t.screen.lines[2].hasPrefix("   Written from outside"))
        #expect(t.screen.lines[3].hasPrefix(">  Crème brûlée"))
        t.type("\u{3}")
        #expect(t.exitStatus() == 0)
    }

    /// Without a terminal on both standard input and output, `notes` is `notes list`: it never
    /// touches the terminal's modes or screen.
    @Test(arguments: [(true, false), (false, true)])
    func withoutTwoTerminalsNotesIsList(stdin: Bool, stdout: Bool) throws {
        let s = try Self.kitchen()
        let t = try TerminalSession(s, [], stdin: stdin, stdout: stdout)
        #expect(t.exitStatus() == 0)
        #expect(t.modesRestored)
        #expect(!t.output.contains(Self.enterAlternate))
        if stdout { #expect(t.screen.lines[0].hasPrefix(" Crème brûlée")) }
    }

    @Test func browseWithoutATerminalIsAnError() throws {
        let s = try Self.kitchen()
        let r = try s.run(["browse"])
        #expect(r.status == 1)
        #expect(
            r.stderr == "Error: the browser needs a terminal (standard input and output); in a script use "
                + "'notes list' or 'notes search'\n")
        #expect(try s.run([]).stdout.hasPrefix("creme\t"))
    }
}
