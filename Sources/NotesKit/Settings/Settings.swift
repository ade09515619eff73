import Foundation

/// The colour themes of the iOS app's `ColorBackground`.
public enum Scheme: String, CaseIterable, Codable, Sendable {
    case `default`, blue, orange, yellow, green, indigo
}

/// How `add` names a new note's file (the `fileNames` setting).
public enum FileNaming: String, CaseIterable, Codable, Sendable {
    /// A slug of the title: `project-plan.md`.
    case slug
    /// The title as written, only what cannot be in a file name replaced: `Project Plan.md`, as
    /// Obsidian names notes, so that a `[[Project Plan]]` link finds the file by its name.
    case title
}

/// The user's preferences: a JSON object, every key optional, defaults in one place.
/// Keys the tool does not know are kept when the file is written again.
public struct Settings: Codable, Equatable, Sendable {
    /// One settings key with how to check and show its value.
    public enum Key: String, CaseIterable, Sendable {
        case isDarkOn, scheme, sort, titleFrom, editor, vault, gitAutoCommit, dailyFolder, dailyFormat,
            templateFolder, fileNames

        /// What the key means, for `notes config` help.
        public var summary: String {
            switch self {
            case .isDarkOn: return "dark palette (true or false)"
            case .scheme: return "colour theme: " + Scheme.allCases.map(\.rawValue).joined(separator: ", ")
            case .sort: return "default order: " + SortOrder.allCases.map(\.rawValue).joined(separator: ", ")
            case .titleFrom:
                return "where titles come from: content (heading or first line) or filename (as Obsidian)"
            case .editor: return "editor command, e.g. 'code --wait'"
            case .vault: return "default vault folder ('~' expanded)"
            case .gitAutoCommit: return "commit each change to notes with git (true or false)"
            case .fileNames:
                return "new file names: slug (project-plan.md) or title (Project Plan.md, as Obsidian)"
            case .dailyFolder:
                return "folder of the daily notes ('notes today'), in the vault; '' for its top"
            case .dailyFormat:
                return "file name of a daily note, in date tokens (YYYY-MM-DD; '/' makes folders)"
            case .templateFolder: return "folder of the templates ('notes add --template'), in the vault"
            }
        }

        /// The valid values, when there is a fixed set.
        public var validValues: [String]? {
            switch self {
            case .isDarkOn, .gitAutoCommit: return ["true", "false"]
            case .scheme: return Scheme.allCases.map(\.rawValue)
            case .sort: return SortOrder.allCases.map(\.rawValue)
            case .titleFrom: return TitleSource.allCases.map(\.rawValue)
            case .fileNames: return FileNaming.allCases.map(\.rawValue)
            case .editor, .vault, .dailyFolder, .dailyFormat, .templateFolder: return nil
            }
        }
    }

    /// The default values.
    public enum Defaults {
        public static let isDarkOn = false
        public static let scheme = Scheme.default
        public static let sort = SortOrder.updated
        public static let titleFrom = TitleSource.content
        public static let gitAutoCommit = false
        public static let fileNames = FileNaming.slug
        public static let dailyFolder = "journal"
        public static let dailyFormat = "YYYY-MM-DD"
        public static let templateFolder = ".templates"
    }

    /// Dark palette, if set.
    public var isDarkOn: Bool?
    /// Colour theme, if set.
    public var scheme: Scheme?
    /// Default order, if set.
    public var sort: SortOrder?
    /// Where titles come from, if set.
    public var titleFrom: TitleSource?
    /// Editor command, if set.
    public var editor: String?
    /// Default vault path, if set.
    public var vault: String?
    /// Whether write commands commit their changes with git, if set.
    public var gitAutoCommit: Bool?
    /// How new notes' files are named, if set.
    public var fileNames: FileNaming?
    /// The vault-relative folder of the daily notes, if set.
    public var dailyFolder: String?
    /// The date format of a daily note's name, if set.
    public var dailyFormat: String?
    /// The vault-relative folder of the templates, if set.
    public var templateFolder: String?
    /// Keys the tool does not know (and known keys with values it cannot read), kept as they were.
    public var other: [String: JSONValue] = [:]
    /// Problems with individual values (wrong type or unknown name); those keys fall back to defaults.
    public var problems: [String] = []
    /// The key of each of `problems`, in the same order.
    public var problemKeys: [String] = []

    /// Settings with every key at its default.
    public init() {}

    /// Dark mode, with the default applied.
    public var darkMode: Bool { isDarkOn ?? Defaults.isDarkOn }
    /// The theme, with the default applied.
    public var theme: Scheme { scheme ?? Defaults.scheme }
    /// The order, with the default applied.
    public var order: SortOrder { sort ?? Defaults.sort }
    /// The title source, with the default applied.
    public var titleSource: TitleSource { titleFrom ?? Defaults.titleFrom }
    /// Auto-commit, with the default applied.
    public var autoCommit: Bool { gitAutoCommit ?? Defaults.gitAutoCommit }
    /// How new notes' files are named, with the default applied.
    public var fileNaming: FileNaming { fileNames ?? Defaults.fileNames }
    /// The folder of the daily notes, with the default applied.
    public var dailyNotesFolder: String { dailyFolder ?? Defaults.dailyFolder }
    /// The date format of daily notes' names, with the default applied.
    public var dailyNotesFormat: String { dailyFormat ?? Defaults.dailyFormat }
    /// The folder of the templates, with the default applied.
    public var templatesFolder: String { templateFolder ?? Defaults.templateFolder }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ s: String) { stringValue = s }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        // In name order, so problems are reported in the same order on every run.
        for codingKey in container.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
            let raw = try container.decode(JSONValue.self, forKey: codingKey)
            do {
                try set(codingKey.stringValue, json: raw)
            } catch {
                other[codingKey.stringValue] = raw
                problems.append(error.localizedDescription)
                problemKeys.append(codingKey.stringValue)
            }
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: AnyKey.self)
        for (key, value) in other where Key(rawValue: key) == nil || self.value(Key(rawValue: key)) == nil {
            try container.encode(value, forKey: AnyKey(key))
        }
        for key in Key.allCases {
            if let value = value(key) { try container.encode(value, forKey: AnyKey(key.rawValue)) }
        }
    }

    /// The value set in the file for a known key, as JSON; nil when unset.
    public func value(_ key: Key?) -> JSONValue? {
        switch key {
        case .isDarkOn: return isDarkOn.map { .bool($0) }
        case .scheme: return scheme.map { .string($0.rawValue) }
        case .sort: return sort.map { .string($0.rawValue) }
        case .titleFrom: return titleFrom.map { .string($0.rawValue) }
        case .editor: return editor.map { .string($0) }
        case .vault: return vault.map { .string($0) }
        case .gitAutoCommit: return gitAutoCommit.map { .bool($0) }
        case .fileNames: return fileNames.map { .string($0.rawValue) }
        case .dailyFolder: return dailyFolder.map { .string($0) }
        case .dailyFormat: return dailyFormat.map { .string($0) }
        case .templateFolder: return templateFolder.map { .string($0) }
        case nil: return nil
        }
    }

    /// The effective value of a key as text (the default when unset); nil for unset keys without one.
    public func effective(_ key: Key) -> String? {
        switch key {
        case .isDarkOn: return String(darkMode)
        case .scheme: return theme.rawValue
        case .sort: return order.rawValue
        case .titleFrom: return titleSource.rawValue
        case .editor: return editor
        case .vault: return vault
        case .gitAutoCommit: return String(autoCommit)
        case .fileNames: return fileNaming.rawValue
        case .dailyFolder: return dailyNotesFolder
        case .dailyFormat: return dailyNotesFormat
        case .templateFolder: return templatesFolder
        }
    }

    private mutating func set(_ name: String, json: JSONValue) throws(SettingsError) {
        guard let key = Key(rawValue: name) else {
            other[name] = json
            return
        }
        switch (key, json) {
        case (.isDarkOn, .bool(let b)): isDarkOn = b
        case (.gitAutoCommit, .bool(let b)): gitAutoCommit = b
        case (.editor, .string(let s)), (.vault, .string(let s)):
            // No path or command holds a NUL: the system would read the text before it (a vault
            // `/a\u0000b` would be `/a`), so the value is refused, shown as the file has it.
            guard !s.unicodeScalars.contains("\0") else {
                throw .invalidValue(
                    key: name, value: s.replacingOccurrences(of: "\0", with: "\\u0000"), valid: nil)
            }
            if key == .editor { editor = s } else { vault = s }
        case (.scheme, .string(let s)), (.sort, .string(let s)), (.titleFrom, .string(let s)),
            (.fileNames, .string(let s)), (.dailyFolder, .string(let s)), (.dailyFormat, .string(let s)),
            (.templateFolder, .string(let s)):
            try set(key, text: s)
        default:
            throw .invalidValue(key: name, value: json.display, valid: key.validValues)
        }
    }

    /// Sets a known key from text as typed on the command line, validating it.
    public mutating func set(_ key: Key, text: String) throws(SettingsError) {
        switch key {
        case .isDarkOn, .gitAutoCommit:
            let value: Bool
            switch text.lowercased() {
            case "true", "yes", "on", "1": value = true
            case "false", "no", "off", "0": value = false
            default: throw .invalidValue(key: key.rawValue, value: text, valid: key.validValues)
            }
            if key == .isDarkOn { isDarkOn = value } else { gitAutoCommit = value }
        case .scheme:
            guard let s = Scheme(rawValue: text.lowercased()) else {
                throw .invalidValue(key: key.rawValue, value: text, valid: key.validValues)
            }
            scheme = s
        case .sort:
            guard let s = SortOrder(rawValue: text.lowercased()) else {
                throw .invalidValue(key: key.rawValue, value: text, valid: key.validValues)
            }
            sort = s
        case .titleFrom:
            guard let source = TitleSource(rawValue: text.lowercased()) else {
                throw .invalidValue(key: key.rawValue, value: text, valid: key.validValues)
            }
            titleFrom = source
        case .fileNames:
            guard let naming = FileNaming(rawValue: text.lowercased()) else {
                throw .invalidValue(key: key.rawValue, value: text, valid: key.validValues)
            }
            fileNames = naming
        case .editor:
            guard !text.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw .invalidValue(key: key.rawValue, value: text, valid: nil)
            }
            editor = text
        case .vault:
            guard !text.isEmpty else { throw .invalidValue(key: key.rawValue, value: text, valid: nil) }
            vault = text
        case .dailyFolder, .templateFolder:
            // A folder of the vault: one that leaves it would put notes (or read templates) elsewhere.
            let normalized = Vault.normalized(text)
            guard !text.hasPrefix("/"), normalized != "..", !normalized.hasPrefix("../"),
                !text.unicodeScalars.contains("\0")
            else {
                throw .unusableValue(
                    key: key.rawValue, value: text.replacingOccurrences(of: "\0", with: "\\u0000"),
                    reason: "it must be a folder inside the vault, relative to its top")
            }
            if let reason = JournalSettings.problem(key, text) {
                throw .unusableValue(key: key.rawValue, value: text, reason: reason)
            }
            if key == .dailyFolder { dailyFolder = text } else { templateFolder = text }
        case .dailyFormat:
            if let reason = JournalSettings.problem(key, text) {
                throw .unusableValue(key: key.rawValue, value: text, reason: reason)
            }
            dailyFormat = text
        }
        other[key.rawValue] = nil
    }

    /// Clears a key back to its default.
    public mutating func unset(_ key: Key) {
        switch key {
        case .isDarkOn: isDarkOn = nil
        case .scheme: scheme = nil
        case .sort: sort = nil
        case .titleFrom: titleFrom = nil
        case .editor: editor = nil
        case .vault: vault = nil
        case .gitAutoCommit: gitAutoCommit = nil
        case .fileNames: fileNames = nil
        case .dailyFolder: dailyFolder = nil
        case .dailyFormat: dailyFormat = nil
        case .templateFolder: templateFolder = nil
        }
        other[key.rawValue] = nil
    }

    /// Whether a key is set in the file (even to a value the tool cannot read).
    public func isSet(_ key: Key) -> Bool { value(key) != nil || other[key.rawValue] != nil }

    /// The JSON text written to the settings file: pretty-printed, sorted keys, final newline.
    public func encoded() -> [UInt8] {
        if Key.allCases.allSatisfy({ value($0) == nil }) && other.isEmpty { return Array("{}\n".utf8) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return Array("{}\n".utf8) }
        return Array(data) + [0x0A]
    }

    /// Decodes settings from file bytes; throws `corrupt` when they are not a JSON object.
    public static func decode(_ bytes: [UInt8], path: String) throws(SettingsError) -> Settings {
        do {
            return try JSONDecoder().decode(Settings.self, from: Data(bytes))
        } catch {
            throw .corrupt(path: path, reason: describe(error))
        }
    }

    private static func describe(_ error: Error) -> String {
        if case DecodingError.typeMismatch = error { return "it is not a JSON object" }
        if case DecodingError.dataCorrupted(let context) = error {
            let underlying =
                (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return underlying ?? context.debugDescription
        }
        return "it is not valid JSON"
    }
}

/// Errors about the settings file and values.
public enum SettingsError: LocalizedError, Equatable, Sendable {
    /// The file is not a JSON object; defaults are used and it is not overwritten.
    case corrupt(path: String, reason: String)
    /// A value is not valid for its key.
    case invalidValue(key: String, value: String, valid: [String]?)
    /// A folder is where the settings file should be; defaults are used, and nothing replaces it.
    case notAFile(path: String)
    /// A value cannot be used for its key, for the reason given.
    case unusableValue(key: String, value: String, reason: String)

    public var errorDescription: String? {
        switch self {
        case .corrupt(let path, let reason):
            return "the settings file '\(path)' is not valid (\(reason))"
        case .invalidValue(let key, let value, let valid):
            let choices = valid.map { "; valid values: " + $0.joined(separator: ", ") } ?? ""
            return "'\(value)' is not a valid value for '\(key)'\(choices)"
        case .notAFile(let path):
            return "the settings file '\(path)' is a folder, not a file"
        case .unusableValue(let key, let value, let reason):
            return "'\(value)' is not a valid value for '\(key)': \(reason)"
        }
    }
}

extension Settings {
    /// The value the file gives a known key when it cannot be used (so its default applies).
    public func invalidFileValue(_ key: Key) -> JSONValue? {
        value(key) == nil ? other[key.rawValue] : nil
    }
}
