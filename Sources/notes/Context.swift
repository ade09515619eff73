import Foundation
import NotesKit

/// What a command needs from the world of this run: the environment and working folder, the
/// streams (`output`), the settings, the vault's store, and the output style. Streams and style
/// are values of their own that renderers and the editor take; notes are the store's business.
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
        now = TestClock.now()
    }

    /// How output looks: colour, width, theme and dates from the options, terminal and settings.
    lazy var style = OutputStyle(
        color: globals.color, stdoutIsTTY: output.stdoutIsTTY,
        width: Terminal.size(environment: environment).columns,
        settings: settings, environment: environment, now: now)

    /// The user's editor, flushing our output before it takes the terminal.
    func editor() -> Editor {
        Editor(
            command: Editor.command(environment: environment, setting: settings.editor),
            environment: environment, output: output)
    }

    /// The `merge.notes.driver` command that makes git merge notes with this binary.
    lazy var mergeDriver: String? = Platform.executablePath(cwd: cwd, environment: environment).map(
        MergeCommand.driverCommand)

    // MARK: Settings

    lazy var settingsFile = SettingsFile(path: locations.settingsPath(flag: globals.config))

    /// The user's settings file, loaded once; a corrupt file or bad values are reported as warnings.
    lazy var loadedSettings: SettingsFile.Loaded = {
        let loaded = settingsFile.load()
        if let corruption = loaded.corruption {
            output.warn((corruption.errorDescription ?? "") + "; using the defaults. " + Self.fix(corruption))
        }
        for (problem, key) in zip(loaded.settings.problems, loaded.settings.problemKeys) {
            output.warn(
                "\(settingsFile.path): \(problem); " + Self.outcome(ofInvalid: key, "using the default"))
        }
        return loaded
    }()

    /// What becomes of a settings file's invalid value of `key`: the value below it is used
    /// (`otherwise`), except for the daily notes' name, which would open another note than meant.
    static func outcome(ofInvalid key: String, _ otherwise: String) -> String {
        key == Settings.Key.dailyFormat.rawValue || key == Settings.Key.dailyFolder.rawValue
            ? "'notes today' refuses it until it is fixed" : otherwise
    }

    /// What to do about a settings file that cannot be read.
    static func fix(_ corruption: SettingsError) -> String {
        if case .notAFile = corruption {
            return "Move that folder away or remove it; the settings file is then written in its place."
        }
        return "Fix it or run 'notes config reset'."
    }

    /// Where the vault of this run is, and how it was chosen (as `store` finds it).
    lazy var vaultLocation = locations.vault(flag: globals.vault, setting: loadedSettings.settings.vault)

    /// The user's settings with the vault's own `.notes/settings.json` over them for the keys
    /// that belong to a vault; what is wrong with the vault's file is reported as warnings.
    lazy var layeredSettings: LayeredSettings = {
        let layered = LayeredSettings(user: loadedSettings, vaultRoot: vaultLocation.path)
        let path = layered.vaultFile.path
        if let corruption = layered.vault.corruption {
            let fix =
                if case .notAFile = corruption {
                    "Move that folder away or remove it."
                } else {
                    "Fix it, or remove it and set them again with 'notes config set --vault-local KEY VALUE'."
                }
            output.warn((corruption.errorDescription ?? "") + "; the vault's settings are not used. " + fix)
        }
        for (problem, key) in zip(layered.vault.settings.problems, layered.vault.settings.problemKeys) {
            output.warn("\(path): \(problem); " + Self.outcome(ofInvalid: key, "it is ignored"))
        }
        for problem in layered.obsidian.problems { output.warn(problem) }
        for key in layered.ignoredKeys {
            output.warn(
                "\(path): '\(key.rawValue)' is a personal setting and is never taken from a vault's "
                    + "settings; it is ignored (set your own with 'notes config set \(key.rawValue) VALUE')")
        }
        return layered
    }()

    /// Reads the vault's file again after a command changed it, without repeating its warnings:
    /// turning `gitAutoCommit` on there commits that very change.
    func reloadVaultSettings() {
        // The change that turns auto-commit off is committed as it was made: with it on.
        committingAnyway = committingAnyway || settings.autoCommit
        layeredSettings = LayeredSettings(user: loadedSettings, vaultRoot: vaultLocation.path)
    }

    private var committingAnyway = false

    /// The settings in effect: the vault's for its keys, else the user's, else the defaults.
    var settings: Settings { layeredSettings.effective }

    // MARK: The vault

    /// The vault's store, opened once per command. A write command creates the default
    /// `~/Notes` when missing (and says so); a read command gets nil there, after saying where it
    /// looked. Everything about notes — the catalog, IDs, changes — goes through the store.
    func store(creatingDefaultVault: Bool) throws -> NoteStore? {
        if let openedStore { return openedStore }
        switch try NoteStore.open(
            locations: locations, flag: globals.vault, settings: settings,
            creatingDefaultVault: creatingDefaultVault)
        {
        case .opened(let store):
            openedStore = store
            if creatingDefaultVault { warnAboutNotesRepository(besides: store) }
        case .created(let store, let path):
            output.err("Created the vault \(path).")
            openedStore = store
            warnAboutNotesRepository(besides: store)
        case .missingDefault(let path):
            output.err(
                "No vault at \(path) yet; create one with 'notes init DIR' or add a note with 'notes add'.")
        }
        return openedStore
    }

    private var openedStore: NoteStore?

    /// A write that went to the `vault` setting or `~/Notes` while the current directory is in a
    /// git repository of notes that is not a vault (a clone made before its `.notes/` was
    /// committed) says where the note went and how to make that repository the vault.
    private func warnAboutNotesRepository(besides store: NoteStore) {
        let source = vaultLocation.source
        guard source == .defaultVault || source == .explicit(Locations.vaultSetting),
            let repository = locations.notesRepositoryWithoutVault(),
            let canonical = FileSystem.realPath(repository),
            !(store.vault.canonicalRoot + "/").hasPrefix(canonical + "/")
        else { return }
        output.warn(
            "this went to the vault \(store.vault.root), not to \(repository), a git repository of notes "
                + "that is not a vault; make it one with: " + Shell.notes("init", argument: repository))
    }

    /// Commits what this command changed in the vault so far, when `gitAutoCommit` is on;
    /// returns the warnings of a commit that failed. Once per command, and once per change
    /// in the browser.
    func commitChanges() -> [String] {
        guard let openedStore else { return [] }
        return AutoCommitter.commit(openedStore, enabled: settings.autoCommit || committingAnyway)
    }

    /// The store's catalog, printing the warnings about the files read to bring it up to date.
    func catalog(_ store: NoteStore) -> Catalog {
        let catalog = store.catalog
        reportDiagnostics(of: store)
        return catalog
    }

    /// The note an ID argument names, read from its file, with its own warnings and
    /// those of any file read to look it up printed.
    func note(_ argument: String, in store: NoteStore) throws -> LoadedNote {
        defer { reportDiagnostics(of: store) }
        let loaded = try store.open(argument, cwd: cwd)
        for diagnostic in loaded.diagnostics { output.warn(diagnostic.description) }
        return loaded
    }

    /// Prints the warnings the store has not reported yet.
    func reportDiagnostics(of store: NoteStore) {
        for diagnostic in store.takeDiagnostics() { output.warn(diagnostic.description) }
    }
}
