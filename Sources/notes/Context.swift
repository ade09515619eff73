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
        now = Date().timeIntervalSince1970
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

    /// The settings, loaded once; a corrupt file or bad values are reported as warnings.
    lazy var loadedSettings: SettingsFile.Loaded = {
        let loaded = settingsFile.load()
        if let corruption = loaded.corruption {
            output.warn(
                (corruption.errorDescription ?? "")
                    + "; using the defaults. Fix it or run 'notes config reset'.")
        }
        for problem in loaded.settings.problems {
            output.warn("\(settingsFile.path): \(problem); using the default")
        }
        return loaded
    }()

    var settings: Settings { loadedSettings.settings }

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
        case .created(let store, let path):
            output.err("Created the vault \(path).")
            openedStore = store
        case .missingDefault(let path):
            output.err(
                "No vault at \(path) yet; create one with 'notes init DIR' or add a note with 'notes add'.")
        }
        return openedStore
    }

    private var openedStore: NoteStore?

    /// Commits what this command changed in the vault so far, when `gitAutoCommit` is on;
    /// returns the warnings of a commit that failed. Once per command, and once per change
    /// in the browser.
    func commitChanges() -> [String] {
        guard let openedStore else { return [] }
        return AutoCommitter.commit(openedStore, enabled: settings.autoCommit)
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
