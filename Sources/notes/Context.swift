import Foundation
import NotesKit

/// A failure the user sees as `Error: …` with exit 1.
struct Failure: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

/// Everything a command needs from the outside world: environment, streams, settings, vault.
final class Context {
    let environment: [String: String]
    let cwd: String
    /// The global options of this run.
    let globals: GlobalValues
    let locations: Locations
    /// The time of this command, used for every date it writes.
    let now: Double
    let stdinIsTTY: Bool
    let stdoutIsTTY: Bool
    private var stdoutBuffer = ""

    init(globals: GlobalValues, environment: [String: String], cwd: String) {
        self.globals = globals
        self.environment = environment
        self.cwd = cwd
        locations = Locations(environment: environment, cwd: cwd)
        now = Date().timeIntervalSince1970
        stdinIsTTY = FileSystem.isTerminal(0)
        stdoutIsTTY = FileSystem.isTerminal(1)
    }

    // MARK: Streams

    /// Queues text for stdout (flushed at exit, or now with `flush()`).
    func out(_ text: String) {
        stdoutBuffer += text
        if stdoutBuffer.utf8.count > 1 << 16 { flush() }
    }

    /// Writes queued stdout text.
    func flush() {
        guard !stdoutBuffer.isEmpty else { return }
        FileHandle.standardOutput.write(Data(stdoutBuffer.utf8))
        stdoutBuffer = ""
    }

    /// Writes a line to stderr.
    func err(_ line: String) {
        flush()
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Writes `warning: …` to stderr, unless `--quiet`.
    func warn(_ message: String) {
        guard !globals.quiet else { return }
        err("warning: " + message)
    }

    /// Asks a yes/no question on stderr and reads the answer from stdin; no means no.
    func confirm(_ question: String) -> Bool {
        flush()
        FileHandle.standardError.write(Data((question + " [y/N] ").utf8))
        guard let answer = readLine() else { return false }
        return ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
    }

    /// Reads all of stdin as UTF-8 text.
    func readStandardInput() throws -> String {
        let data = FileHandle.standardInput.readDataToEndOfFile()
        guard let text = String(validating: data, as: UTF8.self) else {
            throw Failure("standard input is not UTF-8 text; nothing saved")
        }
        return text
    }

    // MARK: Settings

    lazy var settingsFile = SettingsFile(path: locations.settingsPath(flag: globals.config))

    /// The settings, loaded once; a corrupt file or bad values are reported as warnings.
    lazy var loadedSettings: SettingsFile.Loaded = {
        let loaded = settingsFile.load()
        if let corruption = loaded.corruption {
            warn((corruption.errorDescription ?? "") + "; using the defaults. Fix it or run 'notes config reset'.")
        }
        for problem in loaded.settings.problems {
            warn("\(settingsFile.path): \(problem); using the default")
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
                err("No vault at \(path) yet; create one with 'notes init DIR' or add a note with 'notes add'.")
                return nil
            }
            try Vault.initialize(at: path)
            err("Created the vault \(path).")
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
        for diagnostic in catalog.diagnostics { warn(diagnostic.description) }
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
        for diagnostic in loaded.diagnostics { warn(diagnostic.description) }
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

    // MARK: Output style

    /// Colour on: `--color always`, or auto with a TTY, no `NO_COLOR` and `TERM` not `dumb`.
    var colorEnabled: Bool {
        switch globals.color {
        case .always: return true
        case .never: return false
        case .auto:
            return stdoutIsTTY && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
        }
    }

    /// Human rows (a TTY or `--color always`) rather than tab-separated ones.
    var humanOutput: Bool { stdoutIsTTY || globals.color == .always }

    /// Whether the terminal takes 24-bit colour.
    var trueColor: Bool { ["truecolor", "24bit"].contains(environment["COLORTERM"] ?? "") }

    /// The theme from the settings.
    var theme: Theme { Theme(scheme: settings.theme, dark: settings.darkMode) }

    /// The terminal width for human rows.
    var width: Int { ANSI.width(environment: environment) }
}
