import Foundation
import TestSupport
import Testing

/// The `createdAt` lines the tool writes itself never stop a sync: a note made on both machines
/// (git merges it with an empty base) and a note without front matter edited on both (each edit
/// gives it a `createdAt` from its own file's modification time) merge with the earlier date, the
/// rest line by line.
@Suite struct GitMergeCreatedAtTests {
    /// `NOTES_TEST_NOW` at `second` past 19:14 on 4 December 2026, UTC.
    static func now(_ second: Int) -> String { "2026-12-04T19:14:\(String(format: "%02d", second))Z" }

    static let commands: [(name: String, arguments: [String], path: String, body: String)] = [
        ("today", ["today"], "journal/2026-12-04.md", "# 2026-12-04\n"),
        ("add", ["add", "Meeting notes"], "meeting-notes.md", "Meeting notes\n"),
    ]

    @Test(arguments: [0, 1], [false, true])
    func aNoteMadeOnBothMachinesMergesWithTheEarlierCreatedAt(command: Int, thereIsEarlier: Bool) throws {
        let (name, arguments, path, body) = Self.commands[command]
        let s = try Sandbox()
        try s.write("start.md", "# Start\n")
        let other = try s.pushedAndCloned(["start.md"])
        let (there, here) = thereIsEarlier ? (3, 5) : (5, 3)
        let env = ["NOTES_EDITOR": "true"]
        var r = try s.run(
            arguments, env: env.merging(["NOTES_VAULT": other, "NOTES_TEST_NOW": Self.now(there)]) { $1 })
        #expect(r.status == 0, "\(name): \(r)")
        r = try s.run(["sync"], env: ["NOTES_VAULT": other])
        #expect(r.status == 0, "\(r)")

        r = try s.run(arguments, env: env.merging(["NOTES_TEST_NOW": Self.now(here)]) { $1 })
        #expect(r.status == 0, "\(name): \(r)")
        r = try s.run(["sync"])
        #expect(r.status == 0, "\(name): \(r)")
        let merged = "---\ncreatedAt: \(Self.now(3))\n---\n" + body
        #expect(try s.read(path) == merged)
        #expect(try s.gitStatus() == "")
        #expect(!FileManager.default.fileExists(atPath: s.vault + "/.git/rebase-merge"))

        r = try s.run(["sync"], env: ["NOTES_VAULT": other])
        #expect(r.status == 0, "\(r)")
        #expect(try String(contentsOfFile: other + "/" + path, encoding: .utf8) == merged)
    }

    @Test(arguments: [false, true])
    func aNoteWithoutFrontMatterEditedOnBothMachinesMergesCleanly(thereIsEarlier: Bool) throws {
        let s = try Sandbox()
        try s.write("plain.md", "# Plain\n\nline1\nline2\nline3\nline4\n")
        let other = try s.pushedAndCloned(["plain.md"])
        // Each clone's file has its own modification time: the `createdAt` each edit writes.
        let (early, late) = (
            Date(timeIntervalSince1970: 1_796_000_000), Date(timeIntervalSince1970: 1_796_000_060)
        )
        try FileManager.default.setAttributes(
            [.modificationDate: thereIsEarlier ? early : late], ofItemAtPath: other + "/plain.md")
        try FileManager.default.setAttributes(
            [.modificationDate: thereIsEarlier ? late : early], ofItemAtPath: s.vault + "/plain.md")

        var r = try s.run(
            ["edit", "plain", "-"], stdin: "# Plain\n\nLINE1\nline2\nline3\nline4\n",
            env: ["NOTES_VAULT": other, "NOTES_TEST_NOW": Self.now(10)])
        #expect(r.status == 0, "\(r)")
        r = try s.run(["sync"], env: ["NOTES_VAULT": other])
        #expect(r.status == 0, "\(r)")
        r = try s.run(
            ["edit", "plain", "-"], stdin: "# Plain\n\nline1\nline2\nline3\nLINE4\n",
            env: ["NOTES_TEST_NOW": Self.now(20)])
        #expect(r.status == 0, "\(r)")
        r = try s.run(["sync"])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("  changed  Plain (plain)\n"), "\(r)")
        let merged =
            "---\ncreatedAt: 2026-11-30T00:53:20Z\nupdatedAt: \(Self.now(20))\n---\n"
            + "# Plain\n\nLINE1\nline2\nline3\nLINE4\n"
        #expect(try s.read("plain.md") == merged)
        #expect(try s.gitStatus() == "")

        r = try s.run(["sync"], env: ["NOTES_VAULT": other])
        #expect(r.status == 0, "\(r)")
        #expect(try String(contentsOfFile: other + "/plain.md", encoding: .utf8) == merged)
    }
}
