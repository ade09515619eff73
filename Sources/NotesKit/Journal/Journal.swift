import Foundation

/// Where a vault keeps its daily notes and templates, and how daily notes are named: the
/// `dailyFolder`, `dailyFormat` and `templateFolder` settings, and the template of Obsidian's
/// daily notes.
public struct JournalSettings: Equatable, Sendable {
    /// The vault-relative folder of the daily notes (`""`: the vault's top).
    public var dailyFolder: String
    /// The date format a daily note's name is written in (Moment tokens; `/` makes folders).
    public var dailyFormat: String
    /// The vault-relative folder of the templates.
    public var templateFolder: String
    /// The template of the daily notes that `.obsidian/daily-notes.json` names (vault-relative,
    /// without `.md`), if any; else the `daily` template of the template folder is theirs.
    public var dailyTemplate: String?

    /// The name of the template daily notes are made from when no other is named.
    public static let dailyTemplateName = "daily"

    /// Settings given as they are.
    public init(
        dailyFolder: String, dailyFormat: String, templateFolder: String, dailyTemplate: String? = nil
    ) {
        self.dailyFolder = dailyFolder
        self.dailyFormat = dailyFormat
        self.templateFolder = templateFolder
        self.dailyTemplate = dailyTemplate
    }

    /// The settings in effect. A `dailyFolder` or `dailyFormat` that cannot be used where it is
    /// written — in the vault's file, the user's (`userFile`, its path) or
    /// `.obsidian/daily-notes.json` — is kept in `refusal` rather than replaced by the value below
    /// it, so that using it says what is wrong rather than opening another note than the one meant
    /// (and than Obsidian would).
    public init(_ layered: LayeredSettings, userFile: String? = nil) {
        let effective = layered.effective
        dailyFolder = effective.dailyNotesFolder
        dailyFormat = effective.dailyNotesFormat
        templateFolder = effective.templatesFolder
        dailyTemplate = layered.obsidian.dailyTemplate
        for key in [Settings.Key.dailyFormat, .dailyFolder] where refusal == nil {
            refusal = Self.refusal(of: key, layered, userFile: userFile)
        }
    }

    /// Why the daily notes cannot be named as the settings say, naming the setting and where it is
    /// written; nil when they can.
    public var refusal: JournalError?

    /// The refusal of the value of `key` that wins: the vault file's, the user file's, then the
    /// one `.obsidian/daily-notes.json` gives.
    private static func refusal(of key: Settings.Key, _ layered: LayeredSettings, userFile: String?)
        -> JournalError?
    {
        let layers: [(Settings, String)] = [
            (layered.vault.settings, layered.vaultFile.path),
            (layered.user.settings, userFile ?? "the user's settings file"),
        ]
        for (settings, file) in layers {
            if settings.value(key) != nil { return nil }
            guard let invalid = settings.invalidFileValue(key) else { continue }
            guard case .string(let text) = invalid else {
                return .badSetting(key.rawValue, value: invalid.display, file: file, reason: "it is not text")
            }
            return reason(key, text).map { .badSetting(key.rawValue, value: text, file: file, reason: $0) }
        }
        guard layered.isObsidianVault, let text = layered.obsidian.values[key], let reason = reason(key, text)
        else { return nil }
        return .badSetting(key.rawValue, value: text, file: layered.obsidian.dailyNotesPath, reason: reason)
    }

    /// Why the settings refuse `text` as the value of `key`; nil when they take it.
    private static func reason(_ key: Settings.Key, _ text: String) -> String? {
        var probe = Settings()
        do {
            try probe.set(key, text: text)
            return nil
        } catch {
            if case .unusableValue(_, _, let reason) = error { return reason }
            return error.errorDescription
        }
    }

    /// What is wrong with `text` as the value of `dailyFormat` or `dailyFolder`, as a clause; nil
    /// when daily notes can be named with it. A format needs known tokens and must make names
    /// without an empty, hidden, `.` or `..` part; a folder must not be hidden, since a hidden
    /// folder holds no notes.
    public static func problem(_ key: Settings.Key, _ text: String) -> String? {
        switch key {
        case .dailyFormat:
            let name: String
            do {
                name = try MomentFormat(text).string(for: LocalDateTime(year: 2026, month: 12, day: 2))
            } catch {
                return error.errorDescription
            }
            guard !text.isEmpty else { return "a daily note needs a name" }
            let parts = name.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.allSatisfy({ !$0.isEmpty && !$0.hasPrefix(".") }) else {
                return "it names daily notes such as '\(name)', with an empty, hidden, '.' or '..' part"
            }
            return nil
        case .dailyFolder:
            let parts = Vault.normalized(text).split(separator: "/")
            guard !parts.contains(where: { $0.hasPrefix(".") }) else {
                return "a hidden folder holds no notes"
            }
            return nil
        default:
            return nil
        }
    }
}

/// What can go wrong with templates and daily notes, in words that need no command line.
public enum JournalError: LocalizedError, Equatable, Sendable {
    /// No template of that name is in the template folder; the names of those there are given.
    case noTemplate(String, folder: String, available: [String])
    /// A template name that would leave the template folder (`..`, an absolute path).
    case badTemplateName(String)
    /// The template folder is not a folder inside the vault (a symlink out of it, or a file).
    case templateFolderOutside(String)
    /// The date format names a daily note with an empty, `.` or `..` part, or a hidden one.
    case badDailyName(String, format: String)
    /// The setting (`dailyFormat`, `dailyFolder`) has a value in the file named that cannot be
    /// used, for the reason given.
    case badSetting(String, value: String, file: String, reason: String)
    /// The template at that path cannot be filled, for the reason given (a date format in it).
    case badTemplate(String, reason: String)

    public var errorDescription: String? {
        switch self {
        case .noTemplate(let name, let folder, let available):
            let there =
                available.isEmpty
                ? "there are none yet: put a Markdown file there, such as '\(folder)/\(name).md'"
                : "the templates there: " + available.joined(separator: ", ")
            return "no template '\(name)' in '\(folder)/'; " + there
        case .badTemplateName(let name):
            return
                "'\(name)' is not a template name; give the name of a file of the template folder, without '.md'"
        case .templateFolderOutside(let folder):
            return
                "the template folder '\(folder)' is not a folder inside the vault; set 'templateFolder' to one"
        case .badDailyName(let name, let format):
            return
                "the date format '\(format)' names the daily note '\(name)', which has an empty, hidden, '.' "
                + "or '..' part; set 'dailyFormat' to another format"
        case .badTemplate(let path, let reason):
            return "the template '\(path)' cannot be filled: \(reason)"
        case .badSetting(let key, let value, let file, let reason):
            return "the setting '\(key)' is '\(value)' in '\(file)', which cannot be used: \(reason); "
                + "fix it there (no other value is used in its place, so that no other note is opened)"
        }
    }
}
