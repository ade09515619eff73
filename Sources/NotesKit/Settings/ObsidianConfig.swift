import Foundation

/// What an Obsidian vault's `.obsidian/` files say about its daily notes and templates: the
/// `folder`, `format` and `template` of `daily-notes.json` (the Daily notes core plugin) and the
/// `folder` of `templates.json` (the Templates core plugin). A missing or unreadable file, or a key
/// that is missing, empty or not a string, says nothing, so the plugins' own defaults apply.
public struct ObsidianConfig: Equatable, Sendable {
    /// The settings the files give values: `dailyFolder`, `dailyFormat`, `templateFolder`.
    public var values: [Settings.Key: String] = [:]
    /// The daily notes' template, a vault-relative path without `.md`, as `daily-notes.json` has it.
    public var dailyTemplate: String?
    /// The path of `daily-notes.json`, to name in messages.
    public var dailyNotesPath = ".obsidian/daily-notes.json"
    /// The files that are there but hold no JSON object, so that they say nothing, each said once.
    public var problems: [String] = []

    /// Nothing said.
    public init() {}

    /// Reads the files of the `.obsidian/` folder of the vault at `vaultRoot`.
    public init(vaultRoot: String) {
        dailyNotesPath = vaultRoot + "/.obsidian/daily-notes.json"
        let daily = Self.strings(in: dailyNotesPath, problems: &problems)
        if let folder = daily["folder"].map(Self.vaultRelative), !folder.isEmpty {
            values[.dailyFolder] = folder
        }
        if let format = daily["format"], !format.isEmpty { values[.dailyFormat] = format }
        if let template = daily["template"].map(Self.vaultRelative), !template.isEmpty {
            dailyTemplate = template
        }
        let templates = Self.strings(in: vaultRoot + "/.obsidian/templates.json", problems: &problems)
        if let folder = templates["folder"].map(Self.vaultRelative), !folder.isEmpty {
            values[.templateFolder] = folder
        }
    }

    /// Obsidian writes vault paths with or without a leading or trailing `/`.
    static func vaultRelative(_ path: String) -> String {
        Vault.normalized(path.trimmingCharacters(in: .whitespaces)).drop { $0 == "/" }.description
    }

    /// The string members of the JSON object in the file at `path`; none when it is missing or
    /// holds no JSON object, which is said in `problems`, as Obsidian then uses its defaults.
    static func strings(in path: String, problems: inout [String]) -> [String: String] {
        var parser: JSONParser
        do {
            parser = JSONParser(bytes: try FileSystem.read(path).0)
        } catch {
            return [:]
        }
        guard case .object(let object)? = try? parser.document() else {
            problems.append("'\(path)' is not a JSON object, so Obsidian's defaults are used in its place")
            return [:]
        }
        return object.dictionary.compactMapValues(\.stringValue)
    }
}
