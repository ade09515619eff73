import Foundation
import TestSupport
import Testing

/// `notes links --broken` with the reason of each broken link, and `notes links ID` with
/// attachment links, end to end.
@Suite struct LinkHealthCommandTests {
    static func vault() throws -> Sandbox {
        let s = try Sandbox()
        try s.write(
            "hub.md",
            "# Hub\n[[plan#Nope]] [[plan#^gone]] [[plan#Goal]] [[none]]\n![[photo.png]] ![](img/gone.png)\n")
        try s.write("plan.md", "# Plan\n## Goal\n")
        try s.write("img/photo.png", "png")
        return s
    }

    @Test func brokenLinksGiveTheirReason() throws {
        let s = try Self.vault()
        let json = try s.run(["links", "--broken", "--json"])
        #expect(json.status == 0, "\(json)")
        let reasons = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        #expect(
            reasons?.map { "\($0["text"] ?? "") \($0["reason"] ?? "")" } == [
                "[[plan#Nope]] missing-heading", "[[plan#^gone]] missing-block", "[[none]] no-note",
                "![](img/gone.png) no-file",
            ])
        let human = try s.run(["links", "--broken", "--color", "always"], env: ["COLUMNS": "80"])
        #expect(human.stdout.contains("[[plan#Nope]]\u{1B}[38;5;242m  (no such heading)"), "\(human)")
        #expect(human.stdout.contains("(no such block)") && human.stdout.contains("(no such file)"))
        #expect(try s.run(["links", "--broken"]).stdout.hasPrefix("hub\t2\t[[plan#Nope]]\n"))
    }

    @Test func aNotesLinksListAttachmentsWithTheirFiles() throws {
        let s = try Self.vault()
        #expect(
            try s.run(["links", "hub"]).stdout
                == "2\t\t[[plan#Nope]]\n2\t\t[[plan#^gone]]\n2\tplan\t[[plan#Goal]]\n2\t\t[[none]]\n"
                + "3\timg/photo.png\t![[photo.png]]\n3\t\t![](img/gone.png)\n")
        let json = try s.run(["links", "hub", "--json"])
        #expect(
            json.stdout.contains(
                """
                    "text": "![[photo.png]]",
                    "target": "photo.png",
                    "heading": null,
                    "id": null,
                    "path": null,
                    "title": null,
                    "file": "img/photo.png",
                    "broken": false,
                    "reason": null
                """), "\(json)")
        let human = try s.run(["links", "hub", "--color", "always"], env: ["COLUMNS": "80"])
        #expect(
            human.stdout.contains(
                "[[plan#Nope]]\u{1B}[38;5;242m → \u{1B}[0mplan\u{1B}[38;5;242m (broken: no such heading)"),
            "\(human)")
        // A file that appears is found by the next command.
        try s.write("img/gone.png", "png")
        #expect(
            try s.run(["links", "hub", "--broken"]).stdout
                == "2\t\t[[plan#Nope]]\n2\t\t[[plan#^gone]]\n2\t\t[[none]]\n")
    }

    /// Links written as paths (Obsidian's "relative path" format) go to the note or file at that
    /// path, from the note's folder or (`/`) the vault's top; one above the top is broken.
    @Test func pathLinksResolveAsObsidianReadsThem() throws {
        let s = try Sandbox()
        try s.write("Top.md", "# Top\n")
        try s.write("Plan.md", "# Plan\n")
        try s.write("img/a.png", "png")
        try s.write("a/b/s.md", "# S\n")
        try s.write("a/b/Plan.md", "# Local plan\n")
        try s.write(
            "a/b/deep.md",
            "[[../../Top]] [[./s]] [[/Top]] ![[../../img/a.png]] [p](/Plan) [q](/Plan.md)\n[[../../../Top]]\n"
        )
        let broken = try s.run(["links", "--broken"])
        #expect(broken.stdout == "a/b/deep\t2\t[[../../../Top]]\n", "\(broken)")
        #expect(
            try s.run(["links", "a/b/deep"]).stdout
                == "1\tTop\t[[../../Top]]\n1\ta/b/s\t[[./s]]\n1\tTop\t[[/Top]]\n1\timg/a.png\t![[../../img/a.png]]\n"
                + "1\tPlan\t[p](/Plan)\n1\tPlan\t[q](/Plan.md)\n2\t\t[[../../../Top]]\n")
        #expect(
            try s.run(["backlinks", "Top"]).stdout == "a/b/deep\t1\t[[../../Top]]\na/b/deep\t1\t[[/Top]]\n")
    }
}
