import Foundation
import TestSupport
import Testing

/// `notes import` of the fixtures in `fixtures/import/`: each source imports to exactly the notes
/// of its `expected/` folder, again adds nothing, and a bad source fails naming the file and the
/// place, with nothing written.
@Suite struct ImportCommandTests {
    static let fixtures =
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("fixtures/import").path

    /// A source of a format: its files in the fixture folder (the first is the one named).
    struct Source: CustomTestStringConvertible, Sendable {
        var format: String
        var files: [String]
        var testDescription: String { format + " " + files[0] }
    }

    static let sources = [
        Source(format: "notetaker", files: ["notes.json"]),
        Source(format: "notetaker", files: ["preferences-xml.plist"]),
        Source(format: "notetaker", files: ["preferences-binary.plist"]),
        Source(format: "mynotesapp", files: ["default.store", "default.store-wal", "default.store-shm"]),
        Source(format: "simplenote", files: ["notes.json"]),
    ]

    /// Copies the source's files into the sandbox (outside the vault); returns the first one's path.
    static func place(_ source: Source, in s: Sandbox) throws -> String {
        let folder = s.base + "/source"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for file in source.files {
            try FileManager.default.copyItem(
                atPath: fixtures + "/" + source.format + "/" + file, toPath: folder + "/" + file)
        }
        return folder + "/" + source.files[0]
    }

    /// Every file under `folder` but `.notes/` and a killed process's temps (which the next write
    /// in their folder sweeps), by relative path, with its text.
    static func tree(_ folder: String) -> [String: String] {
        var files: [String: String] = [:]
        let walker = FileManager.default.enumerator(atPath: folder)
        while let relative = walker?.nextObject() as? String {
            if relative == ".notes" {
                walker?.skipDescendants()
                continue
            }
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: folder + "/" + relative, isDirectory: &isFolder)
            if !isFolder.boolValue, !(relative as NSString).lastPathComponent.hasPrefix(".notes-tmp-") {
                files[relative] =
                    (try? String(contentsOfFile: folder + "/" + relative, encoding: .utf8)) ?? "<bytes>"
            }
        }
        return files
    }

    @Test(arguments: sources)
    func eachSourceImportsToExactlyTheExpectedNotesAndAgainToNothing(_ source: Source) throws {
        let s = try Sandbox()
        let path = try Self.place(source, in: s)
        let first = try s.run(["import", source.format, path])
        #expect(
            first.stdout == "Imported 3 notes from \(source.format) (1 skipped: 0 already there, 1 empty)\n",
            "\(first)")
        #expect(first.status == 0 && first.stderr == "", "\(first)")
        let expected = Self.tree(Self.fixtures + "/" + source.format + "/expected")
        #expect(!expected.isEmpty)
        let imported = Self.tree(s.vault)
        #expect(imported.keys.sorted() == expected.keys.sorted())
        for (name, text) in expected { #expect(imported[name] == text, "\(name)") }

        let again = try s.run(["import", source.format, path])
        #expect(
            again.stdout == "Imported 0 notes from \(source.format) (4 skipped: 3 already there, 1 empty)\n",
            "\(again)")
        #expect(Self.tree(s.vault) == imported)
    }

    /// The app's store, its `-wal` (holding a row the store does not) and `-shm` are only read:
    /// byte for byte as they were, and the `-wal` still there.
    @Test func theAppsStoreFilesStayByteIdentical() throws {
        let s = try Sandbox()
        let path = try Self.place(Self.sources[3], in: s)
        let names = ["", "-wal", "-shm"].map { path + $0 }
        let before = try names.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        let stamps = names.map {
            (try? FileManager.default.attributesOfItem(atPath: $0)[.modificationDate]) as? Date
        }
        let result = try s.run(["import", "mynotesapp", path])
        #expect(result.status == 0, "\(result)")
        #expect(try names.map { try Data(contentsOf: URL(fileURLWithPath: $0)) } == before)
        #expect(
            names.map { (try? FileManager.default.attributesOfItem(atPath: $0)[.modificationDate]) as? Date }
                == stamps)
        // The row only in the -wal was read.
        #expect(Self.tree(s.vault)["only-in-the-wal.md"] != nil)
        // No private copy is left in the temporary folder.
        let temps = try FileManager.default.contentsOfDirectory(atPath: s.base).filter {
            $0.hasPrefix("notes-import-")
        }
        #expect(temps.isEmpty, "\(temps)")
    }

    /// A bad source: exit 1, the file and the place named, and nothing written.
    struct BadSource: CustomTestStringConvertible, Sendable {
        var format: String
        var file: String
        var message: String
        var testDescription: String { format + " " + file }
    }

    static let badSources = [
        BadSource(
            format: "simplenote", file: "truncated.json",
            message: "line 3, column 38: unterminated string"),
        BadSource(
            format: "notetaker", file: "no-notes.plist",
            message: "key 'notes': the property list has no 'notes' key: no NoteTaker data"),
        BadSource(
            format: "mynotesapp", file: "garbage.store",
            message: "its first 16 bytes: not a SQLite database (one starts with 'SQLite format 3')"),
    ]

    @Test(arguments: badSources)
    func aBadSourceFailsNamingTheFileAndThePlaceAndWritesNothing(_ bad: BadSource) throws {
        let s = try Sandbox()
        try s.write("kept.md", "# Kept\n")
        let path = try Self.place(Source(format: bad.format, files: [bad.file]), in: s)
        let before = TreeSnapshot(s.vault)
        let result = try s.run(["import", bad.format, path])
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr == "Error: could not import '\(path)': \(bad.message); nothing was imported\n")
        #expect(TreeSnapshot(s.vault) == before)
    }

    /// A good entry before a bad one in the same source: still nothing is written.
    @Test(arguments: [
        (
            "notetaker",
            #"[{"id":"a","title":"Fine","content":"x","date":0},{"id":"b","title":"Bad","date":"soon"}]"#,
            "entry 2: a date that is neither a number nor ISO 8601"
        ),
        (
            "notetaker", #"[{"id":"a","title":"Fine","content":"x","date":0},{"title":"No id"}]"#,
            "entry 2: no 'id'"
        ),
        (
            "simplenote",
            #"{"activeNotes":[{"id":"a","content":"Fine"},{"id":"b","content":"x","tags":"t"}]}"#,
            "activeNotes entry 2: 'tags' is not a list"
        ),
    ])
    func theWholeSourceIsCheckedBeforeTheFirstNote(_ format: String, _ json: String, _ message: String) throws
    {
        let s = try Sandbox()
        let path = s.base + "/source.json"
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        let result = try s.run(["import", format, path])
        #expect(result.stderr == "Error: could not import '\(path)': \(message); nothing was imported\n")
        #expect(result.status == 1)
        #expect(Self.tree(s.vault).isEmpty)
    }

    @Test func aMissingSqlite3SaysWhichPackageToInstall() throws {
        let s = try Sandbox()
        let path = try Self.place(Self.sources[3], in: s)
        let empty = s.base + "/bin"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let result = try s.run(["import", "mynotesapp", path], env: ["PATH": empty])
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "Error: could not import '\(path)': reading a SwiftData store needs the sqlite3 command; "
                + "install it (the Debian and Ubuntu package 'sqlite3', or Homebrew's 'sqlite'); nothing was imported\n"
        )
        #expect(Self.tree(s.vault).isEmpty)
    }

    @Test func aDryRunPrintsTheNotesItWouldMakeAndWritesNothing() throws {
        let s = try Sandbox()
        try s.write("shopping-list.md", "# Another shopping list\n")
        let path = try Self.place(Self.sources[4], in: s)
        let before = TreeSnapshot(s.vault)
        let result = try s.run(["import", "--dry-run", "simplenote", path])
        #expect(
            result.stdout == """
                shopping-list-2\tsimplenote:0f1e2d3c4b5a69788796a5b4c3d2e1f0
                creme-brulee-a-lodz\tsimplenote:a9b8c7d6e5f40312a9b8c7d6e5f40312
                heading-note\tsimplenote:5678efab5678efab5678efab5678efab
                Would import 3 notes from simplenote (1 skipped: 0 already there, 1 empty)

                """, "\(result)")
        #expect(result.status == 0 && result.stderr == "")
        #expect(TreeSnapshot(s.vault) == before)
        // What it printed is what an import makes.
        #expect(try s.run(["import", "simplenote", path]).status == 0)
        #expect(Self.tree(s.vault)["shopping-list-2.md"]?.contains("importedFrom: simplenote:0f1e") == true)
    }

    @Test func folderPutsTheNotesInAFolderOfTheVault() throws {
        let s = try Sandbox()
        let path = try Self.place(Self.sources[0], in: s)
        let result = try s.run(["import", "--folder", "from/notetaker", "notetaker", path])
        #expect(result.status == 0, "\(result)")
        #expect(
            Self.tree(s.vault).keys.sorted() == [
                "from/notetaker/creme-brulee-a-lodz.md", "from/notetaker/meeting.md",
                "from/notetaker/shopping-list.md",
            ])
        // Already there wherever the notes are now.
        try FileManager.default.moveItem(atPath: s.vault + "/from", toPath: s.vault + "/moved")
        let again = try s.run(["import", "notetaker", path])
        #expect(again.stdout == "Imported 0 notes from notetaker (4 skipped: 3 already there, 1 empty)\n")
    }

    /// A folder named with its accents decomposed (as macOS writes names) is the folder already
    /// there with them composed: the notes go into it, and no second `Café` is made beside it.
    @Test func aFolderSpelledWithDecomposedAccentsIsTheOneThere() throws {
        let s = try Sandbox()
        let path = try Self.place(Self.sources[0], in: s)
        let composed = "Caf\u{E9}"
        try FileManager.default.createDirectory(
            atPath: s.vault + "/" + composed, withIntermediateDirectories: true)
        let result = try s.run(["import", "--folder", "Cafe\u{301}/notes", "notetaker", path])
        #expect(result.status == 0, "\(result)")
        let folders = try FileManager.default.contentsOfDirectory(atPath: s.vault).filter {
            !$0.hasPrefix(".")
        }
        // Compared as bytes: `String`'s == takes the two spellings for one.
        #expect(folders.map { Array($0.utf8) } == [Array(composed.utf8)])
        let inside = try FileManager.default.contentsOfDirectory(atPath: s.vault + "/" + composed + "/notes")
        #expect(inside.sorted() == ["creme-brulee-a-lodz.md", "meeting.md", "shopping-list.md"])
    }

    /// A note that the vault's ignore files would hide is refused, naming the line, before any is
    /// written: by a folder's rule, and by a name pattern in the folder's own `.gitignore`.
    @Test func notesWhereTheIgnoreFilesWouldHideThemAreRefused() throws {
        let s = try Sandbox()
        let path = try Self.place(Self.sources[0], in: s)
        try s.write(".gitignore", "drafts/\n")
        let folder = try s.run(["import", "--folder", "drafts", "notetaker", path])
        #expect(folder.status == 1, "\(folder)")
        #expect(folder.stderr.contains(".gitignore:1"), "\(folder)")
        try s.write("in/.gitignore", "meeting.md\n")
        let name = try s.run(["import", "--folder", "in", "notetaker", path])
        #expect(name.status == 1, "\(name)")
        #expect(name.stderr.contains("in/.gitignore:1"), "\(name)")
        #expect(Self.tree(s.vault).keys.filter { $0.hasSuffix(".md") }.isEmpty)
    }

    /// The "already there" lookup reads the index, not every note: a note whose `importedFrom` the
    /// index holds counts, and an index of the old layout is rebuilt to hold it.
    @Test func anImportedNoteEditedByHandStillCountsAsThere() throws {
        let s = try Sandbox()
        let path = try Self.place(Self.sources[4], in: s)
        #expect(try s.run(["import", "simplenote", path]).status == 0)
        try mustRun(s, ["edit", "heading-note", "# Heading note\n\nrewritten"])
        let again = try s.run(["import", "simplenote", path])
        #expect(again.stdout == "Imported 0 notes from simplenote (4 skipped: 3 already there, 1 empty)\n")
    }

    /// Two imports of one source at once: the vault's lock makes one wait for the other, which
    /// then finds every entry already there.
    @Test func twoImportsAtOnceMakeEachNoteOnce() throws {
        let s = try Sandbox()
        let path = try Self.place(Self.sources[4], in: s)
        let outputs = (0..<2).map { s.base + "/out-\($0)" }
        let runs = try outputs.map { output in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Sandbox.binary)
            process.arguments = ["import", "simplenote", path]
            process.environment = s.baseEnvironment()
            _ = FileManager.default.createFile(atPath: output, contents: nil)
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
            try process.run()
            return process
        }
        for run in runs { run.waitUntilExit() }
        let printed = try outputs.map { try String(contentsOfFile: $0, encoding: .utf8) }.sorted()
        #expect(Self.tree(s.vault).count == 3, "\(printed)")
        #expect(
            printed == [
                "Imported 0 notes from simplenote (4 skipped: 3 already there, 1 empty)\n",
                "Imported 3 notes from simplenote (1 skipped: 0 already there, 1 empty)\n",
            ])
    }

    @Test func withGitAutoCommitTheWholeImportIsOneCommit() throws {
        let s = try Sandbox()
        try s.write("groceries.md", "# Groceries\n")
        try s.makeRepository()
        try s.run(["config", "set", "gitAutoCommit", "true"])
        let before = try s.commitSubjects().count
        let path = try Self.place(Self.sources[4], in: s)
        let result = try s.run(["import", "simplenote", path])
        #expect(result.status == 0 && result.stderr == "", "\(result)")
        let subjects = try s.commitSubjects()
        #expect(subjects.count == before + 1)
        #expect(subjects.first == "notes: import shopping-list, creme-brulee-a-lodz, heading-note")
        #expect(
            try s.committedFiles().sorted() == [
                "creme-brulee-a-lodz.md", "heading-note.md", "shopping-list.md",
            ])
        #expect(try s.gitStatus() == "")
    }
}

/// An import cut short — killed at any step, or stopped by a disk that fills up at any step —
/// leaves only whole notes, and the same command run again finishes it: the vault is then as
/// after an import that was never interrupted, without a duplicate.
@Suite(.tags(.heavy), .skippedInQuickLoop) struct ImportResumeTests {
    /// A vault with a note, and the source: a Simplenote export (one note into a taken name), or
    /// the Keep fixture (notes with an image and a photo, which go in before the notes linking them).
    static func setup(_ s: Sandbox, _ format: String) throws -> [String] {
        try s.write("alpha.md", fixtureNote("Alpha", body: "alpha body", day: 1))
        if format == "keep" {
            try FileManager.default.copyItem(
                atPath: ImportCommandTests.fixtures + "/keep/Takeout", toPath: s.base + "/Takeout")
            return ["import", "keep", s.base + "/Takeout/Keep"]
        }
        try CrashSafetyTests.importSource.write(to: URL(fileURLWithPath: s.base + "/notes.json"))
        return ["import", "simplenote", s.base + "/notes.json"]
    }

    @Test(arguments: ["NOTES_TEST_CRASH_AT", "NOTES_TEST_FULL_DISK_AT"], ["simplenote", "keep"])
    func runningTheImportAgainFinishesItWithoutDuplicates(_ seam: String, _ format: String) throws {
        let reference = try Sandbox(place: .memory)
        try mustRun(reference, try Self.setup(reference, format))
        // Byte for byte, the attachments too.
        let expected = ImportFormatGoldenTests.files(reference.vault)
        #expect(expected.count == (format == "keep" ? 6 : 4))
        for n in 1...200 {
            let s = try Sandbox(place: .memory)
            let arguments = try Self.setup(s, format)
            let cut = try s.run(arguments, env: [seam: "\(n)"])
            if cut.status == 0 { return }
            let again = try s.run(arguments)
            #expect(again.status == 0, "\(seam)=\(n): \(again)")
            let files = ImportFormatGoldenTests.files(s.vault)
            #expect(files == expected, "\(seam)=\(n): \(files.keys.sorted())")
            if files != expected { return }
        }
        Issue.record("the import never finished")
    }
}
