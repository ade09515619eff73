import Foundation
import TestSupport
import Testing

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// Files that are not what they should be, and bytes that are not text: a clear message
/// or correct handling, the right exit code, nothing changed, and never a hang. Runs go through a
/// pseudo-terminal, whose runner kills a run that has not ended after a minute, so a hang fails.
@Suite struct BadInputTests {
    /// Opening a FIFO for reading waits for a writer: an index replaced by one must be refused
    /// at once (then replaced by a real index), not waited on.
    @Test func anIndexReplacedByAFIFOIsNotWaitedOn() throws {
        let s = try Sandbox()
        try s.write("a.md", "# Alpha\n")
        #expect(mkfifo(s.vault + "/.notes/index", 0o600) == 0)
        let list = try s.run(["list"], tty: true)
        #expect(list.status == 0, "\(list)")
        #expect(list.stdout.hasPrefix("a\t"))
        var st = stat()
        #expect(lstat(s.vault + "/.notes/index", &st) == 0 && st.st_mode & S_IFMT == S_IFREG)
    }

    @Test func anIndexReplacedByAFolderStillLists() throws {
        let s = try Sandbox()
        try s.write("a.md", "# Alpha\n")
        try FileManager.default.createDirectory(
            atPath: s.vault + "/.notes/index", withIntermediateDirectories: false)
        let list = try s.run(["list"], tty: true)
        #expect(list.status == 0 && list.stdout.hasPrefix("a\t"), "\(list)")
        let index = try s.run(["index"], tty: true)
        #expect(index.status == 1)
        #expect(index.stderr.contains("could not write the index '\(s.vault)/.notes/index'"), "\(index)")
    }

    @Test func aSettingsFileThatIsAFIFOIsNotWaitedOn() throws {
        let s = try Sandbox()
        try s.write("a.md", "# Alpha\n")
        try FileManager.default.createDirectory(
            atPath: s.config + "/notes", withIntermediateDirectories: true)
        #expect(mkfifo(s.config + "/notes/settings.json", 0o600) == 0)
        let list = try s.run(["list"], tty: true)
        #expect(list.status == 0 && list.stdout.hasPrefix("a\t"), "\(list)")
        #expect(list.stderr.contains("not a regular file"), "\(list)")
    }

    /// A note file replaced by a FIFO after the walk saw it is skipped with a warning, not waited on.
    @Test func aNoteThatIsAFIFOIsSkipped() throws {
        let s = try Sandbox()
        try s.write("a.md", "# Alpha\n")
        #expect(mkfifo(s.vault + "/pipe.md", 0o600) == 0)
        let list = try s.run(["list"], tty: true)
        #expect(list.status == 0 && list.stdout.hasPrefix("a\t") && !list.stdout.contains("pipe"), "\(list)")
        let show = try s.run(["show", "pipe"], tty: true)
        #expect(show.status == 1, "\(show)")
    }

    /// A note whose file name is not UTF-8 (a Latin-1 `café.md` copied from an old disk) has no
    /// ID a command could name: it is left alone, but never without a word — every listing warns.
    @Test func aNoteWhoseNameIsNotUTF8IsNamedInAWarning() throws {
        let s = try Sandbox()
        try s.write("ok.md", "# Ok\n\nplain\n")
        // `café.md` in Latin-1: the é is the one byte 0xE9.
        let bytes = Array((s.vault + "/caf").utf8) + [0xE9] + Array(".md".utf8) + [0]
        let made = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    open($0, O_WRONLY | O_CREAT | O_EXCL, 0o644)
                }
            } ?? -1
        }
        #expect(made >= 0)
        if made >= 0 { close(made) }
        for arguments in [["list"], ["search", "plain"]] {
            let run = try s.run(arguments)
            #expect(run.status == 0, "\(run)")
            #expect(run.stdout.hasPrefix("ok\t"), "\(run)")
            #expect(
                run.stderr
                    == "warning: \(s.vault)/caf\u{FFFD}.md: its name is not UTF-8, so it is not read as a note; "
                    + "rename it to read it\n", "\(run)")
        }
    }

    /// Arguments and `NOTES_VAULT` with bytes that are not UTF-8 (only a shell can pass them): Swift
    /// would repair them into U+FFFD, so a Latin-1 `café` would be saved as `caf�` and a vault path
    /// would name another folder. Refused before anything runs — exit 64 for an argument, 1 for a
    /// variable — and nothing written.
    @Test func bytesThatAreNotUTF8InArgumentsAndTheVaultPath() throws {
        let s = try Sandbox()
        try s.write("a.md", "# Alpha\n")
        let before = TreeSnapshot(s.vault, skipping: [])
        let bin = "'\(Sandbox.binary)'"
        for line in [
            "\(bin) show \"$(printf 'a\\377')\"", "\(bin) search \"$(printf '\\377\\376')\"",
            "\(bin) add \"$(printf 'caf\\351 au lait')\"", "\(bin) add --title \"$(printf '\\351')\" text",
            "\(bin) edit a \"$(printf 'caf\\351')\"", "\(bin) move a \"$(printf 'b\\377')\"",
            "\(bin) config set editor \"$(printf 'vi\\377')\"", "\(bin) --vault \"$(printf '\\377')\" add x",
            "\(bin) delete --yes \"$(printf 'a\\377')\"",
        ] {
            let run = try s.run([], shell: line)
            #expect(run.status == 64, "\(line): \(run)")
            #expect(
                run.stderr.hasPrefix("Error: argument ") && run.stderr.contains("is not UTF-8 text"),
                "\(line): \(run)")
        }
        for variable in ["NOTES_VAULT", "NOTES_CONFIG"] {
            let run = try s.run(
                [], shell: "\(variable)=\"$(printf '\(s.root.path)/\\377')\" \(bin) add hello")
            #expect(run.status == 1 && run.stderr.hasPrefix("Error: \(variable) ("), "\(run)")
        }
        #expect(TreeSnapshot(s.vault, skipping: []) == before)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: s.root.path).filter {
                $0.contains("\u{FFFD}")
            }.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: s.config + "/notes/settings.json"))
    }

    /// A NUL cannot be in an argument or a variable (the system ends them at a NUL): it can only
    /// come from stdin, a file, or the settings. From stdin (`add -`, `edit ID -`) it is text like
    /// any other: kept as typed, shown as a blank in lists.
    @Test func nulBytesTypedOnStdinAreKeptAsTyped() throws {
        let s = try Sandbox()
        let add = try s.run(["add", "-"], stdin: "Nul\0title\nbody\0after\n")
        #expect(add.status == 0, "\(add)")
        let id = add.stdout.trimmingCharacters(in: .newlines)
        let file = try s.bytes(id + ".md")
        #expect(
            file.split(separator: UInt8(ascii: "\n")).suffix(2) == [
                Array("Nul\0title".utf8)[...], Array("body\0after".utf8)[...],
            ])
        let list = try s.run(["list"])
        #expect(list.status == 0 && list.stdout.hasSuffix("\tNul title\n"), "\(list)")
        let search = try s.run(["search", "after"])
        #expect(search.stdout.hasPrefix(id + "\t"), "\(search)")
        let edit = try s.run(["edit", id, "-"], stdin: "new\0text\n")
        #expect(edit.status == 0, "\(edit)")
        let lines = try s.bytes(id + ".md").split(
            separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let old = file.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        // Only the body and updatedAt changed.
        #expect(
            lines.count == 6 && Array(lines[0...1]) == Array(old[0...1]) && lines[3] == old[2], "\(lines)")
        #expect(lines[2].starts(with: Array("updatedAt: ".utf8)) && lines[4] == Array("new\0text".utf8)[...])
    }

    /// A NUL in the `vault` or `editor` setting (`\u0000` in the JSON) would cut the path or the
    /// command short: the vault `/x/v\u0000zzz` was `/x/v`, and `add` then looped for ever looking
    /// for a free name there. The value is refused with a warning, like any invalid value.
    @Test func aNulInTheVaultOrEditorSettingIsRefused() throws {
        let s = try Sandbox()
        try s.write("a.md", "# Alpha\n")
        let before = TreeSnapshot(s.vault, skipping: [])
        try FileManager.default.createDirectory(
            atPath: s.config + "/notes", withIntermediateDirectories: true)
        try Data(#"{"vault": "\#(s.vault)\u0000zzz"}"#.utf8).write(
            to: URL(fileURLWithPath: s.config + "/notes/settings.json"))
        let list = try s.run(["list"], vaultVariable: false, tty: true)
        #expect(list.status == 0 && !list.stdout.contains("Alpha"), "\(list)")
        #expect(list.stderr.contains(#"\u0000zzz' is not a valid value for 'vault'"#), "\(list)")
        let add = try s.run(["add", "hello"], vaultVariable: false, tty: true)
        #expect(add.status == 0 && add.stderr.contains("Created the vault \(s.home)/Notes"), "\(add)")
        #expect(TreeSnapshot(s.vault, skipping: []) == before)

        let marker = s.root.path + "/editor-ran"
        let editor = try s.script("editor.sh", "touch '\(marker)'")
        try Data(#"{"editor": "true\u0000; echo"}"#.utf8).write(
            to: URL(fileURLWithPath: s.config + "/notes/settings.json"))
        let edit = try s.run(["edit", "a"], env: ["VISUAL": editor], tty: true)
        #expect(edit.stderr.contains("is not a valid value for 'editor'"), "\(edit)")
        #expect(FileManager.default.fileExists(atPath: marker), "the editor setting was not used, VISUAL was")
    }

    /// A 60 MB note on one line: listed, found, its 60 MB title printed whole when piped.
    @Test(.tags(.heavy), .skippedInQuickLoop) func aSixtyMegabyteSingleLineNote() throws {
        let s = try Sandbox()
        var line = [UInt8](repeating: UInt8(ascii: "x"), count: 60_000_000)
        for k in stride(from: 0, to: line.count - 20, by: 1_000_000) {
            line.replaceSubrange(k..<(k + 8), with: Array(" crème ".utf8))
        }
        line.replaceSubrange(30_500_000..<30_500_008, with: Array(" needle ".utf8))
        try s.writeBytes("big.md", line)
        try s.write("small.md", "# Small\n")
        let before = TreeSnapshot(s.vault)
        let list = try s.run(["list"])
        #expect(list.status == 0 && list.stdout.utf8.count > 60_000_000, "\(list.status) \(list.stderr)")
        #expect(list.stdout.contains("small\t"))
        let search = try s.run(["search", "needle", "creme"])
        #expect(
            search.status == 0 && search.stdout.hasPrefix("big\t") && !search.stdout.contains("small"),
            "\(search.stderr)")
        #expect(TreeSnapshot(s.vault) == before)
    }

    /// Two million blank lines, in the body and in a front matter: the title, the preview after
    /// them, tags and links on the last line, and no front matter when it never closes.
    @Test(.tags(.heavy), .skippedInQuickLoop) func twoMillionBlankLines() throws {
        let s = try Sandbox()
        let blank = String(repeating: "\n", count: 2_000_000)
        try s.write("body.md", "# Blank\n" + blank + "last line #tag [[fm]]\n")
        try s.write("fm.md", "---\n" + blank + "title: Far title\n---\nbody\n")
        try s.write("open.md", "---\n" + blank + "never closed\n")
        let before = TreeSnapshot(s.vault)
        let list = try s.run(["list", "--json"])
        #expect(list.status == 0, "\(list)")
        #expect(list.stdout.contains("last line #tag [[fm]]"), "\(list.stdout.prefix(2000))")
        #expect(list.stdout.contains("Far title"), "\(list.stdout.prefix(2000))")
        #expect(
            list.stderr.contains("open.md:1: front matter has no closing '---' line"),
            "\(list.stderr.prefix(2000))")
        let links = try s.run(["links", "body"])
        #expect(links.status == 0 && links.stdout.contains("2000002"), "\(links)")
        let tags = try s.run(["tags"])
        #expect(tags.stdout.contains("tag"), "\(tags)")
        #expect(TreeSnapshot(s.vault) == before)
    }

    /// Folders 500 deep (1,000 bytes of path) and deeper than PATH_MAX (5,500 bytes): the first
    /// is listed, shown, found and edited; the second cannot be opened by its path, so its notes
    /// are skipped with a warning naming the folder — the others are listed, the command ends
    /// normally, and nothing else changes.
    @Test func foldersFiveHundredDeep() throws {
        let s = try Sandbox()
        try s.write("top.md", "# Top\n")
        let deep = RawFiles.nest(s.vault, "d", depth: 500)
        #expect(RawFiles.create(deep, "deep.md", Array("# Deep note\nfound here\n".utf8)))
        close(deep)
        let deeper = RawFiles.nest(s.vault, "folder-abc", depth: 500)
        #expect(RawFiles.create(deeper, "deeper.md", Array("# Deeper note\n".utf8)))
        close(deeper)
        let id = String(repeating: "d/", count: 500) + "deep"
        let before = TreeSnapshot(s.vault)
        let list = try s.run(["list"], tty: true)
        #expect(
            list.status == 0 && list.stdout.contains(id + "\t") && list.stdout.contains("top\t"),
            "\(list.stderr)")
        #expect(!list.stdout.contains("deeper"))
        #expect(
            list.stderr.contains(
                "/folder-abc: could not read this folder (File name too long); its notes are skipped"))
        let show = try s.run(["show", id])
        #expect(show.status == 0 && show.stdout == "# Deep note\nfound here\n", "\(show)")
        let search = try s.run(["search", "found"])
        #expect(search.status == 0 && search.stdout.hasPrefix(id + "\t"), "\(search)")
        #expect(TreeSnapshot(s.vault) == before)
        let edit = try s.run(["edit", id, "-"], stdin: "# Deep note\nedited\n")
        #expect(edit.status == 0, "\(edit)")
        #expect(
            try String(contentsOfFile: s.vault + "/" + id + ".md", encoding: .utf8).hasSuffix(
                "---\n# Deep note\nedited\n"))
    }

    /// 100,000 notes in one folder (made with raw system calls): listed, searched, indexed; the
    /// notes are not touched.
    @Test(.tags(.heavy), .skippedInQuickLoop) func aHundredThousandFilesInOneFolder() throws {
        let s = try Sandbox()
        let folder = open(s.vault, O_RDONLY | O_DIRECTORY)
        for n in 0..<100_000 {
            RawFiles.create(folder, "n\(n).md", Array("# Note \(n)\nw\(n % 1000)x body\n".utf8))
        }
        close(folder)
        let before = TreeSnapshot(s.vault, hashingUpTo: 0)
        let list = try s.run(["list", "--limit", "3", "--sort", "title"])
        #expect(list.status == 0 && list.stdout.split(separator: "\n").count == 3, "\(list)")
        let search = try s.run(["search", "w7x body", "--json"])
        #expect(
            search.status == 0 && search.stdout.components(separatedBy: #""id""#).count - 1 == 100,
            "\(search.stderr)")
        let index = try s.run(["index"])
        #expect(index.status == 0 && index.stderr.contains("up to date: 100000 notes"), "\(index)")
        #expect(TreeSnapshot(s.vault, hashingUpTo: 0) == before)
    }

    /// Front matters of 10 MB: 100,000 keys, a 10 MB title, a 10 MB tag list. Listed with their
    /// titles; an edit changes only the body and `updatedAt`, every one of those bytes kept.
    @Test(.tags(.heavy), .skippedInQuickLoop) func aFrontMatterOfTenMegabytes() throws {
        let s = try Sandbox()
        let filler = String(repeating: "v", count: 85)
        let keys = (0..<100_000).map { "key\($0): \(filler) \($0)\n" }.joined()
        try s.write(
            "keys.md", "---\ntitle: Many keys\ncreatedAt: 2026-11-29T12:38:16Z\n" + keys + "---\nold body\n")
        try s.write("title.md", "---\ntitle: " + String(repeating: "t", count: 10_000_000) + "\n---\nbody\n")
        let tagList = (0..<100_000).map { "\(filler)\($0 % 50_000)" }.joined(separator: ", ")
        try s.write("tags.md", "---\ntags: [" + tagList + "]\n---\n# Tagged\n")
        let before = TreeSnapshot(s.vault)
        let list = try s.run(["list"])
        #expect(
            list.status == 0 && list.stdout.contains("\tMany keys\n") && list.stdout.contains("\tTagged\n"),
            "\(list.stderr)")
        #expect(list.stdout.contains(String(repeating: "t", count: 10_000_000)))
        let tags = try s.run(["list", "--tag", filler + "49999"])
        #expect(tags.status == 0 && tags.stdout.hasPrefix("tags\t"), "\(tags)")
        #expect(TreeSnapshot(s.vault) == before)
        let original = try s.read("keys.md")
        let edit = try s.run(["edit", "keys", "new body"])
        #expect(edit.status == 0, "\(edit)")
        let edited = try s.read("keys.md")
        let updated = edited.split(separator: "\n").first { $0.hasPrefix("updatedAt: ") } ?? ""
        #expect(
            edited
                == original.replacingOccurrences(
                    of: "2026-11-29T12:38:16Z\n", with: "2026-11-29T12:38:16Z\n\(updated)\n"
                )
                .replacingOccurrences(of: "---\nold body\n", with: "---\nnew body\n"))
    }

    /// A settings file of 50 MB: valid JSON (a 50 MB unknown key) is read, and kept whole by
    /// `config set`; garbage gives a warning and the defaults, and `config set` refuses to touch it.
    @Test(.tags(.heavy), .skippedInQuickLoop) func aSettingsFileOfFiftyMegabytes() throws {
        let s = try Sandbox()
        try s.write("b.md", "# Beta\n", mtime: Date(timeIntervalSince1970: 1_000_000_000))
        try s.write("a.md", "# Alpha\n", mtime: Date(timeIntervalSince1970: 1_000_000_100))
        let path = s.config + "/notes/settings.json"
        try FileManager.default.createDirectory(
            atPath: s.config + "/notes", withIntermediateDirectories: true)
        let junk = String(repeating: "j", count: 50_000_000)
        try Data(#"{"sort": "title", "junk": "\#(junk)"}"#.utf8).write(to: URL(fileURLWithPath: path))
        let list = try s.run(["list"])
        #expect(list.status == 0 && list.stdout.hasPrefix("a\t") && list.stderr.isEmpty, "\(list.stderr)")
        let set = try s.run(["config", "set", "scheme", "blue"])
        #expect(set.status == 0, "\(set)")
        let saved =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
            as? [String: Any]
        #expect(saved?["junk"] as? String == junk && saved?["scheme"] as? String == "blue")

        var garbage = [UInt8](repeating: 0x7B, count: 50_000_000)
        garbage[25_000_000] = 0xFF
        try Data(garbage).write(to: URL(fileURLWithPath: path))
        let before = [TreeSnapshot(s.vault), TreeSnapshot(s.config)]
        let listed = try s.run(["list"])
        #expect(listed.status == 0 && listed.stdout.hasPrefix("a\t"), "\(listed.stderr.prefix(500))")
        #expect(listed.stderr.contains("is not valid"), "\(listed.stderr.prefix(500))")
        let refused = try s.run(["config", "set", "scheme", "green"])
        #expect(refused.status == 1 && refused.stderr.contains("\nError: "), "\(refused.stderr.prefix(500))")
        #expect([TreeSnapshot(s.vault), TreeSnapshot(s.config)] == before)
    }

    /// The delta of the index replaced by a FIFO or a folder, the index by a symlink to a FIFO or
    /// to /dev/zero, or by a sparse file of a terabyte: read commands list at once (a FIFO is never
    /// waited on), nothing but the index is touched, and a rebuild puts real files back.
    @Test(arguments: [
        "delta FIFO", "delta folder", "index symlink to a FIFO", "index symlink to /dev/zero", "sparse index",
    ])
    func anIndexFileThatIsNotOne(_ kind: String) throws {
        let s = try Sandbox()
        try s.write("a.md", "# Alpha\n")
        #expect(try s.run(["index"]).status == 0)
        try s.write("b.md", "# Beta\n")
        #expect(try s.run(["index"]).status == 0)
        let index = s.vault + "/.notes/index"
        let delta = s.vault + "/.notes/index.delta"
        try? FileManager.default.removeItem(atPath: delta)
        switch kind {
        case "delta FIFO": #expect(mkfifo(delta, 0o600) == 0)
        case "delta folder":
            try FileManager.default.createDirectory(atPath: delta, withIntermediateDirectories: false)
        case "index symlink to a FIFO":
            #expect(mkfifo(s.root.path + "/fifo", 0o600) == 0)
            try FileManager.default.removeItem(atPath: index)
            try FileManager.default.createSymbolicLink(
                atPath: index, withDestinationPath: s.root.path + "/fifo")
        case "index symlink to /dev/zero":
            try FileManager.default.removeItem(atPath: index)
            try FileManager.default.createSymbolicLink(atPath: index, withDestinationPath: "/dev/zero")
        default:
            #expect(truncate(index, 1 << 40) == 0)
        }
        let before = TreeSnapshot(s.vault)
        let list = try s.run(["list"], tty: true)
        #expect(list.status == 0 && list.stdout.contains("a\t") && list.stdout.contains("b\t"), "\(list)")
        let search = try s.run(["search", "beta"], tty: true)
        #expect(search.status == 0 && search.stdout.hasPrefix("b\t"), "\(search)")
        #expect(TreeSnapshot(s.vault) == before)
        let rebuild = try s.run(["index", "--rebuild"], tty: true)
        #expect(rebuild.status == 0 || rebuild.stderr.hasPrefix("Error: "), "\(rebuild)")
        var st = stat()
        if rebuild.status == 0 {
            #expect(lstat(index, &st) == 0 && st.st_mode & S_IFMT == S_IFREG && st.st_size < 1 << 20)
        }
        #expect(TreeSnapshot(s.vault) == before)
    }
}

/// An index whose bytes were changed on disk: every command shows the notes as their
/// files have them, and the index is written anew.
@Suite struct DamagedIndexTests {
    /// A vault of two notes and its index, in which the second byte of the first occurrence of
    /// each of `markers` is changed; the index's path and damaged bytes.
    static func damaged(_ s: Sandbox, markers: [String]) throws -> (index: String, bytes: [UInt8]) {
        try s.write("a.md", "# Alphaquux\n\nThe zebraword is here.\n")
        try s.write("b.md", "# Beta\n")
        #expect(try s.run(["index"]).status == 0)
        let index = s.vault + "/.notes/index"
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: index)))
        for marker in markers {
            let needle = Array(marker.utf8)
            let at = try #require(bytes.indices.first { bytes[$0...].starts(with: needle) })
            bytes[at + 1] ^= 0x01
        }
        try Data(bytes).write(to: URL(fileURLWithPath: index))
        return (index, bytes)
    }

    @Test func aByteChangedInTheIndexIsNeverShown() throws {
        let s = try Sandbox()
        // The title as the index keeps it to show, and the text a search reads.
        let (index, bytes) = try Self.damaged(s, markers: ["Alphaquux", "zebraword"])
        let before = TreeSnapshot(s.vault)
        let list = try s.run(["list"])
        #expect(list.status == 0 && list.stderr.isEmpty, "\(list)")
        #expect(list.stdout.contains("\tAlphaquux\n") && !list.stdout.contains("Amphaquux"), "\(list)")
        let search = try s.run(["search", "zebraword"])
        #expect(search.status == 0 && search.stdout.hasPrefix("a\t"), "\(search)")
        #expect(TreeSnapshot(s.vault) == before)
        // Written anew: a sound index that the next command trusts.
        let again = try s.run(["index"])
        #expect(again.status == 0, "\(again)")
        let rewritten = try [UInt8](Data(contentsOf: URL(fileURLWithPath: index)))
        #expect(rewritten != bytes)
        #expect(rewritten.indices.contains { rewritten[$0...].starts(with: Array("Alphaquux".utf8)) })
    }

    /// `notes index` reads every part of every note in the index against its checksum (commands
    /// read only what they show), and rebuilds an index with damage in it.
    @Test func notesIndexFindsDamageNoOtherCommandRead() throws {
        let s = try Sandbox()
        _ = try Self.damaged(s, markers: ["zebraword"])
        let check = try s.run(["index"])
        #expect(check.status == 0 && check.stdout.isEmpty, "\(check)")
        #expect(
            check.stderr.hasPrefix("Index rebuilt, 1 note was damaged in it: 2 notes, 2 read"), "\(check)")
        let again = try s.run(["index"])
        #expect(again.stderr.hasPrefix("Index already up to date: 2 notes, 0 read"), "\(again)")
        let search = try s.run(["search", "zebraword"])
        #expect(search.stdout.hasPrefix("a\t"), "\(search)")
    }
}

@Suite struct RelativeVaultTests {
    /// `--vault .` (and `./`, `../vault`): a note is found by its ID, its file name and its path,
    /// as with an absolute vault path.
    @Test(arguments: [".", "./", "../vault"])
    func aRelativeVaultPathFindsNotes(_ vault: String) throws {
        let s = try Sandbox()
        try s.write("plan.md", "# Plan\n")
        try s.write("work/standup.md", "# Standup\n")
        let cwd = vault == "../vault" ? s.home : s.vault
        for argument in ["plan", "plan.md", "work/standup"] {
            let show = try s.run(["--vault", vault, "show", argument], cwd: cwd, vaultVariable: false)
            #expect(show.status == 0 && show.stdout.hasPrefix("# "), "\(vault) \(argument): \(show)")
        }
        let edit = try s.run(["--vault", vault, "edit", "plan", "more"], cwd: cwd, vaultVariable: false)
        #expect(edit.status == 0, "\(edit)")
        #expect(try String(contentsOfFile: s.vault + "/plan.md", encoding: .utf8).contains("more"))
    }
}
