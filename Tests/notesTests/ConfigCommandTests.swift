import Foundation
import TestSupport
import Testing

@Suite struct ConfigCommandTests {
    func settingsPath(_ s: Sandbox) -> String { s.config + "/notes/settings.json" }

    @Test func pathFollowsFlagThenEnvironmentThenXDG() throws {
        let s = try Sandbox()
        #expect(try s.run(["config", "path"]).stdout == settingsPath(s) + "\n")
        #expect(
            try s.run(["config", "path"], env: ["NOTES_CONFIG": "/tmp/x.json"]).stdout == "/tmp/x.json\n")
        #expect(
            try s.run(["config", "path", "--config", "/tmp/y.json"], env: ["NOTES_CONFIG": "/tmp/x.json"])
                .stdout
                == "/tmp/y.json\n")
        #expect(
            try s.run(["settings", "path"], env: ["XDG_CONFIG_HOME": ""]).stdout
                == s.home + "/.config/notes/settings.json\n")
    }

    @Test func listShowsDefaultsAndSources() throws {
        let s = try Sandbox()
        let r = try s.run(["config"])
        #expect(r.status == 0)
        #expect(
            r.stdout == """
                isDarkOn        false       default
                scheme          default     default
                sort            updated     default
                titleFrom       content     default
                editor          (unset)     default
                vault           (unset)     default
                gitAutoCommit   false       default
                dailyFolder     journal     default
                dailyFormat     YYYY-MM-DD  default
                templateFolder  .templates  default
                fileNames       slug        default

                """)
        #expect(try s.run(["config", "set", "scheme", "blue"]).status == 0)
        let json = try #require(
            try JSONSerialization.jsonObject(
                with: Data(try s.run(["config", "list", "--json"]).stdout.utf8)) as? [String: [String: Any]])
        #expect(json["scheme"]?["value"] as? String == "blue")
        #expect(json["scheme"]?["source"] as? String == "user")
        #expect(json["isDarkOn"]?["value"] as? Bool == false)
        #expect(json["isDarkOn"]?["source"] as? String == "default")
        #expect(json["editor"]?["value"] is NSNull)
    }

    @Test func setGetUnsetWriteAPrettySortedFile() throws {
        let s = try Sandbox()
        #expect(try s.run(["config", "set", "scheme", "green"]).status == 0)
        #expect(try s.run(["config", "set", "isDarkOn", "true"]).status == 0)
        #expect(try s.run(["config", "set", "editor", "code --wait"]).status == 0)
        #expect(try s.run(["config", "get", "scheme"]).stdout == "green\n")
        #expect(try s.run(["config", "get", "isDarkOn"]).stdout == "true\n")
        #expect(try s.run(["config", "get", "sort"]).stdout == "updated\n")
        #expect(
            try String(contentsOfFile: settingsPath(s), encoding: .utf8) == """
                {
                  "editor" : "code --wait",
                  "isDarkOn" : true,
                  "scheme" : "green"
                }

                """)
        #expect(try s.run(["config", "unset", "scheme"]).status == 0)
        #expect(try s.run(["config", "get", "scheme"]).stdout == "default\n")
        let unsetEditor = try s.run(["config", "get", "vault"])
        #expect(unsetEditor.status == 1)
        #expect(unsetEditor.stderr.contains("'vault' is not set"))
    }

    @Test func unknownKeysAreKept() throws {
        let s = try Sandbox()
        try FileManager.default.createDirectory(
            atPath: s.config + "/notes", withIntermediateDirectories: true)
        try #"{"future": {"a": [1, 2]}, "sort": "title"}"#.write(
            toFile: settingsPath(s), atomically: true, encoding: .utf8)
        #expect(try s.run(["config", "set", "scheme", "indigo"]).status == 0)
        let object = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: settingsPath(s)))) as? [String: Any])
        #expect(object["scheme"] as? String == "indigo")
        #expect(object["sort"] as? String == "title")
        #expect((object["future"] as? [String: Any])?["a"] as? [Int] == [1, 2])
    }

    @Test(arguments: [
        (["scheme", "purple"], "default, blue, orange, yellow, green, indigo"),
        (["isDarkOn", "maybe"], "true, false"),
        (["sort", "sideways"], "updated, created, title"),
        (["colour", "blue"], "scheme"),
    ])
    func badKeysAndValuesAreUsageErrorsAndTouchNothing(arguments: [String], mentions: String) throws {
        let s = try Sandbox()
        #expect(try s.run(["config", "set", "sort", "created"]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: settingsPath(s)))
        let r = try s.run(["config", "set"] + arguments)
        #expect(r.status == 64, "\(r)")
        #expect(r.stderr.contains(mentions))
        #expect(r.stderr.contains("See 'notes config set --help'"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: settingsPath(s))) == before)
    }

    @Test func aCorruptFileWarnsUsesDefaultsAndIsNotOverwritten() throws {
        let s = try Sandbox()
        try FileManager.default.createDirectory(
            atPath: s.config + "/notes", withIntermediateDirectories: true)
        try "{ not json".write(toFile: settingsPath(s), atomically: true, encoding: .utf8)
        try s.write("a.md", "alpha\n")
        let list = try s.run(["list"])
        #expect(list.status == 0)
        #expect(list.stdout.hasPrefix("a\t"))
        #expect(list.stderr.hasPrefix("warning: the settings file '\(settingsPath(s))' is not valid"))
        #expect(list.stderr.contains("notes config reset"))
        let set = try s.run(["config", "set", "scheme", "blue"])
        #expect(set.status == 1)
        #expect(set.stderr.contains("Error: the settings file"))
        #expect(set.stderr.contains("notes config reset"))
        #expect(try String(contentsOfFile: settingsPath(s), encoding: .utf8) == "{ not json")
        let reset = try s.run(["config", "reset"])
        #expect(reset.status == 0)
        #expect(try String(contentsOfFile: settingsPath(s) + ".bak", encoding: .utf8) == "{ not json")
        #expect(try s.run(["config", "set", "scheme", "blue"]).status == 0)
        #expect(try s.run(["list"]).stderr == "")
    }

    @Test func aBadValueInTheFileWarnsAndFallsBack() throws {
        let s = try Sandbox()
        try FileManager.default.createDirectory(
            atPath: s.config + "/notes", withIntermediateDirectories: true)
        try #"{"scheme": "purple", "sort": "created"}"#.write(
            toFile: settingsPath(s), atomically: true, encoding: .utf8)
        let r = try s.run(["config", "get", "scheme"])
        #expect(r.stdout == "default\n")
        #expect(r.stderr.contains("'purple' is not a valid value for 'scheme'"))
        #expect(try s.run(["config", "get", "sort"]).stdout == "created\n")
    }

    @Test func theSortSettingIsTheDefaultOrder() throws {
        let s = try Sandbox()
        try s.write("b.md", "---\ncreatedAt: 2026-01-01T00:00:00Z\n---\nBanana\n")
        try s.write("a.md", "---\ncreatedAt: 2026-01-02T00:00:00Z\n---\nApple\n")
        try s.write("c.md", "---\ncreatedAt: 2026-01-03T00:00:00Z\n---\nCherry\n")
        #expect(ids(try s.run(["list"])) == ["c", "a", "b"])
        #expect(try s.run(["config", "set", "sort", "title"]).status == 0)
        #expect(ids(try s.run(["list"])) == ["a", "b", "c"])
        #expect(ids(try s.run(["search", "a"])) == ["a", "b"])
        #expect(ids(try s.run(["list", "--sort", "created"])) == ["c", "a", "b"])
    }

    @Test func theVaultSettingIsUsedAfterTheEnvironment() throws {
        let s = try Sandbox()
        try s.write("from-setting.md", "from the setting\n")
        #expect(try s.run(["config", "set", "vault", s.vault]).status == 0)
        #expect(ids(try s.run(["list"], vaultVariable: false)) == ["from-setting"])
        let other = s.root.path + "/other"
        #expect(try s.run(["init", other]).status == 0)
        #expect(ids(try s.run(["list"], env: ["NOTES_VAULT": other], vaultVariable: false)) == [])
    }

    @Test(arguments: [
        ("default", false, "221;221;223"), ("blue", false, "128;189;255"), ("orange", false, "255;202;128"),
        ("yellow", false, "255;230;128"), ("green", false, "154;227;172"), ("indigo", false, "172;171;235"),
        ("default", true, "43;43;44"), ("blue", true, "0;61;128"), ("orange", true, "128;75;0"),
        ("yellow", true, "128;102;0"), ("green", true, "26;100;45"), ("indigo", true, "44;43;107"),
    ])
    func rowsAreTintedWithTheSchemeAndMode(scheme: String, dark: Bool, rgb: String) throws {
        let s = try Sandbox()
        try s.write("a.md", "alpha\n")
        #expect(try s.run(["config", "set", "scheme", scheme]).status == 0)
        #expect(try s.run(["config", "set", "isDarkOn", String(dark)]).status == 0)
        let r = try s.run(["list", "--color", "always"], env: ["COLORTERM": "24bit"])
        #expect(r.stdout.contains("\u{1B}[48;2;\(rgb)m"), "\(r)")
        let palette = try s.run(["list", "--color", "always"], env: ["COLORTERM": ""])
        #expect(palette.stdout.contains("\u{1B}[48;5;"))
        #expect(!palette.stdout.contains("\u{1B}[48;2;"))
    }
}
