import Foundation
import TestSupport
import Testing

/// The `fileNames` setting: how `add` names a new file, and what an `.obsidian/` folder implies.
@Suite struct FileNamesTests {
    /// A vault Obsidian opens: an `.obsidian/` folder at its top and no `.notes/`.
    func obsidianVault() throws -> Sandbox {
        try Sandbox(initVault: false, layout: [.directory(".obsidian", [.file("app.json", "{}\n")])])
    }

    /// The `key  value  source` row of `notes config` for `key`, spaces squeezed.
    func row(_ key: String, _ s: Sandbox) throws -> String {
        let r = try s.run(["config"])
        let line = r.stdout.split(separator: "\n").first { $0.hasPrefix(key + " ") } ?? ""
        return line.split(separator: " ").joined(separator: " ")
    }

    @Test func anObsidianVaultNamesFilesByTitleAndTitlesByFileName() throws {
        let s = try obsidianVault()
        var r = try s.run(["add", "--title", "Project Plan", "x"])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout == "Project Plan\n")
        #expect(try s.read("Project Plan.md").hasSuffix("# Project Plan\n\nx\n"))
        // A taken name gets `-2`, as a slug does.
        r = try s.run(["add", "--title", "Project Plan", "y"])
        #expect(r.stdout == "Project Plan-2\n", "\(r)")
        #expect(s.exists("Project Plan-2.md"))
        #expect(try row("fileNames", s) == "fileNames title obsidian")
        #expect(try row("titleFrom", s) == "titleFrom filename obsidian")
        #expect(try s.run(["config", "get", "fileNames"]).stdout == "title\n")
        let json = try #require(
            try JSONSerialization.jsonObject(
                with: Data(try s.run(["config", "list", "--json"]).stdout.utf8)) as? [String: [String: Any]])
        #expect(json["fileNames"]?["source"] as? String == "obsidian")
        #expect(json["fileNames"]?["value"] as? String == "title")
        #expect(json["sort"]?["source"] as? String == "default")
        // Titles are file names there, as Obsidian shows them.
        r = try s.run(["list", "--sort", "title"])
        #expect(
            r.stdout.split(separator: "\n").map { $0.split(separator: "\t").last ?? "" } == [
                "Project Plan", "Project Plan-2",
            ])
        // And nothing was written into the folder but the notes: no `.notes/`.
        #expect(!s.exists(".notes"))
    }

    @Test func aTitleIsCleanedOfWhatCannotBeInAFileName() throws {
        let s = try obsidianVault()
        var r = try s.run(["add", "--title", ".What? A/B: [[x]] #1", "text"])
        #expect(r.stdout == "What- A-B- --x-- -1\n", "\(r)")
        // Nothing left of the title: named as an empty slug is.
        r = try s.run(["add", "--title", "...", "text"])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.hasPrefix("note-") && r.stdout.count == "note-20261201-101010\n".count, "\(r)")
    }

    @Test func aSettingSomeoneWroteWinsOverObsidian() throws {
        let s = try obsidianVault()
        // The user's file.
        #expect(try s.run(["config", "set", "fileNames", "slug"]).status == 0)
        #expect(try s.run(["config", "set", "titleFrom", "content"]).status == 0)
        #expect(try row("fileNames", s) == "fileNames slug user")
        #expect(try row("titleFrom", s) == "titleFrom content user")
        var r = try s.run(["add", "--title", "Project Plan", "x"])
        #expect(r.stdout == "project-plan\n", "\(r)")
        // The vault's file, over the user's.
        #expect(try s.run(["config", "set", "--vault-local", "fileNames", "title"]).status == 0)
        #expect(try row("fileNames", s) == "fileNames title vault")
        r = try s.run(["add", "--title", "Other Plan", "x"])
        #expect(r.stdout == "Other Plan\n", "\(r)")
        // Unset both: Obsidian's default again.
        #expect(try s.run(["config", "unset", "--vault-local", "fileNames"]).status == 0)
        #expect(try s.run(["config", "unset", "fileNames"]).status == 0)
        #expect(try row("fileNames", s) == "fileNames title obsidian")
        // An invalid value in a file is reported, and the value below it applies: Obsidian's.
        try s.write(".notes/settings.json", #"{"fileNames": "words"}"#)
        r = try s.run(["config"])
        #expect(r.stdout.contains(#"title       obsidian (vault file value "words" is invalid)"#), "\(r)")
    }

    @Test func elsewhereSlugIsTheDefaultAndTitleIsASetting() throws {
        let s = try Sandbox()
        #expect(try row("fileNames", s) == "fileNames slug default")
        #expect(try row("titleFrom", s) == "titleFrom content default")
        #expect(try s.run(["add", "--title", "Project Plan", "x"]).stdout == "project-plan\n")
        #expect(try s.run(["config", "set", "--vault-local", "fileNames", "title"]).status == 0)
        let r = try s.run(["add", "--title", "Project Plan", "x"])
        #expect(r.stdout == "Project Plan\n", "\(r)")
        #expect(try s.run(["show", "Project Plan"]).stdout == "# Project Plan\n\nx\n")
        // A `.obsidian` that is a file, not a folder, implies nothing.
        try s.write(".obsidian", "")
        #expect(try row("fileNames", s) == "fileNames title vault")
        #expect(try row("titleFrom", s) == "titleFrom content default")
    }

    @Test func anInvalidValueIsAUsageError() throws {
        let s = try Sandbox()
        let r = try s.run(["config", "set", "fileNames", "foo"])
        #expect(r.status == 64, "\(r)")
        #expect(
            r.stderr.contains("'foo' is not a valid value for 'fileNames'; valid values: slug, title"), "\(r)"
        )
        #expect(try s.run(["config", "set", "--vault-local", "fileNames", "Title"]).status == 0)
        #expect(try s.run(["config", "get", "fileNames"]).stdout == "title\n")
    }
}
