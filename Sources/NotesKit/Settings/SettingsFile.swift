import Foundation

/// Reads and writes the settings file.
public struct SettingsFile: Sendable {
    /// The file's path.
    public let path: String
    /// Whether a symlink at `path` is read and written through (the user's file, kept in a
    /// dotfiles repository) or never (a vault's file, which came with a clone: a link there must
    /// not make the tool read or write a file outside the vault).
    public let followsLinks: Bool

    /// Creates a handle on the settings file at `path`.
    public init(path: String, followsLinks: Bool = true) {
        self.path = path
        self.followsLinks = followsLinks
    }

    /// What loading found.
    public struct Loaded: Sendable {
        /// The settings (defaults when the file is missing or corrupt).
        public var settings: Settings
        /// Whether the file exists.
        public var exists: Bool
        /// Set when the file exists but is not a JSON object.
        public var corruption: SettingsError?
    }

    /// Loads the settings; a missing file means defaults, a corrupt one defaults plus the problem.
    public func load() -> Loaded {
        guard let status = FileSystem.status(path) else { return Loaded(settings: Settings(), exists: false) }
        if status.kind == .directory {
            return Loaded(settings: Settings(), exists: true, corruption: .notAFile(path: path))
        }
        do {
            let (bytes, _) = try FileSystem.read(path, followSymlinks: followsLinks)
            return Loaded(settings: try Settings.decode(bytes, path: path), exists: true)
        } catch let error as SettingsError {
            return Loaded(settings: Settings(), exists: true, corruption: error)
        } catch {
            return Loaded(
                settings: Settings(), exists: true,
                corruption: .corrupt(
                    path: path, reason: error.localizedDescription))
        }
    }

    /// Writes the settings atomically, creating the folder when needed. A symlinked file (kept
    /// in a dotfiles repository) is written through the link, so the link stays.
    public func save(_ settings: Settings) throws(VaultError) {
        var target = path
        if followsLinks, FileSystem.status(path)?.kind == .symlink, let resolved = FileSystem.realPath(path) {
            target = resolved
        }
        try VaultError.mapping(FileSystem.makeDirectory(FileSystem.parentFolder(of: target)))
        try VaultError.mapping(FileSystem.writeAtomically(settings.encoded(), to: target))
    }

    /// Replaces the file with defaults, keeping the old bytes in `<file>.bak`; returns the backup's
    /// path when there was a file to keep. A folder in the file's place is not touched: it throws
    /// `SettingsError.notAFile`.
    public func reset() throws -> String? {
        var backup: String?
        if let status = FileSystem.status(path) {
            if status.kind == .directory { throw SettingsError.notAFile(path: path) }
            let (bytes, _) = try VaultError.mapping(FileSystem.read(path, followSymlinks: followsLinks))
            // Nothing to keep when it already holds the defaults; never overwrite an older backup.
            if bytes != Settings().encoded() {
                var candidate = path + ".bak"
                var n = 1
                while FileSystem.status(candidate) != nil {
                    n += 1
                    candidate = path + ".bak.\(n)"
                }
                try VaultError.mapping(FileSystem.writeAtomically(bytes, to: candidate, mode: 0o600))
                backup = candidate
            }
        }
        try save(Settings())
        return backup
    }
}
