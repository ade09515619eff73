import Foundation
import TestSupport
import Testing

@testable import NotesKit

/// A note's index record is made straight from the file's bytes where `recordFromBytes` is sure
/// of the note, else as it always was (the file read into a `LoadedNote`). The oracle: for every
/// note of a corpus — the fixtures, generated vaults, the Obsidian help vault where it is there,
/// and hand-made edge cases — both ways give the same record, byte for byte, and the same warnings;
/// and the fast way is taken for the notes it is for (it never silently hands everything over).
@Suite struct RecordFromBytesTests {
    /// The package's root folder.
    static let packageRoot = URL(fileURLWithPath: #filePath)  // <root>/Tests/NotesKitTests/<this file>
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// One note's record made one way: the index bytes of a table holding it alone, its warnings.
    static func record(_ vault: Vault, _ path: String, fromBytes: Bool) -> ([UInt8], [Diagnostic], mode_t) {
        var table = IndexTable(capacity: 1)
        var mode: mode_t = 0o666
        var folding = TextFolder()
        let diagnostics = vault.encode(
            path, walked: nil, relativeTo: nil, into: &table, mode: &mode, folding: &folding,
            fromBytes: fromBytes)
        let bytes = NoteIndexFile.encode(
            kept: [], of: nil, read: [table], removed: [], titleSource: vault.titleSource, kind: .base,
            generation: 0)
        return (bytes, diagnostics, mode)
    }

    /// Whether the fast way takes the note at `path`.
    static func isFast(_ vault: Vault, _ path: String) -> Bool {
        var table = IndexTable(capacity: 1)
        var mode: mode_t = 0o666
        var folding = TextFolder()
        return vault.recordFromBytes(
            path, relativeTo: nil, into: &table, mode: &mode, folding: &folding, scratch: RecordScratch())
    }

    /// Compares both ways on every note file below `root` (hidden names left out), under both
    /// title sources; returns how many notes there were and how many the fast way took.
    static func compareAll(in root: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> (
        notes: Int, fast: Int
    ) {
        var paths: [String] = []
        let walker = FileManager.default.enumerator(atPath: root)
        while let path = walker?.nextObject() as? String {
            let name = (path as NSString).lastPathComponent
            if name.hasPrefix(".") {
                walker?.skipDescendants()
                continue
            }
            if Vault.isNoteName(name), FileSystem.status(root + "/" + path)?.kind == .regular {
                paths.append(path)
            }
        }
        var fast = 0
        for source in TitleSource.allCases {
            var vault = try Vault(root: root)
            vault.titleSource = source
            for path in paths.sorted() {
                let quick = record(vault, path, fromBytes: true)
                let slow = record(vault, path, fromBytes: false)
                // As a Bool: a failure names the note, not two arrays of a few hundred bytes.
                let same = quick.0 == slow.0
                #expect(same, "record of \(path) (\(source))", sourceLocation: sourceLocation)
                #expect(quick.1 == slow.1, "warnings of \(path) (\(source))", sourceLocation: sourceLocation)
                #expect(quick.2 == slow.2, "mode of \(path) (\(source))", sourceLocation: sourceLocation)
                if source == .content && isFast(vault, path) { fast += 1 }
            }
        }
        print("\(root): \(fast) of \(paths.count) notes read from their bytes")
        return (paths.count, fast)
    }

    /// A fresh folder for a vault, removed by the caller.
    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "record-\(UUID().uuidString)"
        )
        .path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Notes of every form the fast way reads, and of forms it leaves to the slow one; whether
    /// it should take each.
    static let edgeCases: [(name: String, bytes: [UInt8], fast: Bool)] =
        textCases.map { ($0.0, Array($0.1.utf8), $0.2) } + byteCases

    private static let textCases: [(String, String, Bool)] = [
        ("plain", "---\ncreatedAt: 2024-03-01T09:30:00Z\n---\n# Title\n\nBody [[Link]]\n", true),
        ("no-front-matter", "# Just a title\nline two\n", true),
        ("empty", "", true),
        ("title-only", "Title only", true),
        ("blank-only", "  \n\t\n", true),
        ("front-matter-only", "---\ncreatedAt: 2024-03-01T09:30:00Z\n---\n", true),
        ("closed-at-end", "---\ncreatedAt: 2024-03-01T09:30:00Z\n---", true),
        ("dots-close", "---\ntitle: X\n...\nbody", true),
        ("delimiters-with-blanks", "--- \ntitle: X\n  ---  \nbody\n", true),
        ("empty-front-matter", "---\n---\nbody\n", true),
        ("tags-flow", "---\ntags: [a, b, #c, a, B]\n---\n#x body #a\n", true),
        ("tags-block", "---\ntags:\n  - one\n  - two\n\n- three\n-\n---\nbody #four\n", true),
        ("tags-scalar", "---\ntags: one, two three\t#four,,\n---\n", true),
        ("tags-comment-then-list", "---\ntags: # none\n- x # y\n---\n", true),
        ("tags-hashes", "---\ntags: [#, ##a, 'q']\n---\n", false),
        ("tags-hash-items", "---\ntags: [#, ##a, b #c]\n---\n", true),
        ("aliases", "---\naliases: [Other name, Second]\ntitle: Front title\n---\nbody\n", true),
        ("alias-scalar", "---\naliases: single alias  \n---\n", true),
        ("aliases-empty", "---\naliases:\n---\n", true),
        ("title-empty", "---\ntitle:\n---\nBody title\n", true),
        ("title-list", "---\ntitle: [a]\n---\nBody title\n", true),
        (
            "duplicate-keys",
            "---\ntitle: A\ntitle: B\ncreatedAt: 2024-01-01\ncreated: 2023-01-01T00:00:00Z\n---\n", true
        ),
        ("date-keys", "---\ndate: 2024-03-01\nupdatedAt: 2024-03-02T10:00:00+02:00\n---\nx", true),
        ("comments", "---\n# comment\n\ntitle: T # trailing\n  # indented comment\n---\n", true),
        ("imported", "---\nimportedFrom: notetaker:123\n---\nbody", true),
        ("dash-keys", "---\n-key: v\n-: w\n---\n", true),
        ("bad-date", "---\ncreatedAt: yesterday\n---\n", false),
        ("list-date", "---\ncreatedAt: [a]\n---\n", false),
        ("empty-date", "---\nupdatedAt:\n---\n", false),
        ("unclosed", "---\ntitle: x\nbody\n", false),
        ("quoted", "---\ntitle: \"Quoted: yes\"\n---\n", true),
        ("quoted-comment", "---\ntitle: \"A #1\"  # said so\ntags:\n  - \"x y\"\n  - 'z'\n---\n", true),
        ("single-quoted", "---\ntitle: 'It is'\ncreatedAt: \"2024-03-01\"\n---\n", true),
        ("quoted-escape", "---\ntitle: \"A \\\"B\\\" \\u00e9\"\n---\n", false),
        ("quoted-backslash", "---\ntitle: \"C:\\temp\\new\"\n---\n", false),
        ("quoted-doubled", "---\ntitle: 'It''s'\n---\n", false),
        ("quoted-empty", "---\ntitle: \"\"\n---\nBody title\n", false),
        ("quoted-then-text", "---\ntitle: \"A\" B\n---\n", false),
        ("quoted-unclosed", "---\ntitle: \"A\n---\n", false),
        ("quoted-in-flow-list", "---\ntags: [\"a\", b]\n---\n", false),
        ("block-scalar", "---\nnote: |\n  text\n---\n", false),
        ("nested", "---\nmeta:\n  key: v\n---\n", false),
        ("list-outside-key", "---\n- x\n---\n", false),
        ("indented-outside-key", "---\n  x: 1\n---\n", false),
        ("list-then-text", "---\ntags: [a] junk\n---\n", false),
        ("list-unclosed", "---\ntags: [a, b\n---\n", false),
        ("empty-key", "---\n: v\n---\n", false),
        ("no-colon", "---\njust text\n---\n", false),
        (
            "latin-front-matter",
            "---\ntitle: Crème brûlée\ntags: [résumé, Ğazi]\naliases: [Şişli, Łódź]\n---\n",
            true
        ),
        ("greek-cyrillic-armenian", "---\ntitle: Σοφός\ntags: [Москва, Ժամ, ΆΈ]\nkéy: ü\n---\nx\n", true),
        ("accent-by-blanks", "---\ntags: é ,ü\taé\ntitle: \"é\" # ñ\n---\n", true),
        ("combining-mark", "---\ntitle: Cre\u{0300}me\n---\n", false),
        ("mark-after-colon", "---\ntitle: \u{0301}x\n---\n", false),
        ("mark-after-space", "---\ntitle: x \u{0301}\n---\n", false),
        ("no-break-space", "---\ntitle:\u{00A0}x\n---\n", false),
        ("greek-question-mark", "---\ntitle: x\u{037E}\n---\n", false),
        ("cjk-front-matter", "---\ntitle: 日本語\ntags: [東京, ひらがな, カタカナー, 한국어]\n---\n", true),
        ("kana-voiced-mark", "---\ntitle: か\u{3099} x\n---\n", false),
        ("cjk-compatibility", "---\ntitle: \u{F900}\n---\n", false),
        ("thai-front-matter", "---\ntitle: ภาษาไทย\n---\n", false),
        ("emoji-front-matter", "---\ntags: [👍]\n---\n", false),
        ("headings", "# H1 #\n## Second ##\n### \n#NoSpace\n####### seven\nBody ^block-id\n", true),
        ("title-heading-empty", "#\n# \nreal\n", true),
        (
            "code",
            "```\n[[InCode]] #notag\n```\n~~~\n#x\n~~~\n`[[inline]]` [[Real]] #real\n    ```\nunclosed [[x]]",
            true
        ),
        (
            "links",
            "[[A]] [[B|shown]] [[C#Head]] ![[D]] [md](sub/e.md#h) [x](https://x.org) [[#Local]] [[#^blk]]"
                + " ![](img.png) [[paper.pdf]] [[sub/F.md]] \\[[not]]\n",
            true
        ),
        ("tabs", "\t# Tab title\t\n\tpreview\twith tabs\n#tag\t#two\n", true),
        ("nfd", "# Cre\u{0300}me bru\u{0302}le\u{0301}e\n#cafe\u{0301} tag #Café\n", true),
        ("emoji", "# 🇨🇭 Swiss 👍🏽\n#tag🙂 ❤️ 𝄞\n", true),
        ("width", "# ＦＵＬＬ width ｶﾀｶﾅ ﾃﾞ\n#ｔａｇ #ＴＡＧ\n", true),
        ("space-before-mark", " \u{0301}title\n \u{0301}\n", true),
        ("leading-blank-lines", "\n\n  \n# Late title\n\n\nPreview ## line\n", true),
        ("nul", "a\u{0}b\n", true),
        ("bom", "\u{FEFF}# Title\n", false),
        ("crlf", "---\r\ncreatedAt: 2024-03-01T09:30:00Z\r\n---\r\n# T\r\n", false),
        ("cr-in-body", "# T\nline\r\n", false),
        ("conflict", "<<<<<<< ours\na\n=======\nb\n>>>>>>> theirs\n", false),
    ]

    private static let byteCases: [(String, [UInt8], Bool)] = [
        ("invalid-utf8", [0x23, 0x20, 0xC3, 0x28, 0x0A], false),
        ("overlong", [0x61, 0xC0, 0xAF], false),
        ("surrogate", [0x61, 0xED, 0xA0, 0x80], false),
        ("past-max", [0x61, 0xF4, 0x90, 0x80, 0x80], false),
        ("cut-short", [0x61, 0xE2, 0x82], false),
        // Read before its bytes are checked: a front matter, and a body checked as it is folded,
        // in a run of marks that recomposition joins too.
        (
            "invalid-front-matter", Array("---\ntitle: a".utf8) + [0xC3, 0x28] + Array("\n---\nbody\n".utf8),
            false
        ),
        (
            "invalid-after-front-matter",
            Array("---\ntitle: a\naliases: [b]\n---\n# T\n[[L".utf8) + [0xFF] + Array("]] #t\n".utf8), false
        ),
        ("invalid-after-mark", [0x23, 0x20, 0x65, 0xCC, 0x81, 0x80, 0x0A], false),
        ("cut-short-after-mark", [0x65, 0xCC, 0x81, 0xCC], false),
        ("overlong-mark-after-mark", [0x65, 0xCC, 0x81, 0xE0, 0x8C, 0x81, 0x0A], false),
        // 가 and a final consonant, which NFC joins, then an overlong U+0301: read in the run.
        ("overlong-mark-in-joined-run", [0xEA, 0xB0, 0x80, 0xE1, 0x86, 0xA8, 0xE0, 0x8C, 0x81, 0x0A], false),
        ("invalid-in-tag", Array("ok\n#tag".utf8) + [0xED, 0xA0, 0x80], false),
        ("too-large", Array(repeating: 0x61, count: RecordScratch.sizeLimit + 1), false),
    ]

    @Test func edgeCasesGiveTheSameRecordBothWays() throws {
        let root = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/sub", withIntermediateDirectories: true)
        for (name, bytes, _) in Self.edgeCases {
            for path in ["\(name).md", "sub/\(name).markdown"] {
                try Data(bytes).write(to: URL(fileURLWithPath: root + "/" + path))
            }
        }
        let (notes, _) = try Self.compareAll(in: root)
        #expect(notes == Self.edgeCases.count * 2)
        let vault = try Vault(root: root)
        for (name, _, fast) in Self.edgeCases {
            #expect(Self.isFast(vault, "\(name).md") == fast, "\(name)")
        }
    }

    @Test func fixturesGiveTheSameRecordBothWays() throws {
        let (notes, fast) = try Self.compareAll(in: Self.packageRoot + "/fixtures")
        #expect(notes > 40)
        // Most fixtures are plain notes; the tricky ones (real notes in many languages) not all.
        #expect(fast * 2 > notes, "\(fast) of \(notes) read from bytes")
    }

    @Test func validationAgreesWithTheStandardLibrary() {
        var rng = SplitMix(seed: 7)
        let pieces: [[UInt8]] = [
            [0x61], [0x0A], [0x80], [0xBF], [0xC0], [0xC1], [0xC2], [0xDF], [0xE0], [0xE0, 0xA0],
            [0xE0, 0x9F],
            [0xED], [0xED, 0x9F], [0xED, 0xA0], [0xEF], [0xF0], [0xF0, 0x90], [0xF0, 0x8F], [0xF4],
            [0xF4, 0x8F],
            [0xF4, 0x90], [0xF5], [0xFF], Array("é".utf8), Array("€".utf8), Array("𝄞".utf8),
            Array("abcdefgh".utf8), Array("e\u{0301}".utf8), [0xCC], [0xCC, 0x81], Array("가".utf8),
            Array("\u{1161}".utf8), Array("\u{11A8}".utf8),
            // U+0301 written in three bytes (overlong): read leniently, a mark that vanishes.
            [0xE0, 0x8C, 0x81],
        ]
        for _ in 0..<20000 {
            var bytes: [UInt8] = []
            for _ in 0..<rng.within(0...9) { bytes += rng.pick(pieces) }
            let valid = bytes.withUnsafeBufferPointer(UTF8Bytes.isValid)
            #expect(valid == (String(validating: bytes, as: UTF8.self) != nil), "\(bytes)")
            // The fold that checks as it goes: the same answer, and when valid the plain fold,
            // after what was in its buffer (left as it was when not).
            var folder = TextFolder()
            var out: [UInt8] = [0x78]
            let folded = bytes.withUnsafeBufferPointer { folder.appendFolded(validating: $0, to: &out) }
            #expect(folded == valid, "\(bytes)")
            let plain = valid ? bytes.withUnsafeBufferPointer { folder.foldedBytes(utf8: $0) } : []
            #expect(out == [0x78] + plain, "\(bytes)")
        }
    }

    /// A vault of `Benchmarks/make-vault.py` (plain, or with tags and links), where python3 is.
    static func generated(notes: Int, tagsLinks: Bool) throws -> String? {
        let python = ["/usr/bin/python3", "/usr/local/bin/python3", "/bin/python3"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        guard let python else { return nil }
        let root = try folder()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments =
            [
                packageRoot + "/Benchmarks/make-vault.py", "--notes", "\(notes)", "--out", root + "/vault",
                "--seed", "26", "--manifest", root + "/manifest.json",
            ] + (tagsLinks ? ["--tags-links"] : [])
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return root
    }

    @Test(arguments: [false, true]) func generatedNotesGiveTheSameRecordBothWays(tagsLinks: Bool) throws {
        guard let root = try Self.generated(notes: 300, tagsLinks: tagsLinks) else {
            print("skipped: no python3 to run Benchmarks/make-vault.py")
            return
        }
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (notes, fast) = try Self.compareAll(in: root + "/vault")
        #expect(notes >= 300)
        // Quoted titles and accented tags and aliases included: every note.
        #expect(fast == notes, "\(fast) of \(notes) read from bytes")
    }

    @Test(.tags(.heavy), .skippedInQuickLoop) func obsidianHelpVaultGivesTheSameRecordBothWays() throws {
        let root = "/work/vaults/help-full"
        guard FileSystem.status(root)?.kind == .directory else {
            print("skipped: the Obsidian help vault is not at \(root) (a sample is in fixtures/record-bytes)")
            return
        }
        let (notes, fast) = try Self.compareAll(in: root)
        #expect(notes > 1000)
        #expect(fast * 2 > notes, "\(fast) of \(notes) read from bytes")
    }
}
