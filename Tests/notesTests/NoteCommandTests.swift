import Foundation
import TestSupport
import Testing

/// The `ID<TAB>DATE<TAB>TITLE` lines' IDs.
func ids(_ result: RunResult) -> [String] {
    result.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
}

/// A parsed `--json` array.
func jsonArray(_ text: String) throws -> [[String: Any]] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
}

@Suite struct InitAndAddTests {
    @Test func initMakesAVaultWithAGitignore() throws {
        let s = try Sandbox(initVault: false)
        let r = try s.run(["init", s.root.path + "/fresh"], vaultVariable: false)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout == "Initialized an empty vault in \(s.root.path)/fresh\n")
        #expect(
            try String(contentsOfFile: s.root.path + "/fresh/.notes/.gitignore", encoding: .utf8)
                == Sandbox.stateIgnore)
        let again = try s.run(["init", s.root.path + "/fresh"], vaultVariable: false)
        #expect(again.status == 0)
        #expect(again.stdout.contains("already a vault"))
    }

    @Test func addFromArgumentsPrintsTheIDAndWritesFrontMatter() throws {
        let s = try Sandbox()
        let r = try s.run(["add", "Crème", "Brûlée", "à", "Łódź"])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout == "creme-brulee-a-lodz\n")
        #expect(r.stderr == "")
        let text = try s.read("creme-brulee-a-lodz.md")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 5)
        #expect(lines[0] == "---" && lines[2] == "---" && lines[3] == "Crème Brûlée à Łódź" && lines[4] == "")
        #expect(lines[1].hasPrefix("createdAt: 20") && lines[1].hasSuffix("Z") && lines[1].count == 31)
    }

    @Test func addReadsStdinAndDashAndTrims() throws {
        let s = try Sandbox()
        #expect(try s.run(["add"], stdin: "\n\n  piped text  \n\n").stdout == "piped-text\n")
        #expect(try s.read("piped-text.md").hasSuffix("---\npiped text\n"))
        #expect(try s.run(["add", "-"], stdin: "dash text").stdout == "dash-text\n")
    }

    @Test func addWithTitleMakesAHeading() throws {
        let s = try Sandbox()
        #expect(try s.run(["add", "--title", "Shopping list", "milk"]).stdout == "shopping-list\n")
        #expect(try s.read("shopping-list.md").hasSuffix("---\n# Shopping list\n\nmilk\n"))
        // --title alone counts as content.
        #expect(try s.run(["add", "--title=Only a title"], stdin: "").stdout == "only-a-title\n")
        #expect(try s.read("only-a-title.md").hasSuffix("---\n# Only a title\n"))
    }

    @Test(arguments: [["add", ""], ["add", "   "], ["add", "-"]])
    func emptyNotesAreRefused(arguments: [String]) throws {
        let s = try Sandbox()
        let r = try s.run(arguments, stdin: " \n\t\n")
        #expect(r.status == 1)
        #expect(r.stdout == "")
        #expect(r.stderr == "Error: note is empty; nothing saved\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: s.vault) == [".notes"])
    }

    @Test func takenNamesGetNumberedAndOtherScriptsStay() throws {
        let s = try Sandbox()
        #expect(try s.run(["add", "Same"]).stdout == "same\n")
        #expect(try s.run(["add", "same"]).stdout == "same-2\n")
        #expect(try s.run(["add", "SAME!"]).stdout == "same-3\n")
        #expect(try s.run(["add", "東京 メモ"]).stdout == "東京-メモ\n")
        #expect(try s.run(["add", "データ"]).stdout == "データ\n")
        let r = try s.run(["add", "!!!"])
        #expect(r.stdout.hasPrefix("note-") && r.stdout.count == "note-20261129-123816\n".count)
    }
}

@Suite struct ListTests {
    /// Three notes with known dates.
    func sandbox() throws -> Sandbox {
        let s = try Sandbox()
        try s.write("b.md", "---\ncreatedAt: 2026-01-02T00:00:00Z\n---\n# Banana\n\nyellow\n")
        try s.write(
            "a.md", "---\ncreatedAt: 2026-01-01T00:00:00Z\nupdatedAt: 2026-03-01T00:00:00Z\n---\n# apple\n")
        try s.write("sub/c.md", "---\ncreated: 2026-01-03\n---\nCherry pie\n")
        return s
    }

    @Test func pipedRowsAreIDDateTitleNewestFirst() throws {
        let s = try sandbox()
        let r = try s.run(["list"])
        #expect(r.status == 0)
        #expect(
            r.stdout == """
                a\t2026-03-01T00:00:00Z\tapple
                sub/c\t2026-01-03T00:00:00Z\tCherry pie
                b\t2026-01-02T00:00:00Z\tBanana

                """)
        #expect(try s.run(["ls"]).stdout == r.stdout)
    }

    @Test func sortReverseAndLimit() throws {
        let s = try sandbox()
        #expect(ids(try s.run(["list", "--sort", "created"])) == ["sub/c", "b", "a"])
        #expect(try s.run(["list", "--sort", "created"]).stdout.contains("a\t2026-01-01T00:00:00Z\tapple"))
        #expect(ids(try s.run(["list", "--sort=title"])) == ["a", "b", "sub/c"])
        #expect(ids(try s.run(["list", "--reverse"])) == ["b", "sub/c", "a"])
        #expect(ids(try s.run(["list", "-r", "-n", "1"])) == ["b"])
        #expect(ids(try s.run(["list", "--limit", "2"])) == ["a", "sub/c"])
    }

    @Test func tiesAreBrokenByID() throws {
        let s = try Sandbox()
        for name in ["z", "m", "a"] {
            try s.write("\(name).md", "---\ncreatedAt: 2026-01-01T00:00:00Z\n---\n\(name)\n")
        }
        #expect(ids(try s.run(["list"])) == ["a", "m", "z"])
        #expect(ids(try s.run(["list", "--reverse"])) == ["z", "m", "a"])
    }

    @Test func jsonHasTheSchemaOfTheSpec() throws {
        let s = try sandbox()
        let r = try s.run(["list", "--json"])
        let items = try jsonArray(r.stdout)
        #expect(items.count == 3)
        #expect(
            Set(items[0].keys) == [
                "id", "path", "title", "createdAt", "updatedAt", "preview", "tags", "conflicted",
                "conflictCopies",
            ])
        #expect(items[0]["tags"] as? [String] == [])
        #expect(items[0]["id"] as? String == "a")
        #expect(items[0]["updatedAt"] as? String == "2026-03-01T00:00:00Z")
        #expect(items[2]["preview"] as? String == "yellow")
        #expect(items[1]["updatedAt"] is NSNull)
        #expect(items[1]["path"] as? String == "sub/c.md")
    }

    @Test(arguments: [
        ["list", "--limit", "0"], ["list", "--limit", "x"], ["list", "--sort", "sideways"],
        ["list", "--frob"], ["list", "extra"],
    ])
    func badArgumentsAreUsageErrors(arguments: [String]) throws {
        let s = try sandbox()
        let r = try s.run(arguments)
        #expect(r.status == 64, "\(r)")
        #expect(r.stdout == "")
        #expect(r.stderr.hasPrefix("Error: "))
        #expect(r.stderr.contains("Usage: notes list"))
        #expect(r.stderr.hasSuffix("See 'notes list --help' for more information.\n"))
    }

    @Test func humanRowsAreTintedCapsulesOnlyWithColour() throws {
        let s = try sandbox()
        let colored = try s.run(["list", "--color", "always"], env: ["COLUMNS": "60"])
        #expect(colored.stdout.contains("\u{1B}[48;5;"))
        #expect(colored.stdout.contains("apple"))
        let truecolor = try s.run(["list", "--color=always"], env: ["COLORTERM": "truecolor"])
        // Default scheme, light mode: gray #8E8E93 at 0.3 over white.
        #expect(truecolor.stdout.contains("\u{1B}[48;2;221;221;223m"))
        for line in colored.stdout.split(separator: "\n") {
            let visible = line.replacingOccurrences(
                of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
            #expect(visible.count <= 60)
        }
        #expect(!(try s.run(["list", "--color", "never"]).stdout.contains("\u{1B}")))
        #expect(!(try s.run(["list"], env: ["NO_COLOR": "1"]).stdout.contains("\u{1B}")))
        #expect(!(try s.run(["list"], env: ["TERM": "dumb"]).stdout.contains("\u{1B}")))
    }

    @Test func longTitlesAreTruncatedNotWrapped() throws {
        let s = try Sandbox()
        try s.write("long.md", "# " + String(repeating: "word ", count: 60) + "\n")
        let r = try s.run(["list", "--color", "always"], env: ["COLUMNS": "50"])
        let visible = r.stdout.replacingOccurrences(
            of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        #expect(visible.split(separator: "\n").count == 1)
        #expect(visible.contains("…"))
        #expect(visible.split(separator: "\n")[0].count <= 50)
    }

    @Test func readOnlyCommandsWriteNothing() throws {
        let s = try sandbox()
        try s.write("bad.md", "---\nnot yaml at all\ncreatedAt: yesterday\n---\nbody\n")
        let before = try FileManager.default.attributesOfItem(atPath: s.vault + "/bad.md")
        let bytes = try s.bytes("bad.md")
        for args in [["list"], ["search", "body"], ["show", "bad"], ["list", "--json"], ["path", "bad"]] {
            #expect(try s.run(args).status == 0)
        }
        let after = try FileManager.default.attributesOfItem(atPath: s.vault + "/bad.md")
        #expect(try s.bytes("bad.md") == bytes)
        #expect(before[.modificationDate] as? Date == after[.modificationDate] as? Date)
    }

    @Test func malformedFilesWarnButAreListed() throws {
        let s = try Sandbox()
        try s.write("bad.md", "---\ntitle: ok\nthis is not a key\ncreatedAt: 2026-13-45\n---\nbody\n")
        try s.writeBytes("binary.md", [0x66, 0xFF, 0xFE, 0x0A])
        try s.write("open.md", "---\nno closing line\n")
        let r = try s.run(["list"])
        #expect(r.status == 0)
        #expect(Set(ids(r)) == ["bad", "open"])
        #expect(r.stderr.contains("warning: \(s.vault)/bad.md:3: expected 'key: value'"))
        #expect(r.stderr.contains("warning: \(s.vault)/bad.md:4: createdAt: '2026-13-45' is not a date"))
        #expect(r.stderr.contains("warning: \(s.vault)/binary.md: not valid UTF-8; skipped\n"))
        #expect(r.stderr.contains("warning: \(s.vault)/open.md:1: front matter has no closing '---' line"))
        #expect(try s.bytes("binary.md") == [0x66, 0xFF, 0xFE, 0x0A])
    }

    @Test func hiddenFilesSymlinksAndOtherExtensionsAreNotNotes() throws {
        let s = try Sandbox()
        try s.write("note.md", "note\n")
        try s.write("old.markdown", "old\n")
        try s.write(".hidden.md", "hidden\n")
        try s.write(".obsidian/x.md", "x\n")
        try s.write("readme.txt", "text\n")
        try FileManager.default.createSymbolicLink(
            atPath: s.vault + "/link.md", withDestinationPath: s.vault + "/note.md")
        try FileManager.default.createSymbolicLink(atPath: s.vault + "/loop", withDestinationPath: s.vault)
        #expect(Set(ids(try s.run(["list"]))) == ["note", "old.markdown"])
    }
}

@Suite struct ShowEditDeleteTests {
    func sandbox() throws -> Sandbox {
        let s = try Sandbox()
        try s.write("work/standup.md", "---\ncreatedAt: 2026-01-01T00:00:00Z\n---\n# Standup\n\nyesterday\n")
        try s.write("work/status.md", "---\ncreatedAt: 2026-01-02T00:00:00Z\n---\n# Status\n")
        try s.write("creme.md", "# Crème brûlée\n")
        return s
    }

    @Test func showPrintsBodyRawOrJSON() throws {
        let s = try sandbox()
        #expect(try s.run(["show", "work/standup"]).stdout == "# Standup\n\nyesterday\n")
        #expect(
            try s.run(["cat", "work/standup", "--raw"]).stdout
                == "---\ncreatedAt: 2026-01-01T00:00:00Z\n---\n# Standup\n\nyesterday\n")
        let json = try #require(
            try JSONSerialization.jsonObject(
                with: Data(try s.run(["show", "--json", "work/standup"]).stdout.utf8)) as? [String: Any])
        #expect(json["body"] as? String == "# Standup\n\nyesterday\n")
        #expect(json["title"] as? String == "Standup")
        #expect(json["preview"] as? String == "yesterday")
    }

    @Test func idsResolveByPathPrefixAndTitle() throws {
        let s = try sandbox()
        #expect(try s.run(["show", "work/standup.md"]).status == 0)
        #expect(try s.run(["show", s.vault + "/work/standup.md"]).status == 0)
        #expect(try s.run(["show", "./work/standup.md"], cwd: s.vault).status == 0)
        #expect(try s.run(["show", "cre"]).stdout == "# Crème brûlée\n")
        #expect(try s.run(["show", "CREME BRULEE"]).stdout == "# Crème brûlée\n")
        #expect(try s.run(["path", "status"]).stdout == s.vault + "/work/status.md\n")
    }

    @Test func missingAndAmbiguousNotesFail() throws {
        let s = try sandbox()
        let missing = try s.run(["show", "nope"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "Error: no note matches 'nope'\n")
        #expect(missing.stdout == "")
        let ambiguous = try s.run(["show", "work/st"])
        #expect(ambiguous.status == 1)
        #expect(
            ambiguous.stderr
                == "Error: 'work/st' matches 2 notes; give one of their IDs:\n  work/standup\n  work/status\n"
        )
    }

    @Test(arguments: ["../../etc/passwd", "/etc/passwd", "../outside.md", "link.md"])
    func pathsLeavingTheVaultAreRefused(argument: String) throws {
        let s = try sandbox()
        try "secret\n".write(toFile: s.root.path + "/outside.md", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: s.vault + "/link.md", withDestinationPath: s.root.path + "/outside.md")
        for command in [["show"], ["edit"], ["delete", "--yes"]] {
            let r = try s.run(command + [argument] + (command == ["edit"] ? ["new text"] : []), cwd: s.vault)
            #expect(r.status == 1, "\(command) \(argument): \(r)")
            #expect(r.stderr.contains("outside the vault"))
        }
        #expect(try String(contentsOfFile: s.root.path + "/outside.md", encoding: .utf8) == "secret\n")
    }

    @Test func editKeepsEveryOtherByte() throws {
        let s = try Sandbox()
        let original =
            "\u{FEFF}---\r\n# a comment\r\ntitle: 'It''s here'\r\ncreated: 2026-01-01 10:00\r\n"
            + "tags: [a, b]\r\nextra:\r\n  nested: map\r\n---\r\nold body\r\n"
        try s.write("n.md", original)
        let r = try s.run(["edit", "n", "new", "body"])
        #expect(r.status == 0, "\(r)")
        let text = String(decoding: try s.bytes("n.md"), as: UTF8.self)
        let expectedPrefix =
            "\u{FEFF}---\r\n# a comment\r\ntitle: 'It''s here'\r\ncreated: 2026-01-01 10:00\r\nupdatedAt: "
        #expect(text.hasPrefix(expectedPrefix))
        #expect(text.hasSuffix("Z\r\ntags: [a, b]\r\nextra:\r\n  nested: map\r\n---\r\nnew body\r\n"))
        // The edited note moves to the top.
        try s.write("newer.md", "---\ncreatedAt: 2026-06-01T00:00:00Z\n---\nnewer\n")
        #expect(ids(try s.run(["list"])).first == "n")
    }

    @Test func editFromStdinAndNoFrontMatter() throws {
        let s = try Sandbox()
        try s.write("plain.md", "just text\n", mtime: Date(timeIntervalSince1970: 1_700_000_000))
        #expect(try s.run(["update", "plain", "-"], stdin: "  replaced  \n").status == 0)
        let text = try s.read("plain.md")
        #expect(text.hasPrefix("---\ncreatedAt: 2023-11-14T22:13:20Z\nupdatedAt: "))
        #expect(text.hasSuffix("Z\n---\nreplaced\n"))
    }

    @Test func editAppendAddsALastLineAndKeepsTheRest() throws {
        let s = try Sandbox()
        try s.write("n.md", "---\ncreatedAt: 2026-01-01T00:00:00Z\ntags: [a]\n---\n# Groceries\n\n- eggs\n\n")
        let r = try s.run(["edit", "n", "--append", "-", "milk"])
        #expect(r.status == 0 && r.stderr == "Saved 'n'.\n", "\(r)")
        let text = try s.read("n.md")
        #expect(text.hasPrefix("---\ncreatedAt: 2026-01-01T00:00:00Z\nupdatedAt: "), "\(text)")
        #expect(text.hasSuffix("Z\ntags: [a]\n---\n# Groceries\n\n- eggs\n- milk\n"), "\(text)")
        let piped = try s.run(["update", "n", "--append", "-"], stdin: "- bread\n- butter\n")
        #expect(piped.status == 0, "\(piped)")
        #expect(try s.read("n.md").hasSuffix("---\n# Groceries\n\n- eggs\n- milk\n- bread\n- butter\n"))
        let blank = try s.run(["edit", "n", "--append", "  "])
        #expect(blank.status == 0 && blank.stderr == "No changes to 'n'; nothing saved.\n", "\(blank)")
    }

    @Test func editAppendWithoutTextIsAUsageError() throws {
        let s = try Sandbox()
        try s.write("n.md", "keep\n")
        let r = try s.run(["edit", "n", "--append"], stdin: "not read\n")
        #expect(r.status == 64, "\(r)")
        #expect(
            r.stderr.hasPrefix(
                "Error: '--append' needs the text to add, or '-' to read stdin.\nUsage: notes edit"))
        #expect(try s.read("n.md") == "keep\n")
    }

    @Test func emptyEditIsRefusedAndChangesNothing() throws {
        let s = try sandbox()
        let before = try s.bytes("creme.md")
        let r = try s.run(["edit", "creme", "  "])
        #expect(r.status == 1)
        #expect(r.stderr == "Error: note is empty; nothing saved\n")
        #expect(try s.bytes("creme.md") == before)
    }

    @Test func deleteNeedsConfirmationThenTrashAndRestore() throws {
        let s = try sandbox()
        let refused = try s.run(["delete", "creme"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("pass --yes"))
        #expect(s.exists("creme.md"))
        let r = try s.run(["rm", "--yes", "creme", "work/status"])
        #expect(r.status == 0, "\(r)")
        #expect(!s.exists("creme.md") && !s.exists("work/status.md"))
        let trash = try jsonArray(try s.run(["trash", "--json"]).stdout)
        #expect(Set(trash.compactMap { $0["id"] as? String }) == ["creme", "work/status"])
        #expect(trash.allSatisfy { ($0["deletedAt"] as? String)?.hasSuffix("Z") == true })
        #expect(Set(ids(try s.run(["trash"]))) == ["creme", "work/status"])
        // Restoring onto a taken name picks a free one.
        try s.write("creme.md", "another\n")
        let restored = try s.run(["restore", "creme"])
        #expect(restored.stdout == "creme-2\n")
        #expect(restored.stderr.contains("restored as 'creme-2'"))
        #expect(try s.read("creme-2.md") == "# Crème brûlée\n")
        #expect(try s.run(["restore", "work/status"]).stdout == "work/status\n")
        #expect(try s.run(["restore", "creme"]).status == 1)
    }

    @Test func aTypoDeletesNothing() throws {
        let s = try sandbox()
        let r = try s.run(["delete", "--yes", "creme", "nope"])
        #expect(r.status == 1)
        #expect(s.exists("creme.md"))
    }

    @Test func emptyingTheTrash() throws {
        let s = try sandbox()
        #expect(try s.run(["delete", "-y", "creme"]).status == 0)
        #expect(try s.run(["trash", "--empty"]).status == 1)
        let r = try s.run(["trash", "--empty", "--yes"])
        #expect(r.status == 0)
        #expect(r.stderr == "Removed 1 note for good.\n")
        #expect(try jsonArray(try s.run(["trash", "--json"]).stdout).isEmpty)
    }
}

@Suite struct EditorTests {
    @Test func editorSeesTheBodyOnlyInAPrivateMarkdownFile() throws {
        let s = try Sandbox()
        try s.write("n.md", "---\ncreatedAt: 2026-01-01T00:00:00Z\nkeep: me\n---\nold line\n")
        let editor = try s.script(
            "ed.sh",
            #"""
            case "$1" in *.md) ;; *) exit 3 ;; esac
            grep -q '^old line$' "$1" || exit 4
            grep -q createdAt "$1" && exit 5
            [ "$(stat -c %a "$1")" = 600 ] || exit 6
            printf 'new line\n' > "$1"
            """#)
        let r = try s.run(["edit", "n"], env: ["NOTES_EDITOR": editor], tty: true)
        #expect(r.status == 0, "\(r)")
        let text = try s.read("n.md")
        #expect(text.hasPrefix("---\ncreatedAt: 2026-01-01T00:00:00Z\nupdatedAt: 20"))
        #expect(text.hasSuffix("Z\nkeep: me\n---\nnew line\n"))
    }

    @Test func editorOrderNotesEditorThenSettingThenVisualThenEditor() throws {
        let s = try Sandbox()
        let mark = { (name: String) in try s.script(name, "printf '\(name)\\n' > \"$1\"") }
        let env = [
            "NOTES_EDITOR": try mark("notes-editor"), "VISUAL": try mark("visual"),
            "EDITOR": try mark("editor"),
        ]
        #expect(try s.run(["add"], env: env, tty: true).stdout == "notes-editor\n")
        #expect(
            try s.run(
                ["add"], env: ["VISUAL": env["VISUAL"] ?? "", "EDITOR": env["EDITOR"] ?? ""], tty: true
            ).stdout
                == "visual\n")
        #expect(try s.run(["add"], env: ["EDITOR": env["EDITOR"] ?? ""], tty: true).stdout == "editor\n")
        #expect(try s.run(["config", "set", "editor", try mark("setting")]).status == 0)
        #expect(try s.run(["add"], env: ["VISUAL": env["VISUAL"] ?? ""], tty: true).stdout == "setting\n")
    }

    @Test func editorCommandWithArgumentsAndSpacesInPaths() throws {
        let s = try Sandbox()
        // `code --wait` style: the command has words; the file path is passed as "$1", never parsed.
        let editor = try s.script("my editor.sh", #"[ "$1" = "--wait" ] || exit 9; printf 'waited\n' > "$2""#)
        let r = try s.run(["add"], env: ["NOTES_EDITOR": "'\(editor)' --wait"], tty: true)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout == "waited\n")
    }

    @Test func addWithTitleOpensTheEditorWithTheHeading() throws {
        let s = try Sandbox()
        let editor = try s.script(
            "ed.sh", #"grep -q '^# Groceries$' "$1" || exit 4; printf 'milk\n' >> "$1""#)
        let r = try s.run(["add", "--title", "Groceries"], env: ["NOTES_EDITOR": editor], tty: true)
        #expect(r.status == 0, "\(r)")
        #expect(try s.read("groceries.md").hasSuffix("---\n# Groceries\n\nmilk\n"))
    }

    @Test func emptiedBufferSavesNothing() throws {
        let s = try Sandbox()
        try s.write("n.md", "keep me\n")
        let editor = try s.script("ed.sh", #": > "$1""#)
        let r = try s.run(["edit", "n"], env: ["NOTES_EDITOR": editor], tty: true)
        #expect(r.status == 1)
        #expect(r.stderr == "Nothing saved.\n")
        #expect(try s.read("n.md") == "keep me\n")
        let add = try s.run(["add"], env: ["NOTES_EDITOR": editor], tty: true)
        #expect(add.status == 1)
        #expect(add.stderr == "Nothing saved.\n")
        // Quitting an editor that wrote nothing (vim's ':q' on the empty buffer).
        let quit = try s.run(["add"], env: ["NOTES_EDITOR": "true"], tty: true)
        #expect(quit.status == 1 && quit.stderr == "Nothing saved.\n", "\(quit)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: s.vault).sorted() == [".notes", "n.md"])
    }

    @Test func aChangeOnDiskDuringTheEditIsAConflictAndNothingIsLost() throws {
        let s = try Sandbox()
        try s.write("n.md", "original\n")
        let editor = try s.script(
            "ed.sh",
            """
            printf 'changed elsewhere\\n' > '\(s.vault)/n.md'
            printf 'my edit\\n' > "$1"
            """)
        let r = try s.run(["edit", "n"], env: ["NOTES_EDITOR": editor], tty: true)
        #expect(r.status == 1)
        #expect(r.stderr.contains("changed on disk"))
        #expect(try s.read("n.md") == "changed elsewhere\n")
        let conflicts = try FileManager.default.contentsOfDirectory(atPath: s.vault).filter {
            $0.hasPrefix("n.conflict-")
        }
        #expect(conflicts.count == 1)
        let name = try #require(conflicts.first)
        #expect(name.count == "n.conflict-20261129-123816.md".count && name.hasSuffix(".md"))
        #expect(try s.read(name) == "my edit\n")
    }

    @Test func aFailingEditorSavesNothing() throws {
        let s = try Sandbox()
        try s.write("n.md", "keep\n")
        let editor = try s.script("ed.sh", "exit 2")
        let r = try s.run(["edit", "n"], env: ["NOTES_EDITOR": editor], tty: true)
        #expect(r.status == 1)
        #expect(r.stderr.contains("exited with status 2; nothing saved"))
        #expect(try s.read("n.md") == "keep\n")
    }

    @Test func deleteAsksOnATerminal() throws {
        let s = try Sandbox()
        try s.write("a.md", "# Alpha\n")
        try s.write("b.md", "# Beta\n")
        let no = try s.run(["delete", "a"], stdin: "n\n", tty: true)
        #expect(no.status == 0)
        #expect(no.stderr.hasPrefix("Delete \"Alpha\"? [y/N] "))
        #expect(s.exists("a.md"))
        let yes = try s.run(["delete", "b"], stdin: "y\n", tty: true)
        #expect(yes.status == 0)
        #expect(!s.exists("b.md"))
    }
}
