import Foundation
import TestSupport
import Testing

/// Links and arguments name notes as Obsidian names them — file names over titles, case ignored
/// but not accents, aliases, Obsidian's own rules in a vault with `.obsidian/` — end to end.
@Suite struct LinkNameCommandTests {
    /// A link that went by file name must still go by one after a move: that the moved note's
    /// title would still find it is not enough (in Obsidian, all four would break).
    @Test func aMoveRewritesLinksByFileNameThatTheTitleWouldStillFind() throws {
        let s = try Sandbox()
        try s.write("beta.md", "# Beta\n\nThe second note.\n\n## Part\n")
        try s.write("alpha.md", "# Alpha\n\n[[beta]] and [[beta|the beta]].\n[[beta#Part]] ![[beta]]\n")
        try s.write("docs/gamma.md", "# Gamma\n\n[the beta](../beta.md) and [[Beta]] in another case.\n")
        try s.write("ideas.md", "---\naliases: [Gamma Ray]\n---\n# Ideas\n")
        try s.write("delta.md", "[[Gamma Ray]]\n")
        let r = try s.run(["move", "beta", "archive/beta-renamed"])
        #expect(r.status == 0 && r.stderr == "", "\(r)")
        #expect(
            r.stdout == """
                Moved 'beta' to 'archive/beta-renamed'; rewrote 6 links in 2 notes:
                  alpha:3  [[beta]] → [[beta-renamed]]
                  alpha:3  [[beta|the beta]] → [[beta-renamed|the beta]]
                  alpha:4  [[beta#Part]] → [[beta-renamed#Part]]
                  alpha:4  ![[beta]] → ![[beta-renamed]]
                  docs/gamma:3  [the beta](../beta.md) → [the beta](../archive/beta-renamed.md)
                  docs/gamma:3  [[Beta]] → [[beta-renamed]]

                """, "\(r)")
        // A link by an alias, or by a title that stays, is left as written.
        let moved = try s.run(["move", "ideas", "archive/ideas"])
        #expect(moved.stdout == "Moved 'ideas' to 'archive/ideas'; no link rewritten.\n", "\(moved)")
        #expect(try s.read("delta.md") == "[[Gamma Ray]]\n")
        #expect(try s.run(["links", "--broken"]).stdout == "")
    }

    /// The example: four `[[beta]]` links and a Markdown one, 5 links in 2 notes.
    @Test func theFourWikiLinksAndTheMarkdownLinkAllFollow() throws {
        let s = try Sandbox()
        try s.write("beta.md", "# Beta\n")
        try s.write("notes/alpha.md", "[[beta]] [[beta]]\n[[beta|b]] [[beta#x]]\n")
        try s.write("notes/sub.md", "[the beta](../beta.md)\n")
        let r = try s.run(["move", "beta", "archive/beta-renamed"])
        #expect(
            r.stdout.hasPrefix("Moved 'beta' to 'archive/beta-renamed'; rewrote 5 links in 2 notes:\n"),
            "\(r)")
        #expect(
            try s.read("notes/alpha.md")
                == "[[beta-renamed]] [[beta-renamed]]\n[[beta-renamed|b]] [[beta-renamed#x]]\n")
    }

    /// Case is ignored, accents are not; a name stored decomposed (NFD, as macOS stores it)
    /// matches a link typed composed (NFC).
    @Test func fileNamesIgnoreCaseButNotAccents() throws {
        let s = try Sandbox()
        try s.write("Café.md", "A place.\n")
        try s.write("Stra\u{DF}e.md", "A street.\n")
        try s.write("Re\u{301}sume\u{301}.md", "A CV.\n")
        try s.write("src.md", "[[Cafe]] [[CAFÉ]] [[STRASSE]] [[R\u{E9}sum\u{E9}]] [[r\u{E9}sum\u{E9}]]\n")
        let r = try s.run(["links", "src"])
        #expect(
            r.stdout
                == "1\t\t[[Cafe]]\n1\tCafé\t[[CAFÉ]]\n1\t\t[[STRASSE]]\n1\tRe\u{301}sume\u{301}\t[[R\u{E9}sum\u{E9}]]\n"
                + "1\tRe\u{301}sume\u{301}\t[[r\u{E9}sum\u{E9}]]\n", "\(r)")
        #expect(try s.run(["links", "--broken"]).stdout == "src\t1\t[[Cafe]]\nsrc\t1\t[[STRASSE]]\n")
        #expect(try s.run(["show", "café"]).stdout == "A place.\n")
        let cafe = try s.run(["show", "Cafe"])
        #expect(cafe.status == 1 && cafe.stderr == "Error: no note matches 'Cafe'\n", "\(cafe)")
    }

    /// Aliases resolve links and name notes for commands.
    @Test func aliasesNameNotes() throws {
        let s = try Sandbox()
        try s.write("plan.md", "---\naliases: [Big Plan, Roadmap]\n---\n# Project plan\n\nSteps.\n")
        try s.write("src.md", "See [[Big Plan]] and [[roadmap|the map]].\n")
        #expect(try s.run(["show", "Big Plan"]).stdout == "# Project plan\n\nSteps.\n")
        #expect(try s.run(["show", "big plán"]).stdout == "# Project plan\n\nSteps.\n")
        #expect(
            try s.run(["links", "src"]).stdout == "1\tplan\t[[Big Plan]]\n1\tplan\t[[roadmap|the map]]\n")
        #expect(
            try s.run(["backlinks", "Roadmap"]).stdout
                == "src\t1\t[[Big Plan]]\nsrc\t1\t[[roadmap|the map]]\n")
    }

    /// In a vault with `.obsidian/`, links resolve only by ID and file name, so `links --broken`
    /// lists what Obsidian shows unresolved.
    @Test func anObsidianVaultResolvesByNamesOnly() throws {
        let s = try Sandbox()
        try s.write(".obsidian/app.json", "{}\n")
        try s.write("project-plan.md", "---\naliases: [Big Plan]\n---\n# Project Plan\n")
        try s.write("src.md", "[[Project Plan]] [[project-plan]] [[Big Plan]] [[PROJECT-PLAN]]\n")
        #expect(
            try s.run(["links", "--broken"]).stdout == "src\t1\t[[Project Plan]]\nsrc\t1\t[[Big Plan]]\n")
        #expect(try s.run(["backlinks", "project-plan"]).stdout.split(separator: "\n").count == 2)
        // Commands still find notes by title or alias.
        #expect(try s.run(["show", "Big Plan"]).stdout == "# Project Plan\n")
    }
}
