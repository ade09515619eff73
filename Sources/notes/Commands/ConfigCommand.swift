import NotesKit

/// `notes config`: reads and writes the settings file (SPEC §3).
struct ConfigCommand: NotesCommand {
    static let spec = CommandSpec(
        name: "config", aliases: ["settings"], overview: "Read and write the settings.",
        usage: "config [list [--json] | get <key> | set <key> <value> | unset <key> | reset | path]",
        arguments: [
            ("list", "Every key, its value, and whether it comes from the file or the default."),
            ("get <key>", "Print one key's value."),
            ("set <key> <value>", "Set a key (the value is checked first)."),
            ("unset <key>", "Remove a key from the file, so its default applies."),
            ("reset", "Replace the file with defaults, keeping the old one as <file>.bak."),
            ("path", "Print the settings file's path."),
        ],
        options: [OptionSpec("json", help: "With list: print a JSON object.")],
        discussion: "KEYS:\n" + Settings.Key.allCases.map {
            "  " + $0.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0) + $0.summary
        }.joined(separator: "\n"))

    enum Action {
        case list(json: Bool)
        case get(Settings.Key)
        case set(Settings.Key, String)
        case unset(Settings.Key)
        case reset
        case path
    }

    let action: Action

    init(_ arguments: ParsedArguments) throws(UsageError) {
        let words = arguments.positionals
        let verbs = ["list", "get", "set", "unset", "reset", "path"]
        let verb = words.first ?? "list"
        func key(_ index: Int) throws(UsageError) -> Settings.Key {
            guard index < words.count else { throw Self.usage("Missing the key after '\(verb)'.") }
            guard let key = Settings.Key(rawValue: words[index]) else {
                let names = Settings.Key.allCases.map(\.rawValue)
                let suggestion = ArgumentParser.closest(to: words[index], among: names)
                throw Self.usage("'\(words[index])' is not a settings key."
                    + (suggestion.map { " Did you mean '\($0)'?" } ?? " Keys: " + names.joined(separator: ", ") + "."))
            }
            return key
        }
        func expect(_ count: Int) throws(UsageError) {
            if words.count > count { throw Self.usage("Unexpected argument '\(words[count])'.") }
        }
        switch verb {
        case "list": try expect(1); action = .list(json: arguments.flag("json"))
        case "get": try expect(2); action = .get(try key(1))
        case "unset": try expect(2); action = .unset(try key(1))
        case "reset": try expect(1); action = .reset
        case "path": try expect(1); action = .path
        case "set":
            let k = try key(1)
            guard words.count >= 3 else { throw Self.usage("Missing the value for '\(k.rawValue)'.") }
            try expect(3)
            var probe = Settings()
            do {
                try probe.set(k, text: words[2])
            } catch {
                throw Self.usage(error.errorDescription ?? "invalid value")
            }
            action = .set(k, words[2])
        default:
            let suggestion = ArgumentParser.closest(to: verb, among: verbs)
            throw Self.usage("Unknown action '\(verb)'." + (suggestion.map { " Did you mean '\($0)'?" } ?? ""))
        }
        if arguments.flag("json") {
            guard case .list = action else { throw Self.usage("--json goes with 'config list' only.") }
        }
    }

    func run(_ context: Context) throws {
        let file = context.settingsFile
        switch action {
        case .path:
            context.out(file.path + "\n")
        case .list(let json):
            let settings = context.settings
            if json {
                var pairs: [(String, JSONText)] = []
                for key in Settings.Key.allCases {
                    let value: JSONText
                    switch key {
                    case .isDarkOn: value = .bool(settings.darkMode)
                    default: value = .optional(settings.effective(key))
                    }
                    let source = settings.value(key) != nil ? "file" : "default"
                    var fields: [(String, JSONText)] = [("value", value), ("source", .string(source))]
                    if let invalid = Self.invalidFileValue(key, in: settings) {
                        fields.append(("invalidFileValue", .string(invalid.display)))
                    }
                    pairs.append((key.rawValue, .object(fields)))
                }
                context.out(JSONText.object(pairs).rendered)
                return
            }
            context.out(Self.table(settings))
        case .get(let key):
            guard let value = context.settings.effective(key) else {
                throw Failure("'\(key.rawValue)' is not set; set it with 'notes config set \(key.rawValue) VALUE'")
            }
            context.out(value + "\n")
        case .set(let key, var text):
            var settings = try writableSettings(context)
            // A relative vault would mean another folder in every directory: store it absolute
            // (a `~/…` path stays as typed; it means the same everywhere).
            if key == .vault, !text.hasPrefix("/"), !text.hasPrefix("~") { text = context.locations.absolute(text) }
            try settings.set(key, text: text)
            try file.save(settings)
            let stored = settings.effective(key) ?? text
            if key == .vault, FileSystem.status(context.locations.expandTilde(stored)) == nil {
                context.warn("'\(stored)' does not exist yet; create it with: " + Shell.notes("init", argument: stored))
            }
            context.err("Set \(key.rawValue) to '\(stored)' in \(file.path).")
        case .unset(let key):
            var settings = try writableSettings(context)
            guard settings.isSet(key) else {
                context.err("'\(key.rawValue)' was not set; nothing changed.")
                return
            }
            settings.unset(key)
            try file.save(settings)
            context.err("Unset \(key.rawValue); the default applies.")
        case .reset:
            if let backup = try file.reset() {
                context.err("Reset \(file.path) to the defaults; the old file is kept as \(backup).")
            } else {
                context.err("\(file.path) holds the defaults.")
            }
        }
    }

    /// `key  value  source` lines, columns aligned to the longest key and value (a value longer
    /// than 40 columns pushes only its own row's source along). Known keys first, then the keys
    /// the file holds that notes does not use.
    static func table(_ settings: Settings) -> String {
        var rows: [(key: String, value: String, source: String)] = Settings.Key.allCases.map { key in
            let source: String
            if let invalid = invalidFileValue(key, in: settings) {
                let shown = if case .string(let text) = invalid { "\"\(text)\"" } else { invalid.display }
                source = "default (file value \(shown) is invalid)"
            } else {
                source = settings.value(key) != nil ? "file" : "default"
            }
            return (key.rawValue, settings.effective(key) ?? "(unset)", source)
        }
        for (key, value) in settings.other.sorted(by: { $0.key < $1.key })
        where Settings.Key(rawValue: key) == nil {
            rows.append((key, value.display, "file (not used by notes)"))
        }
        rows = rows.map { (ANSI.printable($0.key), ANSI.printable($0.value), ANSI.printable($0.source)) }
        let keyWidth = rows.map { DisplayWidth.of($0.key) }.max() ?? 0
        let valueWidth = min(40, max(10, rows.map { DisplayWidth.of($0.value) }.max() ?? 0))
        return rows.map {
            DisplayWidth.pad($0.key, to: keyWidth) + "  " + DisplayWidth.pad($0.value, to: valueWidth) + "  "
                + $0.source + "\n"
        }.joined()
    }

    /// The value the file gives a known key when notes cannot use it (its default applies).
    static func invalidFileValue(_ key: Settings.Key, in settings: Settings) -> JSONValue? {
        settings.value(key) == nil ? settings.other[key.rawValue] : nil
    }

    /// The settings to modify; refuses when the file is corrupt, so it is never overwritten.
    private func writableSettings(_ context: Context) throws -> Settings {
        if let corruption = context.loadedSettings.corruption {
            throw Failure((corruption.errorDescription ?? "the settings file is not valid")
                + "; fix it by hand or run 'notes config reset' (which keeps a .bak)")
        }
        return context.settings
    }
}
