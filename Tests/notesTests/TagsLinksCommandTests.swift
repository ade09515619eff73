import Foundation
import TestSupport
import Testing

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// `notes tags`, `list --tag`, `search #tag` and `tags` in JSON notes, end to end.
@Suite struct TagsCommandTests {
    static func vault() throws -> Sandbox {
        let s = try Sandbox()
        try s.write(
            "old.md",
            "---\ncreatedAt: 2020-01-01T00:00:00Z\ntags: [Café, work]\n---\n# Old\n\n#work/meetings\n")
        try s.write("new.md", "---\ncreatedAt: 2024-01-01T00:00:00Z\n---\n# New\n\n#cafe #Work and `#code`\n")
        try s.write("plain.md", "---\ncreatedAt: 2022-01-01T00:00:00Z\n---\n# Plain\n\nno tags # here\n")
        return s
    }

    @Test func tagsAreCountedMostUsedFirstAndSpelledAsInTheNewestNote() throws {
        let s = try Self.vault()
        let piped = try s.run(["tags"])
        #expect(piped.status == 0 && piped.stderr == "", "\(piped)")
        #expect(piped.stdout == "cafe\t2\nWork\t2\nwork/meetings\t1\n")
        let json = try s.run(["tags", "--json"])
        #expect(
            json.stdout == """
                [
                  {
                    "tag": "cafe",
                    "count": 2
                  },
                  {
                    "tag": "Work",
                    "count": 2
                  },
                  {
                    "tag": "work/meetings",
                    "count": 1
                  }
                ]

                """)
        let human = try s.run(["tags", "--color", "always"], env: ["COLUMNS": "40"])
        #expect(human.stdout.contains("cafe") && human.stdout.contains("work/meetings"), "\(human)")
    }

    @Test func listByTagIsAnAndAndAParentMatchesItsNestedTags() throws {
        let s = try Self.vault()
        #expect(
            try s.run(["list", "--tag", "work"]).stdout.split(separator: "\n").map {
                $0.split(separator: "\t")[0]
            }
                == ["new", "old"])
        #expect(
            try s.run(["list", "--tag", "WORK", "--tag", "café"]).stdout.split(separator: "\n").count == 2)
        #expect(try s.run(["ls", "-t", "work/meetings"]).stdout.hasPrefix("old\t"))
        #expect(try s.run(["list", "--tag", "work", "--tag", "meetings"]).stdout == "")
        #expect(try s.run(["list", "--tag", "code"]).stdout == "")
        #expect(try s.run(["search", "#work"]).stdout.split(separator: "\n").count == 2)
        #expect(try s.run(["search", "#meetings"]).stdout == "")
        #expect(try s.run(["search", "#work/meetings"]).stdout.hasPrefix("old\t"))
        // Quoted, "#café" is text: only the note that says it in its body, not the one whose front
        // matter has the tag.
        #expect(try s.run(["search", "#café"]).stdout.split(separator: "\n").count == 2)
        #expect(
            try s.run(["search", "\"#café\""]).stdout.split(separator: "\n").map {
                $0.split(separator: "\t")[0]
            } == ["new"])
    }

    @Test func jsonNotesCarryTheirOwnSpellings() throws {
        let s = try Self.vault()
        let list = try s.run(["list", "--json", "--tag", "work/meetings"])
        #expect(
            list.stdout.contains(
                "\"tags\": [\n      \"Café\",\n      \"work\",\n      \"work/meetings\"\n    ]"), "\(list)")
        let show = try s.run(["show", "new", "--json"])
        #expect(show.stdout.contains("\"tags\": [\n    \"cafe\",\n    \"Work\"\n  ]"), "\(show)")
        #expect(try s.run(["show", "plain", "--json"]).stdout.contains("\"tags\": []"))
    }

    /// The index holds tags and links; an edited note's are read again, and `tags` and
    /// `backlinks` say so at once, the other notes read from the index.
    @Test func tagsAndLinksFollowAnEditedNote() throws {
        let s = try Self.vault()
        try s.write("linker.md", "# Linker\n\n[[old]]\n")
        #expect(try s.run(["backlinks", "old"]).stdout == "linker\t3\t[[old]]\n")
        try s.write(
            "linker.md", "# Linker\n\n#fresh [[new]]\n", mtime: Date(timeIntervalSince1970: 1_700_000_000))
        #expect(try s.run(["backlinks", "old"]).stdout == "")
        #expect(try s.run(["backlinks", "new"]).stdout == "linker\t3\t[[new]]\n")
        #expect(try s.run(["tags"]).stdout.contains("fresh\t1\n"))
        try FileManager.default.removeItem(atPath: s.vault + "/new.md")
        #expect(try s.run(["links", "--broken"]).stdout == "linker\t3\t[[new]]\n")
        #expect(try s.run(["tags"]).stdout == "Café\t1\nfresh\t1\nwork\t1\nwork/meetings\t1\n")
    }
}

/// `notes links`, `notes backlinks`, `notes links --broken`, end to end.
@Suite struct LinksCommandTests {
    static func vault() throws -> Sandbox {
        let s = try Sandbox()
        try s.write(
            "hub.md", "# Hub\n\n[[work/plan|the plan]] and [[Missing]]\n[idea](ideas/idea.md#Why)\n## Top\n")
        try s.write("work/plan.md", "# Plan\n\nBack to [[hub]].\n")
        try s.write("ideas/idea.md", "---\ntitle: Big idea\n---\nsee [[Hub#Top]] and ![[plan]]\n# Why\n")
        return s
    }

    @Test func aNotesLinksWithWhereEachGoes() throws {
        let s = try Self.vault()
        let piped = try s.run(["links", "hub"])
        #expect(
            piped.stdout
                == "3\twork/plan\t[[work/plan|the plan]]\n3\t\t[[Missing]]\n4\tideas/idea\t[idea](ideas/idea.md#Why)\n",
            "\(piped)")
        let json = try s.run(["links", "hub", "--json"])
        #expect(
            json.stdout.contains(
                """
                  {
                    "line": 4,
                    "text": "[idea](ideas/idea.md#Why)",
                    "target": "ideas/idea.md",
                    "heading": "Why",
                    "id": "ideas/idea",
                    "path": "ideas/idea.md",
                    "title": "Big idea",
                    "file": null,
                    "broken": false,
                    "reason": null
                  }
                """), "\(json)")
        #expect(
            json.stdout.contains(
                """
                    "target": "Missing",
                    "heading": null,
                    "id": null,
                    "path": null,
                    "title": null,
                    "file": null,
                    "broken": true,
                    "reason": "no-note"
                """))
        #expect(try s.run(["links", "hub", "--broken"]).stdout == "3\t\t[[Missing]]\n")
    }

    @Test func backlinksGiveTheLinkingNoteAndLine() throws {
        let s = try Self.vault()
        #expect(
            try s.run(["backlinks", "hub"]).stdout == "ideas/idea\t4\t[[Hub#Top]]\nwork/plan\t3\t[[hub]]\n")
        let json = try s.run(["backlinks", "work/plan", "--json"])
        #expect(
            json.stdout == """
                [
                  {
                    "id": "hub",
                    "path": "hub.md",
                    "title": "Hub",
                    "line": 3,
                    "text": "[[work/plan|the plan]]"
                  },
                  {
                    "id": "ideas/idea",
                    "path": "ideas/idea.md",
                    "title": "Big idea",
                    "line": 4,
                    "text": "![[plan]]"
                  }
                ]

                """, "\(json)")
        let none = try s.run(["backlinks", "hub", "--color", "always"], env: ["COLUMNS": "60"])
        #expect(none.stdout.contains("ideas/idea:4"))
    }

    @Test func brokenLinksOfTheWholeVault() throws {
        let s = try Self.vault()
        #expect(try s.run(["links", "--broken"]).stdout == "hub\t3\t[[Missing]]\n")
        #expect(try s.run(["links", "--broken", "--json"]).stdout.contains("\"text\": \"[[Missing]]\""))
        let human = try s.run(["links", "--broken", "--color", "always"], env: ["COLUMNS": "80"])
        #expect(human.stdout.contains("hub:3") && human.stdout.contains("[[Missing]]"), "\(human)")
    }

    @Test func linksWantsANoteOrBroken() throws {
        let s = try Self.vault()
        let r = try s.run(["links"])
        #expect(r.status == 64)
        #expect(
            r.stderr.hasPrefix(
                "Error: Missing the note whose links to list (or --broken).\nUsage: notes links"))
        let missing = try s.run(["backlinks", "nope"])
        #expect(missing.status == 1 && missing.stderr == "Error: no note matches 'nope'\n")
    }
}

/// `notes move`, end to end: the file moves inside the vault, every link to it is
/// rewritten — its target only — and nothing else changes.
@Suite struct MoveCommandTests {
    static let plan =
        "---\ncreatedAt: 2026-01-02T00:00:00Z\nupdatedAt: 2026-01-03T00:00:00Z\ntags: [work]\n---\n# Plan\n\n"
        + "Intro line.\nSee [[idea]] and [[idea#Why|the reason]] and ![[idea]].\nAlso [up](../idea.md#Why \"title\").\nEnd.\n"
    static let deep =
        "# Deep\n\n| [[idea\\|alias in a table]] | `[[idea]]` |\n\n```\n[[idea]]\n```\n[[Big idea]] [[other]]\n"

    static func vault() throws -> Sandbox {
        let s = try Sandbox()
        try s.write(
            "idea.md",
            "---\ncreatedAt: 2026-01-01T00:00:00Z\n---\n# Big idea\n\nSee [sib](work/plan.md).\n## Why\n")
        try s.write("work/plan.md", plan)
        try s.write("far/away/deep.md", deep)
        try s.write("other.md", "# Other\n")
        return s
    }

    /// Everything in the vault but its state and git's.
    static func snapshot(_ s: Sandbox) -> TreeSnapshot {
        TreeSnapshot(s.vault, skipping: [".notes", ".git"])
    }

    @Test func linksInOtherFoldersFollowWithAliasesAndHeadingsKept() throws {
        let s = try Self.vault()
        let r = try s.run(["move", "idea", "archive/2026/idea"])
        #expect(r.status == 0 && r.stderr == "", "\(r)")
        #expect(
            r.stdout == """
                Moved 'idea' to 'archive/2026/idea'; rewrote 2 links in 2 notes:
                  archive/2026/idea:6  [sib](work/plan.md) → [sib](../../work/plan.md)
                  work/plan:10  [up](../idea.md#Why "title") → [up](../archive/2026/idea.md#Why "title")

                """)
        #expect(!s.exists("idea.md") && s.exists("archive/2026/idea.md"))
        // File-name links still find it; only the relative paths changed; front matter untouched.
        #expect(
            try s.read("work/plan.md")
                == Self.plan.replacingOccurrences(of: "../idea.md", with: "../archive/2026/idea.md"))
        #expect(try s.read("far/away/deep.md") == Self.deep)
        #expect(try s.run(["links", "--broken"]).stdout == "")
        #expect(try s.run(["backlinks", "archive/2026/idea"]).stdout.split(separator: "\n").count == 6)
    }

    @Test func aNewNameRewritesEveryStyleAndKeepsTheRest() throws {
        let s = try Self.vault()
        let r = try s.run(["mv", "idea", "ideas/concept"])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.hasPrefix("Moved 'idea' to 'ideas/concept'; rewrote 6 links in 3 notes:\n"))
        #expect(
            try s.read("work/plan.md")
                == Self.plan
                .replacingOccurrences(of: "[[idea", with: "[[concept")
                .replacingOccurrences(of: "![[idea]]", with: "![[concept]]")
                .replacingOccurrences(of: "../idea.md", with: "../ideas/concept.md"))
        // In a table the alias keeps its `\|`; code is not a link; a title link still resolves.
        #expect(
            try s.read("far/away/deep.md")
                == Self.deep.replacingOccurrences(of: "[[idea\\|", with: "[[concept\\|"))
        #expect(try s.read("ideas/concept.md").contains("See [sib](../work/plan.md)."))
        let renamed = try s.run(["rename", "ideas/concept", "ideas/"])
        #expect(
            renamed.status == 1 && renamed.stderr.contains("'ideas/concept' already exists"), "\(renamed)")
    }

    @Test func aDryRunChangesNothing() throws {
        let s = try Self.vault()
        _ = try s.run(["index"])
        let before = Self.snapshot(s)
        let r = try s.run(["move", "--dry-run", "idea", "archive/idea"])
        #expect(r.status == 0, "\(r)")
        #expect(
            r.stdout == """
                Would move 'idea' to 'archive/idea' and rewrite 2 links in 2 notes:
                  archive/idea:6  [sib](work/plan.md) → [sib](../work/plan.md)
                  work/plan:10  [up](../idea.md#Why "title") → [up](../archive/idea.md#Why "title")

                """)
        #expect(Self.snapshot(s) == before)
        #expect(!s.exists("archive"))
    }

    /// `git diff` after a move shows the rename and exactly the rewritten link lines.
    @Test func gitShowsARenameAndOnlyLinkLines() throws {
        let s = try Self.vault()
        try s.write(".gitignore", ".notes/\n")
        let git = { (arguments: [String]) throws -> RunResult in
            try s.run(
                [], cwd: s.vault,
                shell: "git -c user.name=Test -c user.email=t@example.com "
                    + arguments.map { "'\($0)'" }.joined(separator: " "))
        }
        for step in [["init", "-q"], ["add", "-A"], ["commit", "-qm", "before"]] {
            let r = try git(step)
            try #require(r.status == 0, "\(r)")
        }
        #expect(try s.run(["move", "idea", "ideas/concept"]).status == 0)
        _ = try git(["add", "-A"])
        let status = try git(["status", "--porcelain"])
        #expect(
            status.stdout.split(separator: "\n").sorted() == [
                "M  far/away/deep.md", "M  work/plan.md", "R  idea.md -> ideas/concept.md",
            ], "\(status)")
        let diff = try git(["diff", "--cached", "-M", "--unified=0", "--no-color"]).stdout
        let changed = diff.split(separator: "\n").filter {
            ($0.hasPrefix("+") || $0.hasPrefix("-")) && !$0.hasPrefix("+++") && !$0.hasPrefix("---")
        }
        #expect(changed.count == 8, "\(diff)")
        #expect(changed.allSatisfy { $0.contains("[[") || $0.contains("](") }, "\(diff)")
        let removed = changed.filter { $0.hasPrefix("-") }.map { $0.dropFirst() }
        let added = changed.filter { $0.hasPrefix("+") }.map { String($0.dropFirst()) }
        #expect(
            removed.map {
                $0.replacingOccurrences(of: "[[idea", with: "[[concept").replacingOccurrences(
                    of: "../idea.md", with: "../ideas/concept.md"
                )
                .replacingOccurrences(of: "(work/plan.md)", with: "(../work/plan.md)")
                .replacingOccurrences(of: "`[[concept]]`", with: "`[[idea]]`")  // code is no link
            } == added, "\(diff)")
        #expect(!diff.contains("updatedAt"))
    }

    /// The guard: a note written while the move is rewriting (here: after its temp is written,
    /// before it is renamed) is left as the user wrote it, and reported; the others are
    /// rewritten, and the command fails.
    @Test func aNoteThatChangesDuringTheMoveIsLeftAlone() throws {
        let s = try Self.vault()
        #expect(try s.run(["index"]).status == 0)
        let child = try Child.start(
            s, ["move", "idea", "ideas/concept"], env: ["NOTES_TEST_PAUSE_BEFORE_RENAME": "1"])
        let stopped = child.wait(untraced: true)
        try #require(stopped & 0xFF == 0x7F, "the move should stop before its renames; status \(stopped)")
        let mine = "# Plan\n\nRewritten by hand meanwhile: [[idea]]\n"
        try s.write("work/plan.md", mine)
        kill(child.pid, SIGCONT)
        let status = child.wait(untraced: false)
        let stderr = (try? String(contentsOfFile: child.errPath, encoding: .utf8)) ?? ""
        let stdout = (try? String(contentsOfFile: child.outPath, encoding: .utf8)) ?? ""
        defer { for p in [child.outPath, child.errPath] { unlink(p) } }
        #expect(exitStatus(status) == 1, "stdout \(stdout) stderr \(stderr)")
        #expect(stderr.contains("'work/plan' changed on disk during the move"), "\(stderr)")
        #expect(try s.read("work/plan.md") == mine)
        #expect(try s.read("far/away/deep.md").contains("[[concept\\|alias in a table]]"))
        #expect(stdout.contains("far/away/deep:3"))
        #expect(!stdout.contains("work/plan:"))
        #expect(s.exists("ideas/concept.md"))
    }

    /// The guard: the new place must be inside the vault, visible and free; when it is not,
    /// the command fails (exit 1) and nothing changes — and a dry run says so as well.
    @Test(
        arguments: [
            ("../outside", "outside the vault"), ("/tmp/x", "outside the vault"),
            ("a/../../x", "outside the vault"),
            (".hidden/x", "hidden folder"), ("a/.dotfile", "hidden file"), ("other", "already exists"),
            ("work/plan.md", "already exists"),
        ], [false, true])
    func aBadNewPlaceChangesNothing(_ target: (path: String, fragment: String), dryRun: Bool) throws {
        let s = try Self.vault()
        let before = Self.snapshot(s)
        let r = try s.run(["move", "idea", target.path] + (dryRun ? ["--dry-run"] : []))
        let fragment = target.fragment
        #expect(r.status == 1, "\(r)")
        #expect(r.stderr.hasPrefix("Error: ") && r.stderr.contains(fragment), "\(r)")
        #expect(r.stdout == "")
        #expect(Self.snapshot(s) == before)
        #expect(!FileManager.default.fileExists(atPath: s.root.path + "/outside.md"))
    }

    /// A new name no note can have — one a link or a file system cannot hold, or that starts or
    /// ends with a blank — is a wrong argument (exit 64, with the usage line): nothing changes.
    @Test(
        arguments: [
            ("odd#name", "'odd#name' holds '#', which a [[link]] cannot hold"),
            ("Plan?", "'Plan?' holds '?', which a file name cannot hold"), ("c:d", "'c:d' holds ':'"),
            ("a\\b", "holds '\\'"), ("x*", "holds '*'"), ("say \"hi\"", "holds '\"'"), ("<p>", "holds '<'"),
            ("a|b", "holds '|'"), ("[x]", "holds '['"), ("a^b", "holds '^'"),
            (" A ", "' A ' has a part that starts or ends with a blank"),
            ("A ", "starts or ends with a blank"),
            ("x/ y/z", "starts or ends with a blank"), ("a//b", "has a folder with no name"),
            ("a\u{7}b", "control character"),
        ], [false, true])
    func aNameNoNoteCanHaveIsAWrongArgument(_ target: (name: String, fragment: String), dryRun: Bool) throws {
        let s = try Self.vault()
        let before = Self.snapshot(s)
        let r = try s.run(["move", "idea", target.name] + (dryRun ? ["--dry-run"] : []))
        #expect(r.status == 64, "\(r)")
        #expect(r.stderr.hasPrefix("Error: ") && r.stderr.contains(target.fragment), "\(r)")
        #expect(r.stderr.contains("; choose another name\nUsage: notes move"), "\(r)")
        #expect(r.stdout == "")
        #expect(Self.snapshot(s) == before)
    }

    @Test(arguments: [false, true])
    func aSymlinkedFolderOnTheWayIsRefused(dryRun: Bool) throws {
        let s = try Self.vault()
        let outside = s.root.path + "/elsewhere"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: s.vault + "/linked", withDestinationPath: outside)
        let r = try s.run(["move", "idea", "linked/idea"] + (dryRun ? ["--dry-run"] : []))
        #expect(r.status == 1 && r.stderr.contains("outside the vault"), "\(r)")
        #expect(r.stdout == "")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside).isEmpty)
        #expect(s.exists("idea.md"))
    }
}
