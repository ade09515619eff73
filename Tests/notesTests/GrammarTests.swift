import Foundation
import TestSupport
import Testing

/// Counts printed in sentences agree with their number: each sentence with a count, at one and at
/// more than one.
@Suite struct GrammarTests {
    /// A vault, commands that prepare it, notes written after them, and the command whose
    /// sentence is checked (`$VAULT` stands for the vault folder).
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var notes: [String: String]
        var setup: [[String]] = []
        var later: [String: String] = [:]
        var command: [String]
        var stdout = ""
        var stderr = ""

        var testDescription: String { name }
    }

    static let moved = "Moved 'idea' to 'ideas/idea'; rewrote "

    static let cases: [Case] = [
        Case(
            name: "one note indexed", notes: ["a.md": "alpha\n"], command: ["index"],
            stderr: "Index updated: 1 note, 1 read ($VAULT/.notes/index).\n"),
        Case(
            name: "two notes indexed, both read", notes: ["a.md": "alpha\n", "b.md": "beta\n"],
            command: ["index"], stderr: "Index updated: 2 notes, 2 read ($VAULT/.notes/index).\n"),
        Case(
            name: "two notes indexed, one read", notes: ["a.md": "alpha\n"], setup: [["index"]],
            later: ["b.md": "beta\n"], command: ["index"],
            stderr: "Index updated: 2 notes, 1 read ($VAULT/.notes/index).\n"),
        Case(
            name: "one note removed for good", notes: ["a.md": "alpha\n"], setup: [["delete", "--yes", "a"]],
            command: ["trash", "--empty", "--yes"], stderr: "Removed 1 note for good.\n"),
        Case(
            name: "two notes removed for good", notes: ["a.md": "alpha\n", "b.md": "beta\n"],
            setup: [["delete", "--yes", "a"], ["delete", "--yes", "b"]],
            command: ["trash", "--empty", "--yes"], stderr: "Removed 2 notes for good.\n"),
        Case(
            name: "one link in one note", notes: ["idea.md": "# Idea\n", "plan.md": "See [i](idea.md).\n"],
            command: ["move", "idea", "ideas/idea"],
            stdout: moved + "1 link in 1 note:\n  plan:1  [i](idea.md) → [i](ideas/idea.md)\n"),
        Case(
            name: "two links in one note",
            notes: ["idea.md": "# Idea\n", "plan.md": "[x](idea.md) [y](idea.md)\n"],
            command: ["move", "idea", "ideas/idea"],
            stdout: moved + "2 links in 1 note:\n  plan:1  [x](idea.md) → [x](ideas/idea.md)\n"
                + "  plan:1  [y](idea.md) → [y](ideas/idea.md)\n"),
        Case(
            name: "two links in two notes",
            notes: [
                "idea.md": "# Idea\n", "plan.md": "See [i](idea.md).\n",
                "other.md": "And [x](idea.md).\n",
            ],
            command: ["move", "idea", "ideas/idea"],
            stdout: moved + "2 links in 2 notes:\n  other:1  [x](idea.md) → [x](ideas/idea.md)\n"
                + "  plan:1  [i](idea.md) → [i](ideas/idea.md)\n"),
    ]

    @Test(arguments: cases)
    func countsAgreeWithTheirNumber(_ c: Case) throws {
        let s = try Sandbox()
        for (path, text) in c.notes { try s.write(path, text) }
        for step in c.setup {
            let r = try s.run(step)
            try #require(r.status == 0, "setup \(step): \(r)")
        }
        for (path, text) in c.later { try s.write(path, text) }
        let r = try s.run(c.command)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout == c.stdout.replacingOccurrences(of: "$VAULT", with: s.vault), "\(r)")
        #expect(r.stderr == c.stderr.replacingOccurrences(of: "$VAULT", with: s.vault), "\(r)")
    }
}
