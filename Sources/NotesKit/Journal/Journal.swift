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

    /// The settings in effect. A format that `.obsidian/daily-notes.json` gives is taken as
    /// written, even one holding letters that are no date token, so that using it says what is
    /// wrong rather than naming the notes in another format than Obsidian does.
    public init(_ layered: LayeredSettings) {
        let effective = layered.effective
        dailyFolder = effective.dailyNotesFolder
        dailyFormat =
            layered.source(of: .dailyFormat) == .obsidian
            ? layered.obsidian.values[.dailyFormat] ?? effective.dailyNotesFormat : effective.dailyNotesFormat
        templateFolder = effective.templatesFolder
        dailyTemplate = layered.obsidian.dailyTemplate
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
        }
    }
}
