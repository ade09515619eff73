import Foundation
import TestSupport
import Testing

/// `notes import` of the enex, jrnl and keep fixtures: each imports to exactly the files of its
/// `expected/` folder (notes and attachments, byte for byte), and again to nothing; a bad source
/// fails naming the file and the place, with nothing written.
@Suite struct ImportFormatGoldenTests {
    static let fixtures = ImportCommandTests.fixtures

    /// A source: its format, the paths to name (in the fixture folder), what the first run prints.
    struct Source: CustomTestStringConvertible, Sendable {
        var format: String
        var paths: [String]
        var created: Int
        var empty: Int
        var testDescription: String { format + " " + paths.joined(separator: " ") }
    }

    static let sources = [
        Source(format: "enex", paths: ["export.enex"], created: 4, empty: 1),
        Source(format: "jrnl", paths: ["journal.json", "dayone.json"], created: 7, empty: 0),
        Source(format: "keep", paths: ["Takeout/Keep"], created: 3, empty: 1),
    ]

    /// Every file under `folder` but `.notes/` and temps, by relative path, with its bytes.
    static func files(_ folder: String) -> [String: Data] {
        var files: [String: Data] = [:]
        let walker = FileManager.default.enumerator(atPath: folder)
        while let relative = walker?.nextObject() as? String {
            if relative == ".notes" {
                walker?.skipDescendants()
                continue
            }
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: folder + "/" + relative, isDirectory: &isFolder)
            if !isFolder.boolValue, !(relative as NSString).lastPathComponent.hasPrefix(".notes-tmp-") {
                files[relative] = FileManager.default.contents(atPath: folder + "/" + relative)
            }
        }
        return files
    }

    /// The source's fixture folder copied outside the vault; the paths to name in it.
    static func place(_ source: Source, in s: Sandbox) throws -> [String] {
        let copy = s.base + "/source"
        try FileManager.default.copyItem(atPath: fixtures + "/" + source.format, toPath: copy)
        try FileManager.default.removeItem(atPath: copy + "/expected")
        return source.paths.map { copy + "/" + $0 }
    }

    @Test(arguments: sources)
    func eachSourceImportsToExactlyTheExpectedFilesAndAgainToNothing(_ source: Source) throws {
        let s = try Sandbox()
        let paths = try Self.place(source, in: s)
        // jrnl writes local time: the fixture was made in Berlin.
        let env = ["TZ": "Europe/Berlin"]
        let first = try s.run(["import", source.format] + paths, env: env)
        #expect(
            first.stdout
                == "Imported \(source.created) notes from \(source.format) (\(source.empty) skipped: 0 already there, "
                + "\(source.empty) empty)\n", "\(first)")
        #expect(first.status == 0 && first.stderr == "", "\(first)")
        let expected = Self.files(Self.fixtures + "/" + source.format + "/expected")
        let imported = Self.files(s.vault)
        #expect(imported.keys.sorted() == expected.keys.sorted())
        for (name, bytes) in expected {
            #expect(
                imported[name] == bytes,
                "\(name): \(String(decoding: imported[name] ?? Data(), as: UTF8.self))")
        }

        let again = try s.run(["import", source.format] + paths, env: env)
        let total = source.created + source.empty
        #expect(
            again.stdout
                == "Imported 0 notes from \(source.format) (\(total) skipped: \(source.created) already there, "
                + "\(source.empty) empty)\n", "\(again)")
        #expect(Self.files(s.vault) == imported)
    }

    /// An export of one note with a pasted image named as Evernote names them all: `image.png`
    /// (not shown in the text, so linked at its end).
    static func enex(title: String, text: String, image: [UInt8]) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <en-export><note><title>\(title)</title><created>20250310T101500Z</created>
        <content><![CDATA[<en-note><div>\(text)</div></en-note>]]></content>
        <resource><data>\(Data(image).base64EncodedString())</data><mime>image/png</mime>
        <resource-attributes><file-name>image.png</file-name></resource-attributes></resource>
        </note></en-export>
        """
    }

    /// A second export into the same folder whose `image.png` has other bytes: it is written as
    /// `image 2.png` and the note links to that; the first note and file are untouched.
    @Test func aSecondExportWithAnotherImageOfTheSameNameGetsAFreeName() throws {
        let s = try Sandbox()
        let first = s.base + "/one.enex"
        let second = s.base + "/two.enex"
        try Data(Self.enex(title: "One", text: "a [[wiki]] b", image: [1, 2, 3]).utf8).write(
            to: URL(fileURLWithPath: first))
        try Data(Self.enex(title: "Two", text: "# not a heading", image: [4, 5]).utf8).write(
            to: URL(fileURLWithPath: second))
        #expect(try s.run(["import", "enex", first]).status == 0)
        let result = try s.run(["import", "enex", second])
        #expect(result.status == 0 && result.stderr == "", "\(result)")
        #expect(FileManager.default.contents(atPath: s.vault + "/_resources/image.png") == Data([1, 2, 3]))
        #expect(FileManager.default.contents(atPath: s.vault + "/_resources/image 2.png") == Data([4, 5]))
        let two = try String(contentsOfFile: s.vault + "/two.md", encoding: .utf8)
        #expect(two.hasSuffix("# Two\n\n\\# not a heading\n\n![](<_resources/image 2.png>)\n"), "\(two)")
        let one = try String(contentsOfFile: s.vault + "/one.md", encoding: .utf8)
        #expect(one.hasSuffix("# One\n\na \\[\\[wiki\\]\\] b\n\n![](_resources/image.png)\n"), "\(one)")
        let broken = try s.run(["links", "--broken"])
        #expect(broken.stdout == "" && broken.status == 0, "\(broken)")
        let again = try s.run(["import", "enex", second])
        #expect(again.stdout.contains("1 already there"), "\(again)")
        #expect(!FileManager.default.fileExists(atPath: s.vault + "/_resources/image 3.png"))
    }

    /// A Keep note whose attached file is missing is imported without it, with a warning naming
    /// the note's file and the missing one; the other notes are imported as ever.
    @Test func aMissingKeepAttachmentWarnsAndImportsTheRest() throws {
        let s = try Sandbox()
        let folder = s.base + "/Keep"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(
            #"{"title": "Photo", "textContent": "see", "createdTimestampUsec": 1, "attachments": [{"filePath": "gone.jpg", "mimetype": "image/jpeg"}]}"#
                .utf8
        ).write(to: URL(fileURLWithPath: folder + "/A.json"))
        try Data(#"{"title": "Plain", "textContent": "text", "createdTimestampUsec": 2}"#.utf8).write(
            to: URL(fileURLWithPath: folder + "/B.json"))
        let result = try s.run(["import", "keep", folder])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stderr
                == "warning: '\(folder)/A.json': its attached file 'gone.jpg' is not beside it in the Takeout "
                + "folder; the note is imported without it\n")
        #expect(result.stdout == "Imported 2 notes from keep (0 skipped: 0 already there, 0 empty)\n")
        let photo = try String(contentsOfFile: s.vault + "/photo.md", encoding: .utf8)
        #expect(photo.hasSuffix("# Photo\n\nsee\n"), "\(photo)")
        #expect(FileManager.default.fileExists(atPath: s.vault + "/plain.md"))
    }

    /// A bad source of each format: exit 1, the file and the place named, and nothing written.
    @Test(arguments: [
        (
            "enex", "cut.enex", "<?xml version=\"1.0\"?>\n<en-export>\n  <note><title>Cut",
            "line 3, column 19: the text ends inside an element: the file is cut short"
        ),
        (
            "enex", "base64.enex",
            "<en-export><note><title>A</title><content/><resource><data>!!</data></resource></note></en-export>",
            "entry 1, resource 1: its data is not valid base64"
        ),
        (
            "jrnl", "journal.json", "{\"entries\": [\n  {\"date\": \"2025-03-10\"",
            "line 2, column 24: unexpected end of input"
        ),
        (
            "keep", "Note.json", "{\"title\": \"a\", \"textContent\": \"b\", \"createdTimestampUsec\": -1}",
            "createdTimestampUsec: it is missing, or not a whole number of microseconds"
        ),
    ])
    func aBadSourceFailsNamingTheFileAndThePlaceAndWritesNothing(
        _ format: String, _ name: String, _ text: String, _ message: String
    ) throws {
        let s = try Sandbox()
        try s.write("kept.md", "# Kept\n")
        let path = s.base + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let before = TreeSnapshot(s.vault)
        let result = try s.run(["import", format, path])
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr == "Error: could not import '\(path)': \(message); nothing was imported\n")
        #expect(TreeSnapshot(s.vault) == before)
    }
}
