import NotesKit

/// `notes config`: reads and writes the settings file, one subcommand per action;
/// `list` runs when none is named.
enum ConfigCommand: CommandDescription {
    static let spec = CommandSpec(
        name: "config", aliases: ["settings"], overview: "Read and write the settings.",
        subcommands: [
            ConfigListCommand.self, ConfigGetCommand.self, ConfigSetCommand.self, ConfigUnsetCommand.self,
            ConfigResetCommand.self, ConfigPathCommand.self,
        ],
        discussion: "Without a subcommand, config lists every key.\n\n" + keys)

    /// The KEYS section: every key and what it means.
    static let keys =
        "KEYS:\n"
        + Settings.Key.allCases.map {
            let width = (Settings.Key.allCases.map(\.rawValue.count).max() ?? 0) + 2
            return "  " + $0.rawValue.padding(toLength: width, withPad: " ", startingAt: 0) + $0.summary
        }.joined(separator: "\n") + "\n\n"
        + Settings.Key.allCases.filter(\.belongsToVault).map(\.rawValue).joined(separator: ", ")
        + "\nbelong to the vault: with --vault-local they go in its .notes/settings.json (committed with it)\n"
        + "and win over the user's file. The others are personal.\n"
        + "In a vault with an .obsidian/ folder, fileNames defaults to title and titleFrom to filename, and\n"
        + "dailyFolder, dailyFormat and templateFolder to what its daily-notes.json and templates.json say\n"
        + "(without them, daily notes at the vault's top named YYYY-MM-DD, as Obsidian makes them)."

    /// The `<key>` argument of `get`, `set` and `unset`.
    static func keyArgument(after verb: String) -> Positional<Settings.Key> {
        Positional(
            "key", help: "A settings key (see KEYS below).", missing: "Missing the key after '\(verb)'.")
    }

    /// The user's settings to modify; refuses when the file is corrupt, so it is never overwritten.
    static func writableSettings(_ context: Context) throws -> Settings {
        if let corruption = context.loadedSettings.corruption {
            let fix =
                if case .notAFile = corruption {
                    "; move that folder away or remove it, then run this again"
                } else {
                    "; fix it by hand or run 'notes config reset' (which keeps a .bak)"
                }
            throw CommandError((corruption.errorDescription ?? "the settings file is not valid") + fix)
        }
        return context.loadedSettings.settings
    }

    /// `--vault-local` of `set` and `unset`: the vault's own file instead of the user's.
    static let vaultLocalFlag = Flag(
        "vault-local", help: "Write the vault's own settings (.notes/settings.json, committed with it).")

    /// The store and the vault's own settings to modify, as its file has them (personal keys
    /// included, so a write keeps the file as it was but for the key); refuses a corrupt file.
    static func writableVaultSettings(_ context: Context) throws -> (NoteStore, Settings) {
        guard let store = try context.store(creatingDefaultVault: true) else {
            throw CommandError("no vault to write the settings of")
        }
        let loaded = SettingsFile.ofVault(at: store.vault.root).load()
        if let corruption = loaded.corruption {
            let fix =
                if case .notAFile = corruption {
                    "; move that folder away or remove it, then run this again"
                } else {
                    "; fix it by hand, or remove it and run this again"
                }
            throw CommandError((corruption.errorDescription ?? "the vault's settings are not valid") + fix)
        }
        return (store, loaded.settings)
    }

    /// A personal key cannot go in a vault's file, which every clone reads.
    static func checkVaultLocal(_ key: Settings.Key, command: CommandSpec) throws(UsageError) {
        guard !key.belongsToVault else { return }
        throw UsageError(
            message: "'\(key.rawValue)' is a personal setting and is never read from a vault's settings; "
                + "set it without --vault-local.", command: command)
    }
}

/// `notes config list`: every key, its value and where it comes from.
struct ConfigListCommand: NotesCommand {
    static let jsonFlag = Flag("json", help: "Print a JSON object.")
    static let spec = CommandSpec(
        name: "list", parent: "config",
        overview:
            "Every key, its value, and where it comes from: the vault, the user's file, Obsidian, or the default.",
        options: [jsonFlag.spec])

    let json: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        json = arguments.flag(Self.jsonFlag)
    }

    func run(_ context: Context) throws {
        let layered = context.layeredSettings
        let settings = layered.effective
        guard json else {
            context.output.out(ConfigView.render(layered))
            return
        }
        var pairs: [(String, JSONText)] = []
        for key in Settings.Key.allCases {
            let value: JSONText
            switch key {
            case .isDarkOn: value = .bool(settings.darkMode)
            case .gitAutoCommit: value = .bool(settings.autoCommit)
            default: value = .optional(settings.effective(key))
            }
            let source = layered.source(of: key).rawValue
            var fields: [(String, JSONText)] = [("value", value), ("source", .string(source))]
            if let invalid = layered.user.settings.invalidFileValue(key) {
                fields.append(("invalidFileValue", .string(invalid.display)))
            }
            if let invalid = layered.vault.settings.invalidFileValue(key) {
                fields.append(("invalidVaultFileValue", .string(invalid.display)))
            }
            if let invalid = layered.invalidObsidianValue(key) {
                fields.append(("invalidObsidianValue", .string(invalid)))
            }
            pairs.append((key.rawValue, .object(fields)))
        }
        context.output.out(JSONText.object(pairs).rendered)
    }
}

/// `notes config get KEY`: one key's value.
struct ConfigGetCommand: NotesCommand {
    static let keyArgument = ConfigCommand.keyArgument(after: "get")
    static let spec = CommandSpec(
        name: "get", parent: "config", overview: "Print one key's value.", arguments: [keyArgument.spec],
        discussion: ConfigCommand.keys)

    let key: Settings.Key

    init(_ arguments: ParsedArguments) throws(UsageError) {
        key = try arguments.argument(Self.keyArgument)
    }

    func run(_ context: Context) throws {
        guard let value = context.settings.effective(key) else {
            throw CommandError(
                "'\(key.rawValue)' is not set; set it with 'notes config set \(key.rawValue) VALUE'")
        }
        context.output.out(value + "\n")
    }
}

/// `notes config set KEY VALUE`: checks the value, then writes it.
struct ConfigSetCommand: NotesCommand {
    static let keyArgument = ConfigCommand.keyArgument(after: "set")
    static let valueArgument = Positional<String>(
        "value", kind: .settingsValue, help: "The key's new value.",
        missing: { earlier in "Missing the value for '\(earlier.first ?? "")'." })
    static let spec = CommandSpec(
        name: "set", parent: "config", overview: "Set a key (the value is checked first).",
        arguments: [keyArgument.spec, valueArgument.spec], options: [ConfigCommand.vaultLocalFlag.spec],
        discussion: ConfigCommand.keys)

    let key: Settings.Key
    let text: String
    let vaultLocal: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        key = try arguments.argument(Self.keyArgument)
        text = try arguments.argument(Self.valueArgument)
        vaultLocal = arguments.flag(ConfigCommand.vaultLocalFlag)
        if vaultLocal { try ConfigCommand.checkVaultLocal(key, command: Self.spec) }
        var probe = Settings()
        do {
            try probe.set(key, text: text)
        } catch {
            throw Self.usage(error.errorDescription ?? "invalid value")
        }
    }

    func run(_ context: Context) throws {
        if vaultLocal {
            var (store, settings) = try ConfigCommand.writableVaultSettings(context)
            try settings.set(key, text: text)
            try store.saveVaultSettings(settings)
            context.reloadVaultSettings()
            let stored = settings.effective(key) ?? text
            context.output.err(
                "Set \(key.rawValue) to '\(stored)' in the vault's settings, "
                    + store.vault.fullPath(Vault.settingsPath) + ".")
            return
        }
        let file = context.settingsFile
        var settings = try ConfigCommand.writableSettings(context)
        // A relative vault would mean another folder in every directory: store it absolute
        // (a `~/…` path stays as typed; it means the same everywhere).
        var text = text
        if key == .vault, !text.hasPrefix("/"), !text.hasPrefix("~") {
            text = context.locations.absolute(text)
        }
        try settings.set(key, text: text)
        try file.save(settings)
        let stored = settings.effective(key) ?? text
        if key == .vault, FileSystem.status(context.locations.expandTilde(stored)) == nil {
            context.output.warn(
                "'\(stored)' does not exist yet; create it with: " + Shell.notes("init", argument: stored))
        }
        context.output.err("Set \(key.rawValue) to '\(stored)' in \(file.path).")
    }
}

/// `notes config unset KEY`: removes a key from the file so its default applies.
struct ConfigUnsetCommand: NotesCommand {
    static let keyArgument = ConfigCommand.keyArgument(after: "unset")
    static let spec = CommandSpec(
        name: "unset", parent: "config", overview: "Remove a key from the file, so its default applies.",
        arguments: [keyArgument.spec], options: [ConfigCommand.vaultLocalFlag.spec],
        discussion: ConfigCommand.keys)

    let key: Settings.Key
    let vaultLocal: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        key = try arguments.argument(Self.keyArgument)
        vaultLocal = arguments.flag(ConfigCommand.vaultLocalFlag)
        if vaultLocal { try ConfigCommand.checkVaultLocal(key, command: Self.spec) }
    }

    func run(_ context: Context) throws {
        if vaultLocal {
            var (store, settings) = try ConfigCommand.writableVaultSettings(context)
            guard settings.isSet(key) else {
                context.output.err("'\(key.rawValue)' was not set in the vault's settings; nothing changed.")
                return
            }
            settings.unset(key)
            try store.saveVaultSettings(settings)
            context.reloadVaultSettings()
            context.output.err(
                "Unset \(key.rawValue) in the vault's settings; the user's setting or the default applies.")
            return
        }
        var settings = try ConfigCommand.writableSettings(context)
        guard settings.isSet(key) else {
            context.output.err("'\(key.rawValue)' was not set; nothing changed.")
            return
        }
        settings.unset(key)
        try context.settingsFile.save(settings)
        context.output.err("Unset \(key.rawValue); the default applies.")
    }
}

/// `notes config reset`: the defaults, keeping the old file as a backup.
struct ConfigResetCommand: NotesCommand {
    static let spec = CommandSpec(
        name: "reset", parent: "config",
        overview: "Replace the file with defaults, keeping the old one as <file>.bak.")

    init(_ arguments: ParsedArguments) throws(UsageError) {}

    func run(_ context: Context) throws {
        let file = context.settingsFile
        if let backup = try file.reset() {
            context.output.err("Reset \(file.path) to the defaults; the old file is kept as \(backup).")
        } else {
            context.output.err("\(file.path) holds the defaults.")
        }
    }
}

/// `notes config path`: where the settings file is.
struct ConfigPathCommand: NotesCommand {
    static let spec = CommandSpec(name: "path", parent: "config", overview: "Print the settings file's path.")

    init(_ arguments: ParsedArguments) throws(UsageError) {}

    func run(_ context: Context) throws {
        context.output.out(context.settingsFile.path + "\n")
    }
}
