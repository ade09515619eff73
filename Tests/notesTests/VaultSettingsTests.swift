import Foundation
import TestSupport
import Testing

/// A vault's own settings, `.notes/settings.json`: its keys win over the user's file, personal
/// keys there are ignored with a warning, and `config set --vault-local` writes it.
@Suite struct VaultSettingsTests {
    @Test func aHostileVaultFileChoosesNoEditorNoVaultAndNoLooks() throws {
        let s = try Sandbox()
        let marker = s.root.path + "/marker"
        let hostile = try s.script("hostile-editor", "touch '\(marker)'")
        let elsewhere = s.root.path + "/elsewhere"
        try s.write(
            ".notes/settings.json",
            """
            {"editor": "\(hostile)", "vault": "\(elsewhere)", "scheme": "blue", "isDarkOn": true,
             "dailyFolder": "../../outside", "templateFolder": "/etc", "sort": "title"}
            """)
        try s.write("b.md", "# Beta\n")
        try s.write("a.md", "# Alpha\n")
        let mine = try s.script("my-editor", #"printf '# Beta\n\nedited\n' > "$1""#)
        // The editor: the user's, never the vault's (which would come before EDITOR).
        var r = try s.run(["edit", "b"], env: ["EDITOR": mine])
        #expect(r.status == 0, "\(r)")
        #expect(!Disk.exists(marker))
        #expect(try s.read("b.md").contains("edited"))
        for key in ["editor", "vault", "scheme", "isDarkOn"] {
            #expect(
                r.stderr.contains(
                    "warning: \(s.vault)/.notes/settings.json: '\(key)' is a personal setting and is never "
                        + "taken from a vault's settings; it is ignored"), "\(key): \(r)")
        }
        // A note added from outside any vault goes to the user's default, not the vault's 'vault'.
        r = try s.run(["add", "Where"], cwd: s.home, vaultVariable: false)
        #expect(r.status == 0, "\(r)")
        #expect(!Disk.exists(elsewhere) && Disk.exists(s.home + "/Notes/where.md"))
        // Folders it names are nothing to notes: nothing is made outside the vault.
        #expect(!Disk.exists(s.base + "/outside") && !Disk.exists(s.root.path + "/../outside"))
        // The vault key applies; the personal ones show their own source.
        r = try s.run(["config"])
        #expect(r.status == 0, "\(r)")
        #expect(
            r.stdout == """
                isDarkOn        false       default
                scheme          default     default
                sort            title       vault
                titleFrom       content     default
                editor          (unset)     default
                vault           (unset)     default
                gitAutoCommit   false       default
                dailyFolder     journal     default (vault file value "../../outside" is invalid)
                dailyFormat     YYYY-MM-DD  default
                templateFolder  .templates  default (vault file value "/etc" is invalid)
                fileNames       slug        default

                """)
        #expect(
            try s.run(["list"]).stdout.split(separator: "\n").map { $0.split(separator: "\t").last ?? "" }
                == [
                    "Alpha", "Beta",
                ])
        // --quiet silences the warnings, as it does for the user's file.
        #expect(try s.run(["list", "--quiet"]).stderr == "")
        // The journal stays in the vault too: no note is made outside it (nor in another folder than
        // the setting names), and no template is read from outside.
        r = try s.run(["today", "x"])
        #expect(r.status == 1 && r.stdout == "", "\(r)")
        #expect(r.stderr.contains("Error: the setting 'dailyFolder' is '../../outside' in '"), "\(r)")
        #expect(r.stderr.contains("it must be a folder inside the vault"), "\(r)")
        r = try s.run(["templates"])
        #expect(r.status == 0 && r.stdout == "" && r.stderr.contains("\(s.vault)/.templates/"), "\(r)")
        #expect(!Disk.exists(s.base + "/outside") && !Disk.exists(s.root.path + "/../outside"))
    }

    @Test func theVaultFileIsNeverReadOrWrittenThroughASymlink() throws {
        let s = try Sandbox()
        let outside = s.root.path + "/outside.json"
        try #"{"sort": "title"}"#.write(toFile: outside, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: s.vault + "/.notes/settings.json", withDestinationPath: outside)
        var r = try s.run(["config", "get", "sort"])
        #expect(r.stdout == "updated\n", "\(r)")
        #expect(r.stderr.contains("the vault's settings are not used"), "\(r)")
        // Refused, like any file it cannot read: the link and what it points to stay as they are.
        r = try s.run(["config", "set", "--vault-local", "sort", "created"])
        #expect(r.status == 1, "\(r)")
        #expect(try String(contentsOfFile: outside, encoding: .utf8) == #"{"sort": "title"}"#)
    }

    @Test func vaultLocalWritesTheVaultsFileAndWinsOverTheUsers() throws {
        let s = try Sandbox()
        #expect(try s.run(["config", "set", "sort", "created"]).status == 0)
        var r = try s.run(["config", "set", "--vault-local", "sort", "title"])
        #expect(r.status == 0, "\(r)")
        #expect(r.stderr == "Set sort to 'title' in the vault's settings, \(s.vault)/.notes/settings.json.\n")
        #expect(try s.read(".notes/settings.json") == "{\n  \"sort\" : \"title\"\n}\n")
        #expect(try s.run(["config", "get", "sort"]).stdout == "title\n")
        r = try s.run(["config", "unset", "--vault-local", "sort"])
        #expect(r.status == 0, "\(r)")
        #expect(try s.run(["config", "get", "sort"]).stdout == "created\n")
        #expect(try s.run(["config"]).stdout.contains("sort            created     user\n"))
        // A personal key has no place there: a usage error.
        r = try s.run(["config", "set", "--vault-local", "editor", "vi"])
        #expect(r.status == 64, "\(r)")
        #expect(r.stderr.hasPrefix("Error: 'editor' is a personal setting"), "\(r)")
        #expect(!r.stderr.contains("settings.json"))
    }

    @Test func aSettingsFileThatIsAFolderSaysToMoveIt() throws {
        let s = try Sandbox()
        let path = s.config + "/notes/settings.json"
        try FileManager.default.createDirectory(atPath: path + "/inside", withIntermediateDirectories: true)
        var r = try s.run(["list"])
        #expect(r.status == 0, "\(r)")
        #expect(
            r.stderr
                == "warning: the settings file '\(path)' is a folder, not a file; using the defaults. "
                + "Move that folder away or remove it; the settings file is then written in its place.\n")
        r = try s.run(["config", "reset"])
        #expect(r.status == 1, "\(r)")
        #expect(
            r.stderr.hasSuffix(
                "Error: the settings file '\(path)' is a folder, not a file; move that folder away or remove it "
                    + "(the defaults apply without a file), or name another file with --config FILE\n"),
            "\(r)")
        r = try s.run(["config", "set", "scheme", "blue"])
        #expect(r.status == 1, "\(r)")
        #expect(r.stderr.contains("is a folder, not a file; move that folder away or remove it"), "\(r)")
        #expect(!r.stderr.contains("config reset"), "\(r)")
        #expect(Disk.exists(path + "/inside"))
    }
}
