import Foundation
import TestSupport
import Testing

/// Defects found by trying the tool as a stranger would; each test failed before its fix.
@Suite struct RegressionTests {
    @Test func typedTextSurvivesAVaultThatVanishesDuringTheEdit() throws {
        let s = try Sandbox()
        try s.write("n.md", "original\n")
        let editor = try s.script("ed.sh", "rm '\(s.vault)/n.md'; printf 'typed\\n' > \"$1\"")
        let r = try s.run(["edit", "n"], env: ["NOTES_EDITOR": editor], tty: true)
        #expect(r.status == 1)
        let copies = try FileManager.default.contentsOfDirectory(atPath: s.vault).filter {
            $0.hasPrefix("n.conflict-")
        }
        #expect(copies.count == 1, "\(r)")
        #expect(try copies.first.map { try s.read($0) } == "typed\n")
    }

    @Test func aMissingVaultIsReportedBeforeTheEditorOpens() throws {
        let s = try Sandbox()
        let editor = try s.script(
            "ed.sh", "echo opened > '\(s.root.path)/opened'; printf 'typed\\n' > \"$1\"")
        let r = try s.run(
            ["add"], env: ["NOTES_EDITOR": editor, "NOTES_VAULT": s.root.path + "/typo"], tty: true)
        #expect(r.status == 1)
        #expect(r.stderr.contains("does not exist"))
        #expect(!FileManager.default.fileExists(atPath: s.root.path + "/opened"))
    }

    @Test func longTitlesInWideScriptsStillMakeValidFileNames() throws {
        let s = try Sandbox()
        let title = Array(repeating: "हिन्दी", count: 30).joined(separator: " ")
        let first = try s.run(["add", title])
        #expect(first.status == 0, "\(first)")
        let id = first.stdout.trimmingCharacters(in: .newlines)
        #expect(id.utf8.count <= 180)
        let second = try s.run(["add", title])
        #expect(second.status == 0, "\(second)")
        #expect(second.stdout == id + "-2\n")
        let wide = String(repeating: "𠀀", count: 70)
        #expect(try s.run(["add", wide]).status == 0)
        #expect(try s.run(["add", wide]).status == 0)
    }

    @Test func aFileInTheCurrentFolderDoesNotHijackAPrefix() throws {
        let s = try Sandbox()
        try s.write("hello-world.md", "# Hello\n")
        let elsewhere = s.root.path + "/elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try "x".write(toFile: elsewhere + "/hello", atomically: true, encoding: .utf8)
        let r = try s.run(["show", "hello"], cwd: elsewhere)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout == "# Hello\n")
    }

    @Test func aSymlinkedSettingsFileIsReadAndWrittenThroughTheLink() throws {
        let s = try Sandbox()
        let dotfiles = s.root.path + "/dotfiles.json"
        try #"{"scheme": "orange"}"#.write(toFile: dotfiles, atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(
            atPath: s.config + "/notes", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: s.config + "/notes/settings.json", withDestinationPath: dotfiles)
        let get = try s.run(["config", "get", "scheme"])
        #expect(get.stdout == "orange\n" && get.stderr == "", "\(get)")
        #expect(try s.run(["config", "set", "sort", "title"]).status == 0)
        #expect(
            try FileManager.default.destinationOfSymbolicLink(atPath: s.config + "/notes/settings.json")
                == dotfiles)
        #expect(try String(contentsOfFile: dotfiles, encoding: .utf8).contains("\"sort\" : \"title\""))
    }

    @Test func idsAreNotCutWhenTheRowHasRoom() throws {
        let s = try Sandbox()
        try s.write("work/projects/2026/standup-meeting-notes.md", "# Standup\n")
        let r = try s.run(["list", "--color", "always"], env: ["COLUMNS": "100"])
        #expect(r.stdout.contains("work/projects/2026/standup-meeting-notes"), "\(r)")
    }

    @Test func helpHelpAndUnknownGlobalOptionsBeforeTheCommand() throws {
        let s = try Sandbox()
        let help = try s.run(["help", "help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("SUBCOMMANDS:"))
        let colour = try s.run(["--colour", "never", "ls"])
        #expect(colour.status == 64)
        #expect(colour.stderr.hasPrefix("Error: Unknown option '--colour'. Did you mean '--color'?"))
        #expect(try s.run(["-n", "1", "list"]).status == 0)
        #expect(try s.run(["--json", "list"]).status == 0)
    }

    @Test(arguments: [("q", nil), ("x", nil), ("remove", "delete"), ("lsit", "list"), ("serach", "search")])
    func commandSuggestionsAreSensible(typed: String, suggestion: String?) throws {
        let s = try Sandbox()
        let r = try s.run([typed])
        #expect(r.status == 64)
        if let suggestion {
            #expect(r.stderr.contains("Did you mean '\(suggestion)'?"), "\(r)")
        } else {
            #expect(!r.stderr.contains("Did you mean"), "\(r)")
        }
    }

    @Test func aRelativeVaultSettingIsStoredAbsolute() throws {
        let s = try Sandbox()
        #expect(try s.run(["config", "set", "vault", "rel-vault"], cwd: s.root.path).status == 0)
        #expect(try s.run(["config", "get", "vault"]).stdout == s.root.path + "/rel-vault\n")
    }

    @Test func restoreBringsBackTheLatestDeletionEvenInTheSameSecond() throws {
        let s = try Sandbox()
        for text in ["first", "second", "third"] {
            try s.write("t.md", text + "\n")
            #expect(try s.run(["rm", "--yes", "t"]).status == 0)
        }
        #expect(try s.run(["restore", "t"]).stdout == "t\n")
        #expect(try s.read("t.md") == "third\n")
    }

    @Test func aBlankTitleSavesNothing() throws {
        let s = try Sandbox()
        let r = try s.run(["add", "--title", "  "], stdin: "")
        #expect(r.status == 1)
        #expect(r.stderr == "Error: note is empty; nothing saved\n")
    }

    @Test func aTypoInDeleteIsReportedAsSuchWithoutATerminal() throws {
        let s = try Sandbox()
        let r = try s.run(["rm", "nope"])
        #expect(r.status == 1)
        #expect(r.stderr == "Error: no note matches 'nope'\n")
    }

    @Test func crlfTextFromAPipeIsStoredWithLF() throws {
        let s = try Sandbox()
        #expect(try s.run(["add"], stdin: "line one\r\nline two\r\n").stdout == "line-one\n")
        #expect(try s.read("line-one.md").hasSuffix("---\nline one\nline two\n"))
        #expect(!(try s.bytes("line-one.md")).contains(0x0D))
    }

    @Test func showReadsOnlyWhatItNeedsAndWarnsOnlyAboutThatNote() throws {
        let s = try Sandbox()
        try s.write("good.md", "fine\n")
        try s.write("bad.md", "---\nnot a key\n---\nbad\n")
        let r = try s.run(["show", "good"])
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(try s.run(["show", "bad"]).stderr.contains("bad.md:2: expected 'key: value'"))
    }

    @Test func theTrashOfAVaultWithoutStateFolderIsGitIgnored() throws {
        let s = try Sandbox(initVault: false)
        try s.write("n.md", "note\n")
        #expect(try s.run(["rm", "--yes", "n"]).status == 0)
        #expect(try s.read(".notes/.gitignore") == Sandbox.stateIgnore)
    }
}

@Suite struct IndexCommandTests {
    @Test func indexReportsAndSearchUsesTheCache() throws {
        let s = try Sandbox()
        try s.write("a.md", "# Alpha\n\nCrème\n")
        try s.write("b.md", "# Beta\n")
        let first = try s.run(["index"])
        #expect(first.status == 0)
        #expect(first.stderr == "Index updated: 2 notes, 2 read (\(s.vault)/.notes/index).\n")
        let again = try s.run(["index"])
        #expect(again.stderr == "Index already up to date: 2 notes, 0 read (\(s.vault)/.notes/index).\n")
        #expect(try s.run(["index", "--rebuild"]).stderr.contains("2 read"))
        // Deleting the cache loses nothing.
        try FileManager.default.removeItem(atPath: s.vault + "/.notes/index")
        #expect(ids(try s.run(["search", "creme"])) == ["a"])
        #expect(FileManager.default.fileExists(atPath: s.vault + "/.notes/index"))
        // A corrupt cache is rebuilt.
        try "garbage".write(toFile: s.vault + "/.notes/index", atomically: true, encoding: .utf8)
        #expect(ids(try s.run(["search", "creme"])) == ["a"])
        #expect(try s.run(["index"]).stderr.contains("0 read"))
        #expect(try s.run(["index", "extra"]).status == 64)
    }

    @Test func searchSnippetsComeFromTheFileNotTheCache() throws {
        let s = try Sandbox()
        try s.write("a.md", "# Alpha\n\nthe Crème line\n")
        let json = try jsonArray(try s.run(["search", "--json", "creme"]).stdout)
        #expect(json.first?["snippet"] as? String == "the Crème line")
    }
}

/// The second round of stranger testing.
@Suite struct SecondReviewTests {
    @Test func delimiterLinesWithTrailingBlanksAreFrontMatter() throws {
        let s = try Sandbox()
        let original = "---  \ncreatedAt: 2024-01-01T00:00:00Z\n--- \t\nbody\n"
        try s.write("a.md", original)
        let list = try s.run(["list"])
        #expect(list.stdout == "a\t2024-01-01T00:00:00Z\tbody\n")
        #expect(list.stderr == "")
        #expect(try s.run(["edit", "a", "new"]).status == 0)
        let text = try s.read("a.md")
        #expect(text.hasPrefix("---  \ncreatedAt: 2024-01-01T00:00:00Z\nupdatedAt: "))
        #expect(text.hasSuffix("Z\n--- \t\nnew\n"))
    }

    @Test func shortTitlesStillGetDateAndID() throws {
        let s = try Sandbox()
        // 2024-11-29 and 2024-11-30 at 08:09 UTC.
        try s.write("x.md", "x\n", mtime: Date(timeIntervalSince1970: 1_732_867_740))
        try s.write("hi.md", "Hi\n", mtime: Date(timeIntervalSince1970: 1_732_954_140))
        let r = try s.run(
            ["list", "--color", "always"],
            env: ["COLUMNS": "120", "COLORTERM": "", "LC_ALL": "en_GB.UTF-8"])
        // Light default theme: tint 253, text 234, date 242; title and ID padded to the widest (2).
        let start = "\u{1B}[48;5;253m\u{1B}[38;5;234m\u{1B}[1m "
        let dim = "\u{1B}[22m  \u{1B}[38;5;242m"
        let end = "\u{1B}[38;5;234m  "
        #expect(
            r.stdout == start + "Hi" + dim + "30 Nov 2024 at 08:09" + end + "hi \u{1B}[0m\n"
                + start + "x " + dim + "29 Nov 2024 at 08:09" + end + "x  \u{1B}[0m\n", "\(r)")
    }

    @Test func addingANoteThatHasFrontMatterKeepsIt() throws {
        let s = try Sandbox()
        let r = try s.run(["add"], stdin: "---\ntitle: Imported\ntags: [a]\n---\nBody\n")
        #expect(r.stdout == "imported\n")
        let text = try s.read("imported.md")
        #expect(text.hasPrefix("---\ncreatedAt: 20"))
        #expect(text.hasSuffix("Z\ntitle: Imported\ntags: [a]\n---\nBody\n"))
        #expect(text.components(separatedBy: "---\n").count == 3)
        let dated = try s.run(["add"], stdin: "---\ndate: 2015-11-17 16:16:01 -0600\n---\nOld post\n")
        #expect(dated.stdout == "old-post\n")
        #expect(try s.read("old-post.md") == "---\ndate: 2015-11-17 16:16:01 -0600\n---\nOld post\n")
        #expect(
            try s.run(["list", "--sort", "created"]).stdout.hasSuffix(
                "old-post\t2015-11-17T22:16:01Z\tOld post\n"))
    }

    @Test func datesFollowTheLocaleOfTheEnvironment() throws {
        let s = try Sandbox()
        try s.write("a.md", "---\ncreatedAt: 2024-01-06T00:00:00Z\n---\nA\n")
        let german = try s.run(["list", "--color", "always"], env: ["LANG": "de_DE.UTF-8", "LC_ALL": ""])
        #expect(german.stdout.contains("06.01.2024") || german.stdout.contains("6. Jan"), "\(german)")
    }

    @Test func aNoteThatIsNotUTF8SaysSo() throws {
        let s = try Sandbox()
        try s.writeBytes("bad.md", [0x63, 0xE9, 0x0A])
        let r = try s.run(["show", "bad"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("is not valid UTF-8"))
    }

    @Test func resettingTwiceKeepsTheFirstBackup() throws {
        let s = try Sandbox()
        #expect(try s.run(["config", "set", "scheme", "blue"]).status == 0)
        #expect(try s.run(["config", "reset"]).status == 0)
        let second = try s.run(["config", "reset"])
        #expect(second.status == 0)
        #expect(second.stderr.contains("holds the defaults"))
        #expect(
            try String(contentsOfFile: s.config + "/notes/settings.json.bak", encoding: .utf8).contains(
                "blue"))
        #expect(try s.run(["config", "set", "scheme", "green"]).status == 0)
        #expect(try s.run(["config", "reset"]).stderr.contains("settings.json.bak.2"))
    }

    @Test func yesWithoutEmptyIsAUsageError() throws {
        let s = try Sandbox()
        #expect(try s.run(["trash", "--yes"]).status == 64)
    }

    @Test func aTamperedTrashEntryCannotWriteOutsideTheVault() throws {
        let s = try Sandbox()
        try s.write(
            ".notes/trash/x/deleted.json", #"{"path": "../escaped.md", "deletedAt": "2026-01-01T00:00:00Z"}"#)
        try s.write(".notes/trash/escaped.md", "x\n")  // where "x/../escaped.md" points
        let r = try s.run(["restore", "escaped"])
        #expect(r.status == 1)
        #expect(!FileManager.default.fileExists(atPath: s.root.path + "/escaped.md"))
    }
}
