import Foundation
import TestSupport
import Testing

// Tests that fail when a guard is removed: containment of note IDs behind
// symlinks, tampered trash entries, escape sequences in what rows print, and plain folders that
// reads must leave alone. They run the real binary, so they hold whatever shape the code takes.

/// The sandbox's files outside the vault. The runs' own stream files (`.out-…`) come and go, and
/// with them the sandbox folder's modification time, so neither is compared.
func outsideSnapshot(_ s: Sandbox) -> TreeSnapshot {
    TreeSnapshot(s.root.path, skipping: ["vault"], where: { $0.hasPrefix(".") }, folderTimes: true)
}

// MARK: - Symlinks inside the vault

@Suite struct SymlinkContainmentTests {
    static let secret = "# Secret\n\nthe outside file\n"

    /// A vault holding `note.md`, `link -> ../outside` (a folder) and `leak.md ->
    /// ../outside/secret.md`, with `outside/secret.md` beside the vault.
    func sandbox() throws -> Sandbox {
        let s = try Sandbox()
        try s.write("note.md", "# Note\n")
        let outside = s.root.path + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try Self.secret.write(toFile: outside + "/secret.md", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: s.vault + "/link", withDestinationPath: outside)
        try FileManager.default.createSymbolicLink(
            atPath: s.vault + "/leak.md", withDestinationPath: outside + "/secret.md")
        return s
    }

    /// One command naming a note behind a symlink, and the error it must end with.
    struct Case: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        /// `$VAULT` stands for the vault's path.
        var error: String
        var inVault = false

        var testDescription: String { arguments.joined(separator: " ") + (inVault ? " (in the vault)" : "") }
    }

    static let outsideMessage =
        "is outside the vault (or a symbolic link); notes only works on files inside it"

    static let cases: [Case] = [
        // Through the symlinked folder: as an ID or as a path, the file behind it is refused.
        Case(arguments: ["show", "link/secret"], error: "'link/secret' " + outsideMessage),
        Case(arguments: ["show", "--raw", "link/secret"], error: "'link/secret' " + outsideMessage),
        Case(arguments: ["show", "link/secret.md"], error: "'link/secret.md' " + outsideMessage),
        Case(
            arguments: ["show", "./link/secret.md"], error: "'./link/secret.md' " + outsideMessage,
            inVault: true),
        Case(
            arguments: ["show", "$VAULT/link/secret.md"],
            error: "'$VAULT/link/secret.md' " + outsideMessage),
        Case(arguments: ["edit", "link/secret", "new"], error: "'link/secret' " + outsideMessage),
        Case(arguments: ["edit", "link/secret.md", "new"], error: "'link/secret.md' " + outsideMessage),
        Case(arguments: ["delete", "--yes", "link/secret"], error: "'link/secret' " + outsideMessage),
        Case(arguments: ["delete", "--yes", "link/secret.md"], error: "'link/secret.md' " + outsideMessage),
        Case(arguments: ["path", "link/secret"], error: "'link/secret' " + outsideMessage),
        Case(arguments: ["path", "link/secret.md"], error: "'link/secret.md' " + outsideMessage),
        // A symlinked file.
        Case(arguments: ["show", "leak"], error: "'leak' " + outsideMessage),
        Case(arguments: ["show", "leak.md"], error: "'leak.md' " + outsideMessage),
        Case(arguments: ["edit", "leak", "new"], error: "'leak' " + outsideMessage),
        Case(arguments: ["edit", "leak.md", "new"], error: "'leak.md' " + outsideMessage),
        Case(arguments: ["delete", "--yes", "leak"], error: "'leak' " + outsideMessage),
        Case(arguments: ["path", "leak"], error: "'leak' " + outsideMessage),
        Case(arguments: ["path", "leak.md"], error: "'leak.md' " + outsideMessage),
    ]

    @Test(arguments: cases)
    func notesBehindASymlinkAreRefused(_ c: Case) throws {
        let s = try sandbox()
        let outsideBefore = outsideSnapshot(s)
        let vaultBefore = TreeSnapshot(s.vault, folderTimes: true)
        let arguments = c.arguments.map { $0.replacingOccurrences(of: "$VAULT", with: s.vault) }
        let r = try s.run(arguments, cwd: c.inVault ? s.vault : nil)
        #expect(r.status == 1, "\(r)")
        #expect(r.stdout == "", "\(r)")
        #expect(r.stderr == "Error: " + c.error.replacingOccurrences(of: "$VAULT", with: s.vault) + "\n")
        #expect(outsideSnapshot(s) == outsideBefore)
        #expect(TreeSnapshot(s.vault, folderTimes: true) == vaultBefore)
        #expect(try s.run(["trash", "--json"]).stdout == "[]\n")
    }

    /// The walk skips symlinks, so neither listing nor search ever shows the outside file.
    @Test func listAndSearchNeverShowTheOutsideFile() throws {
        let s = try sandbox()
        #expect(ids(try s.run(["list"])) == ["note"])
        let search = try s.run(["search", "outside"])
        #expect(search.status == 0)
        #expect(search.stdout == "")
    }

    /// A symlink whose name is one character (`b -> ../outside`) at the top of the vault: its
    /// folder is `""`, which the toolchain's Foundation trapped on (every command died with
    /// SIGILL) before the tool took folders of paths by bytes.
    @Test func aOneCharacterSymlinkAtTheTopIsListedPast() throws {
        let s = try sandbox()
        try FileManager.default.createSymbolicLink(
            atPath: s.vault + "/b", withDestinationPath: s.root.path + "/outside")
        let r = try s.run(["list"])
        #expect(r.status == 0, "\(r)")
        #expect(ids(r) == ["note"])
    }
}

// MARK: - Tampered trash entries

@Suite struct TamperedTrashTests {
    /// One crafted entry in `.notes/trash/`: the path its `deleted.json` records, the files and
    /// links laid out in the entry folder, and the ID `restore` is asked for.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        /// `$ROOT` stands for the sandbox folder that holds the vault.
        var recorded: String
        /// Files to write, relative to the entry folder (they may climb out of it with `..`).
        var files: [String]
        /// Symlinks to make, relative to the entry folder, pointing to `$ROOT/outside`.
        var entryLinks: [String] = []
        /// Whether the vault has `link -> $ROOT/outside`.
        var vaultLink = false
        var id: String

        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "parent folder", recorded: "../escaped.md", files: ["../escaped.md"], id: "../escaped"),
        Case(name: "absolute path", recorded: "$ROOT/abs.md", files: ["$ROOT/abs.md"], id: "$ROOT/abs"),
        Case(
            name: "dot-dot in the middle", recorded: "a/../../x.md", files: ["a/keep", "../x.md"],
            id: "a/../../x"),
        Case(name: "a dot component", recorded: "./dot.md", files: ["dot.md"], id: "./dot"),
        Case(name: "a repeated slash", recorded: "a//twice.md", files: ["a/twice.md"], id: "a//twice"),
    ]

    /// An entry whose recorded path is clean but passes through a symlinked folder inside the
    /// entry, so that the file it names is outside the trash.
    static let symlinkCases: [Case] = [
        Case(
            name: "through a symlinked folder in the entry", recorded: "link/secret.md", files: [],
            entryLinks: ["link"], id: "link/secret")
    ]

    /// A sound entry whose folder in the vault has become a symlink to a folder outside: it is
    /// listed, and restoring it is refused rather than written through the link.
    @Test func anEntryIsNotRestoredThroughASymlinkedFolderOfTheVault() throws {
        let c = Case(
            name: "vault link", recorded: "link/x.md", files: ["link/x.md"], vaultLink: true, id: "link/x")
        let s = try sandbox(c)
        let outsideBefore = outsideSnapshot(s)
        let restore = try s.run(["restore", "link/x"])
        #expect(restore.status == 1, "\(restore)")
        #expect(restore.stderr == "Error: 'link/x.md' " + SymlinkContainmentTests.outsideMessage + "\n")
        #expect(outsideSnapshot(s) == outsideBefore)
        #expect(ids(try s.run(["trash"])) == ["kept", "link/x"])
    }

    /// The sandbox with `outside/secret.md`, a genuine trashed note `kept`, and the crafted entry.
    func sandbox(_ c: Case) throws -> Sandbox {
        let s = try Sandbox()
        let root = s.root.path
        let outside = root + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try "# Secret\n".write(toFile: outside + "/secret.md", atomically: true, encoding: .utf8)
        if c.vaultLink {
            try FileManager.default.createSymbolicLink(
                atPath: s.vault + "/link", withDestinationPath: outside)
        }
        try s.write("kept.md", "# Kept\n")
        #expect(try s.run(["delete", "--yes", "kept"]).status == 0)
        let entry = ".notes/trash/20260101-000000-crafted"
        let record: [String: Any] = [
            "path": c.recorded.replacingOccurrences(of: "$ROOT", with: root),
            "deletedAt": "2026-01-01T00:00:00Z", "deletedAtSeconds": 1_767_225_600,
        ]
        try s.writeBytes(entry + "/deleted.json", Array(try JSONSerialization.data(withJSONObject: record)))
        for file in c.files {
            try s.write(entry + "/" + file.replacingOccurrences(of: "$ROOT", with: root), "# Crafted\n")
        }
        for link in c.entryLinks {
            try FileManager.default.createSymbolicLink(
                atPath: s.vault + "/" + entry + "/" + link,
                withDestinationPath: outside)
        }
        return s
    }

    /// `restore` refuses the entry and writes nothing anywhere; `trash` skips it with a warning
    /// and still lists the genuine note.
    func check(_ c: Case) throws {
        let s = try sandbox(c)
        let outsideBefore = outsideSnapshot(s)
        let vaultBefore = TreeSnapshot(s.vault, folderTimes: true)
        let id = c.id.replacingOccurrences(of: "$ROOT", with: s.root.path)
        let restore = try s.run(["restore", id])
        #expect(restore.status == 1, "\(restore)")
        #expect(restore.stdout == "")
        #expect(
            restore.stderr.hasSuffix("Error: no note in the trash matches '\(id)'; see 'notes trash'\n"),
            "\(restore)")
        #expect(outsideSnapshot(s) == outsideBefore)
        #expect(TreeSnapshot(s.vault, folderTimes: true) == vaultBefore)

        let trash = try s.run(["trash"])
        #expect(trash.status == 0, "\(trash)")
        #expect(ids(trash) == ["kept"], "\(trash)")
        #expect(
            trash.stderr == "warning: \(s.vault)/.notes/trash/20260101-000000-crafted: "
                + "not a readable trash entry; skipped\n")
        let json = try s.run(["trash", "--json"])
        #expect(try jsonArray(json.stdout).compactMap { $0["id"] as? String } == ["kept"])
        #expect(try s.run(["restore", "kept"]).stdout == "kept\n")
    }

    @Test(arguments: cases)
    func aTamperedPathIsRefused(_ c: Case) throws {
        try check(c)
    }

    @Test(arguments: symlinkCases)
    func aPathThroughASymlinkIsRefused(_ c: Case) throws {
        try check(c)
    }

    /// The crafted entries above are refused for their path alone: the same entry with a plain
    /// path is restored.
    @Test func aCraftedEntryWithAPlainPathIsRestored() throws {
        let s = try sandbox(Case(name: "plain", recorded: "plain.md", files: ["plain.md"], id: "plain"))
        let r = try s.run(["restore", "plain"])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout == "plain\n")
        #expect(try s.read("plain.md") == "# Crafted\n")
    }
}

// MARK: - Escape sequences in titles, IDs and snippets

@Suite struct EscapeSequenceTests {
    /// Control characters left once the tool's own colour codes (`ESC [ digits/semicolons m`)
    /// are removed: C0 other than newline and tab, DEL, and C1.
    static func strayControls(_ text: String) -> [String] {
        let withoutSGR = text.replacingOccurrences(
            of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        return withoutSGR.unicodeScalars.filter {
            ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F...0x9F).contains($0.value)
        }.map { "U+" + String($0.value, radix: 16, uppercase: true) }
    }

    /// Notes whose titles, file names and matching lines carry escape sequences. An SGR-shaped
    /// payload (`ESC[41m`) would pass for the tool's own colour, so its remains are checked apart.
    func sandbox() throws -> Sandbox {
        let s = try Sandbox()
        s.environment["COLUMNS"] = "200"
        try s.write("osc.md", "# Evil \u{1B}]0;pwned\u{07}\u{1B}[2J\n\nan evil \u{1B}]0;pwned\u{07} line\n")
        try s.write("csi.md", "# C1 evil \u{9B}2J\n\nan evil \u{9B}31m line\n")
        try s.write("del.md", "# Del evil \u{7F}\u{08}\n\nan evil \u{7F} line\n")
        try s.write("sgr.md", "# Tinted \u{1B}[41m evil\n\nan evil \u{1B}[41m line\n")
        try s.write("esc\u{1B}[2Jname.md", "# Named evil\n\nan evil line\n")
        return s
    }

    static let reads: [[String]] = [
        ["list"], ["list", "--color", "always"], ["list", "--color", "always", "--reverse"],
        ["search", "evil"], ["search", "evil", "--color", "always"], ["search", "line", "--color", "always"],
    ]

    @Test(arguments: reads)
    func listAndSearchPrintNoEscapes(_ arguments: [String]) throws {
        let s = try sandbox()
        let r = try s.run(arguments)
        #expect(r.status == 0, "\(r)")
        #expect(Self.strayControls(r.stdout) == [], "\(r)")
        #expect(r.stdout.contains("[41m"), "the SGR-shaped title is shown, defused: \(r)")
        #expect(!r.stdout.contains("\u{1B}[41m"), "\(r)")
        #expect(r.stdout.contains("esc [2Jname"), "\(r)")
    }

    @Test(arguments: [["trash"], ["trash", "--color", "always"]])
    func theTrashPrintsNoEscapes(_ arguments: [String]) throws {
        let s = try sandbox()
        let ids = ["osc", "csi", "del", "sgr", "esc\u{1B}[2Jname"]
        #expect(try s.run(["delete", "--yes"] + ids).status == 0)
        let r = try s.run(arguments)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.split(separator: "\n").count == ids.count, "\(r)")
        #expect(Self.strayControls(r.stdout) == [], "\(r)")
        #expect(!r.stdout.contains("\u{1B}[41m"), "\(r)")
        #expect(r.stdout.contains("esc [2Jname"), "\(r)")
    }

    /// Messages on stderr name note files too: a file name must not drive the terminal there
    /// either (a warning about its front matter, the confirmation of `delete`).
    @Test
    func stderrNamesNoteFilesWithoutEscapes() throws {
        let s = try sandbox()
        try s.write("bad\u{1B}[2J.md", "---\ncreatedAt: yesterday\n---\n# Bad date\n")
        let list = try s.run(["list"])
        #expect(list.stderr.contains("yesterday"), "\(list)")
        #expect(Self.strayControls(list.stderr) == [], "\(list)")
        let delete = try s.run(["delete", "--yes", "esc\u{1B}[2Jname"])
        #expect(delete.status == 0, "\(delete)")
        #expect(Self.strayControls(delete.stderr) == [], "\(delete)")
        // Arguments echoed in errors, and in usage errors, are shown the same way.
        let missing = try s.run(["show", "nope\u{1B}[2J"])
        #expect(missing.status == 1 && Self.strayControls(missing.stderr) == [], "\(missing)")
        let unknown = try s.run(["lsit\u{1B}]0;x\u{07}"])
        #expect(unknown.status == 64 && Self.strayControls(unknown.stderr) == [], "\(unknown)")
    }

    /// JSON escapes every C0 control, ESC and BEL included.
    @Test(arguments: [["list", "--json"], ["search", "evil", "--json"]])
    func jsonEscapesControls(_ arguments: [String]) throws {
        let s = try sandbox()
        let r = try s.run(arguments)
        #expect(r.status == 0, "\(r)")
        #expect(!r.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(r)")
        #expect(try jsonArray(r.stdout).count == 5)
    }
}

// MARK: - Plain folders

@Suite struct PlainFolderTests {
    @Test(arguments: [["list"], ["search", "x"], ["show", "n"], ["path"], ["path", "n"], ["trash"]])
    func readsLeaveAPlainFolderUntouched(_ arguments: [String]) throws {
        let s = try Sandbox(initVault: false)
        let plain = s.root.path + "/plain"
        try FileManager.default.createDirectory(atPath: plain + "/sub", withIntermediateDirectories: true)
        try "# N\n\nx marks\n".write(toFile: plain + "/n.md", atomically: true, encoding: .utf8)
        try "# M\n".write(toFile: plain + "/sub/m.md", atomically: true, encoding: .utf8)
        try "not a note\n".write(toFile: plain + "/readme.txt", atomically: true, encoding: .utf8)
        let before = TreeSnapshot(plain, skipping: [], folderTimes: true)
        let cache = s.root.path + "/cache"
        let r = try s.run(
            ["--vault", plain] + arguments, env: ["XDG_CACHE_HOME": cache], vaultVariable: false)
        #expect(r.status == 0, "\(r)")
        #expect(TreeSnapshot(plain, skipping: [], folderTimes: true) == before)
        #expect(!FileManager.default.fileExists(atPath: plain + "/.notes"))
    }
}
