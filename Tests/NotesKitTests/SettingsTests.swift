import Foundation
import NotesKit
import TestSupport
import Testing

/// Decodes settings from JSON text.
func decodeSettings(_ json: String) throws -> Settings {
    try Settings.decode(Array(json.utf8), path: "settings.json")
}

/// The settings file's text as written.
func encodedText(_ settings: Settings) -> String {
    String(decoding: settings.encoded(), as: UTF8.self)
}

@Suite struct SettingsTests {
    @Test func emptyObjectDecodesToTheDefaults() throws {
        let settings = try decodeSettings("{}")
        #expect(settings == Settings())
        #expect(settings.darkMode == false)
        #expect(settings.theme == .default)
        #expect(settings.order == .updated)
        #expect(settings.fileNaming == .slug)
        #expect(settings.editor == nil)
        #expect(settings.vault == nil)
        #expect(settings.problems.isEmpty)
        #expect(settings.other.isEmpty)
        for key in Settings.Key.allCases { #expect(!settings.isSet(key)) }
        #expect(settings.effective(.isDarkOn) == "false")
        #expect(settings.effective(.scheme) == "default")
        #expect(settings.effective(.sort) == "updated")
        #expect(settings.effective(.editor) == nil)
        #expect(settings.effective(.vault) == nil)
    }

    @Test func readsEveryKey() throws {
        let settings = try decodeSettings(
            """
            {"isDarkOn": true, "scheme": "indigo", "sort": "title", "editor": "code --wait", "vault": "~/Vault"}
            """)
        #expect(settings.darkMode == true)
        #expect(settings.theme == .indigo)
        #expect(settings.order == .title)
        #expect(settings.editor == "code --wait")
        #expect(settings.vault == "~/Vault")
        #expect(settings.problems.isEmpty)
    }

    @Test func roundTrips() throws {
        var settings = Settings()
        try settings.set(.isDarkOn, text: "true")
        try settings.set(.scheme, text: "green")
        try settings.set(.sort, text: "created")
        try settings.set(.titleFrom, text: "filename")
        try settings.set(.editor, text: "nano -w")
        try settings.set(.vault, text: "~/Notes/work")
        try settings.set(.gitAutoCommit, text: "true")
        try settings.set(.fileNames, text: "title")
        try settings.set(.dailyFolder, text: "days")
        try settings.set(.dailyFormat, text: "YYYY/MM/DD")
        try settings.set(.templateFolder, text: "Templates")
        let decoded = try Settings.decode(settings.encoded(), path: "p")
        #expect(decoded == settings)
        #expect(Settings.Key.allCases.allSatisfy { decoded.isSet($0) })
    }

    @Test func unknownKeysAreKeptWhenEncoded() throws {
        let json = """
            {"fontSize": 14, "ratio": 1.5, "flag": false, "nothing": null, "isDarkOn": true,
             "nested": {"list": [1, "x", null, {"deep": true}]}}
            """
        let settings = try decodeSettings(json)
        #expect(settings.problems.isEmpty)
        #expect(settings.darkMode == true)
        #expect(settings.other["fontSize"] == .number(14))
        #expect(settings.other["ratio"] == .number(1.5))
        #expect(settings.other["flag"] == .bool(false))
        #expect(settings.other["nothing"] == .null)
        #expect(
            settings.other["nested"]
                == .object([
                    "list": .array([
                        .number(1), .string("x"), .null,
                        .object(["deep": .bool(true)]),
                    ])
                ]))
        let again = try Settings.decode(settings.encoded(), path: "p")
        #expect(again == settings)
        let text = encodedText(settings)
        #expect(text.contains("\"fontSize\" : 14"))
        #expect(!text.contains("14.0"))
        #expect(text.contains("\"ratio\" : 1.5"))
    }

    @Test func numbersStayNumbersAndBooleansStayBooleans() throws {
        let settings = try decodeSettings(#"{"one": 1, "zero": 0, "yes": true}"#)
        #expect(settings.other["one"] == .number(1))
        #expect(settings.other["zero"] == .number(0))
        #expect(settings.other["yes"] == .bool(true))
    }

    @Test(
        arguments: [
            ("unknown scheme", #"{"scheme": "purple"}"#, "scheme", JSONValue.string("purple"), "purple"),
            ("unknown sort", #"{"sort": "sideways"}"#, "sort", .string("sideways"), "sideways"),
            ("isDarkOn as a string", #"{"isDarkOn": "yes"}"#, "isDarkOn", .string("yes"), "yes"),
            ("isDarkOn as a number", #"{"isDarkOn": 1}"#, "isDarkOn", .number(1), "1"),
            ("editor as a number", #"{"editor": 5}"#, "editor", .number(5), "5"),
            ("vault as a list", #"{"vault": ["a"]}"#, "vault", .array([.string("a")]), "vault"),
        ] as [(String, String, String, JSONValue, String)])
    func badValuesAreKeptAndReported(
        _ name: String, _ json: String, _ key: String, _ value: JSONValue, _ mentioned: String
    ) throws {
        let settings = try decodeSettings(json)
        #expect(settings.problems.count == 1, "\(name)")
        #expect(settings.problems.first?.contains(mentioned) == true, "\(settings.problems)")
        #expect(settings.other[key] == value)
        // The default applies, but the file keeps what the user wrote.
        #expect(settings.darkMode == false)
        #expect(settings.theme == .default)
        #expect(settings.order == .updated)
        let k = try #require(Settings.Key(rawValue: key))
        #expect(settings.isSet(k))
        let reread = try Settings.decode(settings.encoded(), path: "p")
        #expect(reread.other[key] == value)
    }

    @Test func settingAKeyReplacesItsBadValue() throws {
        var settings = try decodeSettings(#"{"scheme": "purple", "keep": "me"}"#)
        try settings.set(.scheme, text: "blue")
        #expect(settings.theme == .blue)
        #expect(settings.other["scheme"] == nil)
        #expect(encodedText(settings) == "{\n  \"keep\" : \"me\",\n  \"scheme\" : \"blue\"\n}\n")
    }

    @Test(
        arguments: [
            ("not JSON", Array("not json".utf8)),
            ("empty file", []),
            ("truncated object", Array(#"{"scheme": "#.utf8)),
            ("an array", Array("[1, 2]".utf8)),
            ("a string", Array(#""settings""#.utf8)),
            ("a number", Array("42".utf8)),
            ("null", Array("null".utf8)),
            ("binary garbage", [0xFF, 0xFE, 0x00, 0x9C, 0x7B]),
        ] as [(String, [UInt8])])
    func corruptBytesThrowCorrupt(_ name: String, _ bytes: [UInt8]) {
        do {
            let settings = try Settings.decode(bytes, path: "/x/settings.json")
            Issue.record("\(name) decoded to \(settings)")
        } catch {
            guard case .corrupt(let path, let reason) = error else {
                Issue.record("\(name): expected corrupt, got \(error)")
                return
            }
            #expect(path == "/x/settings.json")
            #expect(!reason.isEmpty)
            #expect(error.localizedDescription.contains("/x/settings.json"))
        }
    }

    @Test(arguments: [
        (Settings.Key.scheme, "purple"),
        (.isDarkOn, "maybe"),
        (.isDarkOn, ""),
        (.sort, "sideways"),
        (.sort, "updatedAt"),
        (.editor, "   "),
        (.vault, ""),
    ])
    func setRejectsInvalidValues(_ key: Settings.Key, _ text: String) {
        var settings = Settings()
        #expect(throws: SettingsError.self) { try settings.set(key, text: text) }
        #expect(settings == Settings())
        do {
            try settings.set(key, text: text)
        } catch {
            guard case .invalidValue(let k, let v, let valid) = error else {
                Issue.record("expected invalidValue, got \(error)")
                return
            }
            #expect(k == key.rawValue)
            #expect(v == text)
            #expect(valid == key.validValues)
        }
    }

    @Test func invalidSchemeMessageListsTheChoices() {
        var settings = Settings()
        do {
            try settings.set(.scheme, text: "purple")
            Issue.record("purple was accepted")
        } catch {
            let schemes = ["default", "blue", "orange", "yellow", "green", "indigo"]
            #expect(error == .invalidValue(key: "scheme", value: "purple", valid: schemes))
            let message = error.localizedDescription
            #expect(message.contains("purple"))
            #expect(message.contains("default, blue, orange, yellow, green, indigo"))
        }
    }

    @Test(arguments: [
        (Settings.Key.isDarkOn, "true", "true"), (.isDarkOn, "false", "false"), (.isDarkOn, "yes", "true"),
        (.isDarkOn, "off", "false"), (.isDarkOn, "1", "true"), (.isDarkOn, "0", "false"),
        (.isDarkOn, "TRUE", "true"),
        (.scheme, "Blue", "blue"), (.scheme, "indigo", "indigo"), (.scheme, "default", "default"),
        (.sort, "title", "title"), (.sort, "created", "created"),
        (.editor, "code --wait", "code --wait"), (.vault, "~/Notes", "~/Notes"),
    ])
    func setAcceptsValidValues(_ key: Settings.Key, _ text: String, _ effective: String) throws {
        var settings = Settings()
        try settings.set(key, text: text)
        #expect(settings.effective(key) == effective)
        #expect(settings.isSet(key))
        settings.unset(key)
        #expect(!settings.isSet(key))
        #expect(settings == Settings())
    }

    @Test func unsetClearsABadValueToo() throws {
        var settings = try decodeSettings(#"{"scheme": "purple"}"#)
        settings.unset(.scheme)
        #expect(!settings.isSet(.scheme))
        #expect(encodedText(settings).contains("purple") == false)
    }

    @Test func encodedOutputIsPrettyPrintedWithSortedKeys() throws {
        var settings = try decodeSettings(#"{"zeta": 1, "alpha": "x/y"}"#)
        try settings.set(.scheme, text: "blue")
        try settings.set(.isDarkOn, text: "true")
        try settings.set(.vault, text: "~/Notes")
        let expected = """
            {
              "alpha" : "x/y",
              "isDarkOn" : true,
              "scheme" : "blue",
              "vault" : "~/Notes",
              "zeta" : 1
            }

            """
        #expect(encodedText(settings) == expected)
    }

    @Test func defaultsEncodeToAnEmptyObject() throws {
        let text = encodedText(Settings())
        #expect(text.hasSuffix("\n"))
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        #expect(object?.isEmpty == true)
    }

    // MARK: The settings file

    @Test func missingFileMeansDefaults() throws {
        try Sandbox(initVault: false).test { root in
            let loaded = SettingsFile(path: root + "/nope/settings.json").load()
            #expect(!loaded.exists)
            #expect(loaded.settings == Settings())
            #expect(loaded.corruption == nil)
            #expect(!Disk.exists(root + "/nope"))
        }
    }

    @Test func corruptFileMeansDefaultsAndAProblem() throws {
        try Sandbox(tree: [.file("settings.json", "{ nope")]).test { root in
            let loaded = SettingsFile(path: root + "/settings.json").load()
            #expect(loaded.exists)
            #expect(loaded.settings == Settings())
            guard case .corrupt(let path, _)? = loaded.corruption else {
                Issue.record("expected corrupt, got \(String(describing: loaded.corruption))")
                return
            }
            #expect(path == root + "/settings.json")
            #expect(Disk.text(root + "/settings.json") == "{ nope")
        }
    }

    @Test func saveCreatesTheFolderAndWritesAtomically() throws {
        try Sandbox(initVault: false).test { root in
            let path = root + "/config/notes/settings.json"
            var settings = Settings()
            try settings.set(.scheme, text: "orange")
            try SettingsFile(path: path).save(settings)
            #expect(Disk.bytes(path) == settings.encoded())
            #expect(Disk.names(root + "/config/notes") == ["settings.json"])
            let loaded = SettingsFile(path: path).load()
            #expect(loaded.exists)
            #expect(loaded.settings == settings)
            try settings.set(.isDarkOn, text: "on")
            try SettingsFile(path: path).save(settings)
            #expect(SettingsFile(path: path).load().settings.darkMode)
            #expect(Disk.names(root + "/config/notes") == ["settings.json"])
        }
    }

    @Test func resetKeepsABackup() throws {
        let old = "{\"scheme\": \"purple\", \"custom\": 1}\n"
        try Sandbox(tree: [.file("settings.json", old)]).test { root in
            let path = root + "/settings.json"
            let backup = try SettingsFile(path: path).reset()
            #expect(backup == path + ".bak")
            #expect(Disk.text(path + ".bak") == old)
            let loaded = SettingsFile(path: path).load()
            #expect(loaded.settings == Settings())
            #expect(loaded.corruption == nil)
        }
    }

    @Test func resetOfACorruptFileKeepsItsBytes() throws {
        try Sandbox(tree: [.bytes("settings.json", [0xFF, 0x00, 0x7B])]).test { root in
            let path = root + "/settings.json"
            let backup = try SettingsFile(path: path).reset()
            #expect(backup == path + ".bak")
            #expect(Disk.bytes(path + ".bak") == [0xFF, 0x00, 0x7B])
            #expect(SettingsFile(path: path).load().corruption == nil)
        }
    }

    @Test func resetWithoutAFileMakesNoBackup() throws {
        try Sandbox(initVault: false).test { root in
            let path = root + "/settings.json"
            let backup = try SettingsFile(path: path).reset()
            #expect(backup == nil)
            #expect(!Disk.exists(path + ".bak"))
            #expect(SettingsFile(path: path).load().exists)
        }
    }
}

@Suite struct LocationsTests {
    static let home = "/nonexistent-home/ann"

    @Test(
        arguments: [
            (
                "--config wins", "/etc/mine.json",
                ["NOTES_CONFIG": "/env/s.json", "XDG_CONFIG_HOME": "/xdg"], "/etc/mine.json"
            ),
            ("--config with ~", "~/my.json", [:], home + "/my.json"),
            (
                "NOTES_CONFIG next", nil, ["NOTES_CONFIG": "/env/s.json", "XDG_CONFIG_HOME": "/xdg"],
                "/env/s.json"
            ),
            ("NOTES_CONFIG with ~", nil, ["NOTES_CONFIG": "~/s.json"], home + "/s.json"),
            (
                "empty NOTES_CONFIG is ignored", nil, ["NOTES_CONFIG": "", "XDG_CONFIG_HOME": "/xdg"],
                "/xdg/notes/settings.json"
            ),
            ("XDG_CONFIG_HOME next", nil, ["XDG_CONFIG_HOME": "/xdg"], "/xdg/notes/settings.json"),
            (
                "relative XDG_CONFIG_HOME is ignored", nil, ["XDG_CONFIG_HOME": "rel"],
                home + "/.config/notes/settings.json"
            ),
            ("~/.config last", nil, [:], home + "/.config/notes/settings.json"),
            ("empty --config is ignored", "", ["XDG_CONFIG_HOME": "/xdg"], "/xdg/notes/settings.json"),
        ] as [(String, String?, [String: String], String)])
    func settingsPathOrder(_ name: String, _ flag: String?, _ env: [String: String], _ expected: String) {
        var environment = env
        environment["HOME"] = Self.home
        let locations = Locations(environment: environment, cwd: "/")
        #expect(locations.settingsPath(flag: flag) == expected, "\(name)")
    }

    @Test func tildeExpansion() {
        let locations = Locations(environment: ["HOME": Self.home], cwd: "/")
        #expect(locations.home == Self.home)
        #expect(locations.expandTilde("~") == Self.home)
        #expect(locations.expandTilde("~/x/y") == Self.home + "/x/y")
        #expect(locations.expandTilde("/abs/~") == "/abs/~")
        #expect(locations.expandTilde("~other/x") == "~other/x")
        #expect(locations.expandTilde("rel") == "rel")
    }

    /// A temp tree: `outer/` is a vault (`outer/.notes/`) with `outer/a/b` inside it; `plain/c` is
    /// in no vault; `fake/.notes` is a file, not a folder.
    static let tree: [Sandbox.Item] = [
        .directory("outer", [.directory(".notes", []), .directory("a", [.directory("b", [])])]),
        .directory("plain", [.directory("c", [])]),
        .directory("fake", [.file(".notes", "not a folder")]),
        .directory("home", []),
    ]

    enum Expected {
        case explicit(String, String)
        case enclosing(String)
        case defaultVault
    }

    @Test(
        arguments: [
            (
                "--vault wins over everything", "outer/a/b", "/v/flag", ["NOTES_VAULT": "/v/env"],
                "/v/setting",
                Expected.explicit("/v/flag", "--vault")
            ),
            ("--vault with ~", "plain", "~/v", [:], nil, .explicit("HOME/v", "--vault")),
            (
                "NOTES_VAULT over an enclosing vault", "outer/a/b", nil, ["NOTES_VAULT": "/v/env"],
                "/v/setting",
                .explicit("/v/env", "NOTES_VAULT")
            ),
            (
                "enclosing vault from a nested folder", "outer/a/b", nil, [:], "/v/setting",
                .enclosing("outer")
            ),
            ("enclosing vault at the current folder", "outer", nil, [:], nil, .enclosing("outer")),
            ("empty NOTES_VAULT is ignored", "outer/a", nil, ["NOTES_VAULT": ""], nil, .enclosing("outer")),
            (
                "the setting when no vault encloses", "plain/c", nil, [:], "/v/setting",
                .explicit("/v/setting", "the 'vault' setting")
            ),
            (
                "the setting with ~", "plain/c", nil, [:], "~/MyVault",
                .explicit("HOME/MyVault", "the 'vault' setting")
            ),
            ("a .notes file does not make a vault", "fake", nil, [:], nil, .defaultVault),
            ("~/Notes last", "plain/c", nil, [:], nil, .defaultVault),
            ("an empty setting is ignored", "plain", nil, [:], "", .defaultVault),
        ] as [(String, String, String?, [String: String], String?, Expected)])
    func vaultOrder(
        _ name: String, _ cwd: String, _ flag: String?, _ env: [String: String], _ setting: String?,
        _ expected: Expected
    ) throws {
        try Sandbox(tree: Self.tree).test { root in
            var environment = env
            let home = root + "/home"
            environment["HOME"] = home
            let locations = Locations(environment: environment, cwd: root + "/" + cwd)
            let found = locations.vault(flag: flag, setting: setting)
            switch expected {
            case .explicit(let path, let source):
                #expect(found.path == path.replacingOccurrences(of: "HOME", with: home), "\(name)")
                #expect(found.source == .explicit(source), "\(name)")
            case .enclosing(let folder):
                #expect(found.path == root + "/" + folder, "\(name)")
                #expect(found.source == .enclosing, "\(name)")
            case .defaultVault:
                #expect(found.path == home + "/Notes", "\(name)")
                #expect(found.source == .defaultVault, "\(name)")
            }
        }
    }
}
