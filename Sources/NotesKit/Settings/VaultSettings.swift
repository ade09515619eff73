extension Settings.Key {
    /// Whether the key belongs to a vault: read from the vault's `.notes/settings.json` (committed,
    /// so every clone has it) before the user's file. The others (`isDarkOn`, `scheme`, `editor`,
    /// `vault`) are personal and never read from a vault's file: a cloned vault must not choose
    /// the command that runs as the editor, nor where notes go.
    public var belongsToVault: Bool {
        switch self {
        case .sort, .titleFrom, .gitAutoCommit, .fileNames, .dailyFolder, .dailyFormat, .templateFolder: true
        case .isDarkOn, .scheme, .editor, .vault: false
        }
    }

    /// The value a vault with an `.obsidian/` folder gives the key when neither settings file
    /// does, whatever its files say: file names as titles, and titles from file names, as Obsidian
    /// shows and links notes; daily notes at the top, named `YYYY-MM-DD`, as Obsidian's daily
    /// notes are unless `.obsidian/daily-notes.json` says otherwise (`ObsidianConfig`).
    public var obsidianDefault: String? {
        switch self {
        case .fileNames: FileNaming.title.rawValue
        case .titleFrom: TitleSource.filename.rawValue
        case .dailyFolder: ""
        case .dailyFormat: Settings.Defaults.dailyFormat
        case .isDarkOn, .scheme, .sort, .editor, .vault, .gitAutoCommit, .templateFolder: nil
        }
    }
}

/// Where the value of a setting comes from.
public enum SettingSource: String, Equatable, Sendable {
    /// The vault's own file, `<vault>/.notes/settings.json`.
    case vault
    /// The user's settings file.
    case user
    /// Neither file sets it, and the vault has an `.obsidian/` folder, which implies a value.
    case obsidian
    /// Neither file sets it.
    case `default`
}

/// The settings of one run: the user's file and, for the keys that belong to a vault, the vault's
/// file, which wins; below both, what an `.obsidian/` folder at the vault's top implies. `effective`
/// is what commands use; `source(of:)` says where each value is from.
public struct LayeredSettings: Sendable {
    /// The user's file as loaded.
    public var user: SettingsFile.Loaded
    /// The vault's file, `<vault>/.notes/settings.json`.
    public var vaultFile: SettingsFile
    /// The vault's file as loaded, personal keys dropped (defaults when it is missing or corrupt).
    public var vault: SettingsFile.Loaded
    /// The personal keys the vault's file sets, which are ignored.
    public var ignoredKeys: [Settings.Key] = []
    /// Whether the vault has an `.obsidian/` folder at its top (see `Settings.Key.obsidianDefault`).
    public var isObsidianVault: Bool
    /// What the `.obsidian/` folder's files imply for the keys neither settings file sets (its
    /// daily notes' folder and format, its templates' folder), and its daily notes' template.
    public var obsidian = ObsidianConfig()
    /// The values of the user's file with the vault's file's vault keys put over them.
    public var effective: Settings

    /// Loads the vault's file of the vault at `vaultRoot` and lays it over the user's settings.
    public init(user: SettingsFile.Loaded, vaultRoot: String) {
        self.user = user
        vaultFile = SettingsFile.ofVault(at: vaultRoot)
        var vault =
            FileSystem.status(vaultRoot + "/.notes")?.kind == .directory
            ? vaultFile.load() : SettingsFile.Loaded(settings: Settings(), exists: false)
        var effective = user.settings
        for key in Settings.Key.allCases where vault.settings.isSet(key) {
            guard key.belongsToVault else {
                ignoredKeys.append(key)
                vault.settings.unset(key)
                continue
            }
            effective.take(key, from: vault.settings)
        }
        isObsidianVault = Vault.isObsidian(at: vaultRoot)
        if isObsidianVault {
            obsidian = ObsidianConfig(vaultRoot: vaultRoot)
            for key in Settings.Key.allCases where effective.value(key) == nil {
                if let implied = obsidian.values[key] ?? key.obsidianDefault {
                    try? effective.set(key, text: implied)
                }
            }
        }
        self.vault = vault
        self.effective = effective
    }

    /// Where the value of `key` comes from: a valid value in the vault's file, else in the
    /// user's, else what an `.obsidian/` folder implies when that can be used, else the default.
    public func source(of key: Settings.Key) -> SettingSource {
        if key.belongsToVault, vault.settings.value(key) != nil { return .vault }
        if user.settings.value(key) != nil { return .user }
        if isObsidianVault, effective.value(key) != nil, obsidian.values[key] ?? key.obsidianDefault != nil {
            return .obsidian
        }
        return .default
    }

    /// The value an `.obsidian/` file gives `key` when it cannot be used, for a key neither
    /// settings file sets (so it is not the value in effect).
    public func invalidObsidianValue(_ key: Settings.Key) -> String? {
        guard isObsidianVault, effective.value(key) == nil else { return nil }
        return obsidian.values[key]
    }
}

extension SettingsFile {
    /// The settings file of the vault at `root`, `.notes/settings.json`, never read or written
    /// through a symlink.
    public static func ofVault(at root: String) -> SettingsFile {
        SettingsFile(path: root + "/" + Vault.settingsPath, followsLinks: false)
    }
}

extension Settings {
    /// Gives this key `other`'s value when `other` has a valid one (an invalid one was reported,
    /// and the value below it applies).
    mutating func take(_ key: Key, from other: Settings) {
        guard let value = other.value(key) else { return }
        try? set(key, text: value.display)
    }
}
