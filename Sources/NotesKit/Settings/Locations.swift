import Foundation

/// Where the settings file and the vault are, worked out from flags and environment.
public struct Locations: Sendable {
    /// The environment variables (passed in, so tests need not touch the real ones).
    public var environment: [String: String]
    /// The current directory.
    public var cwd: String

    /// Creates a locator over an environment and a current directory.
    public init(environment: [String: String], cwd: String) {
        self.environment = environment
        self.cwd = cwd
    }

    /// The home directory: `HOME`, else the password database's.
    public var home: String {
        if let home = environment["HOME"], !home.isEmpty { return home }
        return NSHomeDirectory()
    }

    /// Expands a leading `~` or `~/` with `home`.
    public func expandTilde(_ path: String) -> String {
        if path == "~" { return home }
        if path.hasPrefix("~/") { return home + path.dropFirst() }
        return path
    }

    /// A path made absolute: `~` expanded, joined to the current directory when relative, and
    /// `.`/`..` removed lexically (symlinks are left as they are).
    public func absolute(_ path: String) -> String {
        let expanded = expandTilde(path)
        return Vault.normalized(expanded.hasPrefix("/") ? expanded : cwd + "/" + expanded)
    }

    /// The settings file: `--config FILE` · `NOTES_CONFIG` · `$XDG_CONFIG_HOME/notes/settings.json`
    /// · `~/.config/notes/settings.json`.
    public func settingsPath(flag: String?) -> String {
        if let flag, !flag.isEmpty { return expandTilde(flag) }
        if let env = environment["NOTES_CONFIG"], !env.isEmpty { return expandTilde(env) }
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            return xdg + "/notes/settings.json"
        }
        return home + "/.config/notes/settings.json"
    }

    /// Where the index and lock of a vault without `.notes/` go:
    /// `$XDG_CACHE_HOME/notes` · `~/.cache/notes`.
    public var cacheDirectory: String {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/notes" }
        return home + "/.cache/notes"
    }

    /// How the vault was chosen, which decides what happens when it is missing.
    public enum VaultSource: Equatable, Sendable {
        /// `--vault`, `NOTES_VAULT` or the `vault` setting: a missing folder is an error.
        case explicit(String)
        /// A folder at or above the current directory holding `.notes/` or `.obsidian/`.
        case enclosing
        /// `~/Notes`: created by write commands when missing.
        case defaultVault
    }

    /// The vault path and how it was chosen: `--vault` · `NOTES_VAULT` · the nearest folder at or
    /// above the current directory holding `.notes/` or `.obsidian/` · the `vault` setting ·
    /// `~/Notes`.
    public func vault(flag: String?, setting: String?) -> (path: String, source: VaultSource) {
        if let flag, !flag.isEmpty { return (expandTilde(flag), .explicit("--vault")) }
        if let env = environment["NOTES_VAULT"], !env.isEmpty {
            return (expandTilde(env), .explicit("NOTES_VAULT"))
        }
        var directory = cwd
        while true {
            for marker in ["/.notes", "/.obsidian"]
            where FileSystem.status(directory + marker)?.kind == .directory {
                return (directory, .enclosing)
            }
            let parent = FileSystem.parentFolder(of: directory)
            if parent == directory || parent.isEmpty { break }
            directory = parent
        }
        if let setting, !setting.isEmpty { return (expandTilde(setting), .explicit(Self.vaultSetting)) }
        return (home + "/Notes", .defaultVault)
    }

    /// How the `vault` setting is named as a source.
    public static let vaultSetting = "the 'vault' setting"

    /// The top of the git work tree holding the current directory (the nearest folder at or above
    /// it with a `.git` folder or file) when that top holds Markdown files and no `.notes/`: a
    /// clone of notes that is not a vault, where a note written elsewhere is easily missed.
    /// Found without running git.
    public func notesRepositoryWithoutVault() -> String? {
        var directory = cwd
        while FileSystem.status(directory + "/.git") == nil {
            let parent = FileSystem.parentFolder(of: directory)
            if parent == directory || parent.isEmpty { return nil }
            directory = parent
        }
        guard FileSystem.status(directory + "/.notes") == nil,
            let entries = FileSystem.entries(directory),
            entries.contains(where: {
                $0.kind == .regular && !$0.name.hasPrefix(".")
                    && ($0.name.hasSuffix(".md") || $0.name.hasSuffix(".markdown"))
            })
        else { return nil }
        return directory
    }
}
