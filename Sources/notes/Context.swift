import Foundation
import NotesKit

/// A failure the user sees as `Error: …` with exit 1.
struct Failure: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

/// What a command needs from the world of this run: the environment and working folder, the
/// streams (`output`), the settings, the vault and its notes, and the output style. Streams and
/// style are values of their own that renderers and the editor take; the vault, settings and
/// catalog parts move into the library's store.
final class Context {
    let environment: [String: String]
    let cwd: String
    /// The global options of this run.
    let globals: GlobalValues
    let locations: Locations
    /// The time of this command, used for every date it writes.
    let now: Double
    /// The standard streams.
    let output: Output

    init(globals: GlobalValues, environment: [String: String], cwd: String, output: Output) {
        self.globals = globals
        self.environment = environment
        self.cwd = cwd
        self.output = output
        locations = Locations(environment: environment, cwd: cwd)
        now = Date().timeIntervalSince1970
    }

    /// How output looks: colour, width, theme and dates from the options, terminal and settings.
    lazy var style = OutputStyle(
        color: globals.color, stdoutIsTTY: output.stdoutIsTTY, width: Terminal.size(environment: environment).columns,
        settings: settings, environment: environment, now: now)

    /// The user's editor, flushing our output before it takes the terminal.
    func editor() -> Editor {
        Editor(command: Editor.command(environment: environment, setting: settings.editor),
               environment: environment, output: output)
    }

    // MARK: Settings

    lazy var settingsFile = SettingsFile(path: locations.settingsPath(flag: globals.config))

    /// The settings, loaded once; a corrupt file or bad values are reported as warnings.
    lazy var loadedSettings: SettingsFile.Loaded = {
        let loaded = settingsFile.load()
        if let corruption = loaded.corruption {
            output.warn((corruption.errorDescription ?? "") + "; using the defaults. Fix it or run 'notes config reset'.")
        }
        for problem in loaded.settings.problems {
            output.warn("\(settingsFile.path): \(problem); using the default")
        }
        return loaded
    }()

    var settings: Settings { loadedSettings.settings }

    // MARK: Vault

    /// Opens the vault. A write command creates the default `~/Notes` when missing (and says so);
    /// a read command gets nil there, after saying where it looked.
    func vault(forWriting: Bool) throws -> Vault? {
        let (path, source) = locations.vault(flag: globals.vault, setting: settings.vault)
        do {
            return try configured(Vault(root: path))
        } catch VaultError.vaultMissing(let missing) {
            guard source == .defaultVault else { throw VaultError.vaultMissing(missing) }
            if !forWriting {
                output.err("No vault at \(path) yet; create one with 'notes init DIR' or add a note with 'notes add'.")
                return nil
            }
            try Vault.initialize(at: path)
            output.err("Created the vault \(path).")
            return try configured(Vault(root: path))
        }
    }

    /// The vault with the settings that shape how its notes are read.
    private func configured(_ vault: Vault) -> Vault {
        var vault = vault
        vault.titleSource = settings.titleSource
        return vault
    }

    /// The vault's notes from the index cache, brought up to date once per command.
    private var cachedCatalog: Catalog?

    func catalog(_ vault: Vault) -> Catalog {
        if let cachedCatalog { return cachedCatalog }
        let catalog = vault.catalog()
        cachedCatalog = catalog
        return catalog
    }

    /// Every note of the vault (bodies not loaded), printing file warnings.
    func loadNotes(_ vault: Vault) -> Catalog {
        let catalog = catalog(vault)
        for diagnostic in catalog.diagnostics { output.warn(diagnostic.description) }
        return catalog
    }

    /// The note an ID argument names (SPEC §4), read from disk, with its own warnings printed.
    /// An exact ID or path reads only that file; anything else reads the vault once.
    func note(_ argument: String, in vault: Vault) throws -> Vault.LoadedNote {
        let loaded: Vault.LoadedNote
        if let path = exactPath(argument, in: vault) {
            // The file is the note asked for: its own error (not UTF-8, unreadable) is the answer.
            loaded = try vault.load(path: path)
        } else {
            loaded = try vault.load(path: vault.resolve(argument, in: catalog(vault).notes, cwd: cwd).path)
        }
        for diagnostic in loaded.diagnostics { output.warn(diagnostic.description) }
        return loaded
    }

    /// The vault-relative path when `argument` is exactly a note's ID or path: a plain relative
    /// path to a regular note file, with no hidden, `.`/`..` or symlinked component.
    private func exactPath(_ argument: String, in vault: Vault) -> String? {
        let parts = argument.split(separator: "/", omittingEmptySubsequences: false)
        guard !parts.isEmpty, parts.allSatisfy({ !$0.isEmpty && !$0.hasPrefix(".") }) else { return nil }
        for candidate in [argument + ".md", argument] where Vault.isNoteName(candidate) {
            guard FileSystem.status(vault.fullPath(candidate))?.kind == .regular else { continue }
            let parent = (candidate as NSString).deletingLastPathComponent
            let expected = vault.canonicalRoot + (parent.isEmpty ? "" : "/" + parent)
            guard FileSystem.realPath(parent.isEmpty ? vault.root : vault.fullPath(parent)) == expected else { return nil }
            return candidate
        }
        return nil
    }
}
