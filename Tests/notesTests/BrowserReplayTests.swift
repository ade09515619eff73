import Foundation
import Testing

@testable import notes

/// `--replay`'s key notation.
@Suite struct ReplayNotationTests {
    @Test func textAndNamedKeys() throws {
        let keys = try BrowserReplay.keys("cré<BS><Down><pgdn><C-t><C-J><Enter><lt>x<3>").get()
        #expect(
            keys == [
                .text("c"), .text("r"), .text("é"), .backspace, .down, .pageDown, .control("t"),
                .control("j"), .enter,
                .text("<"), .text("x"), .text("<"), .text("3"), .text(">"),
            ])
        #expect(keys.map(BrowserReplay.name).joined() == "cré<BS><Down><PgDn><C-t><C-j><Enter><lt>x<lt>3>")
    }

    @Test func anUnknownNameIsAnError() {
        #expect(throws: BrowserReplay.UnknownKey.self) { try BrowserReplay.keys("a<Dwon>").get() }
    }
}

/// `notes browse --replay KEYS [--timing]`, without a terminal.
@Suite struct ReplayCommandTests {
    @Test func aReplayPrintsTheLastScreen() throws {
        let s = try BrowserEndToEndTests.kitchen()
        let r = try s.run(["browse", "--replay", "e<Down>"], env: ["COLUMNS": "44", "LINES": "6"])
        #expect(r.status == 0, "\(r)")
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == 7 && lines.last == "", "\(r)")
        #expect(lines[0] == "My Notes                              3 of 3")
        #expect(lines[1] == "> e")
        // The dates in between are in the local form of "now"; the rest is fixed.
        #expect(lines[2].hasPrefix("   Crème brûlée  ") && lines[2].hasSuffix("  creme"))
        #expect(lines[3].hasPrefix(">  Groceries for the week  ") && lines[3].hasSuffix("  groceries"))
        #expect(lines[4].hasPrefix("   Standup notes  ") && lines[4].hasSuffix("  standup"))
        #expect(lines[5] == " Enter edit  ^N new  ^D delete  Up/Down ^K/…")
    }

    /// A replay changes nothing: the keys that would edit, delete or save only say so.
    @Test func aReplayChangesNothing() throws {
        let s = try BrowserEndToEndTests.kitchen()
        let before = try FileManager.default.contentsOfDirectory(atPath: s.vault).sorted()
        let r = try s.run(
            ["browse", "--replay", "<C-t><C-s><Down><C-d>y<C-n><Enter>"],
            env: ["COLUMNS": "80", "LINES": "6", "NOTES_EDITOR": "false"])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.hasSuffix(" Replay: would open 'groceries' in the editor\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: s.vault).sorted() == before)
        #expect(!FileManager.default.fileExists(atPath: s.config + "/notes/settings.json"))
    }

    @Test func timingPrintsALinePerKeyThenTheMedianAndMaximum() throws {
        let s = try BrowserEndToEndTests.kitchen()
        let r = try s.run(["browse", "--replay", "cr<BS><Esc><Esc>x", "--timing"])
        #expect(r.status == 0, "\(r)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 8, "\(r)")
        #expect(lines.first?.hasPrefix("start (index check, then the order): ") == true)
        #expect(lines[1] == "key        ms      hits   checked    all ms")
        // The Esc that quits is the last key replayed.
        let fields = lines[2...6].map { $0.split(separator: " ").map(String.init) }
        #expect(fields.map(\.count) == [5, 5, 5, 5, 5])
        #expect(fields.map { $0[0] } == ["c", "r", "<BS>", "<Esc>", "<Esc>"])
        #expect(
            fields.map { [$0[2], $0[3]] } == [
                ["2", "3"], ["1", "2"], ["2", "0"], ["3", "0"], ["3", "—"],
            ])
        #expect(lines.last?.hasPrefix("5 keys, 3 notes: median ") == true)
        #expect(lines.last?.hasSuffix(" ms") == true)
    }
}
