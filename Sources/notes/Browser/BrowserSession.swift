import Foundation
import NotesKit

/// The browser's hands: it holds the state machine and carries out the commands it gives —
/// the editor through the store's content rules, the trash, the settings file — then puts
/// what they changed back into the state (a fresh search, the same note selected, a message for
/// the footer). Errors become footer messages: nothing the user does in the browser ends it
/// but a quit. It reads the selected note's first lines for the preview pane when it is shown.
/// With `replaying`, nothing is changed: each command is only described in the footer.
final class BrowserSession {
    let context: Context
    let store: NoteStore
    var state: BrowserState
    /// Colour and dates of the frames (their theme and width come from the state).
    private(set) var style: OutputStyle
    /// Whether this is a replay (`--replay`), which changes nothing.
    let replaying: Bool
    /// Warnings about files read while the screen was taken, to print once it is given back.
    private(set) var warnings: [String] = []
    /// Told of every change the browser makes itself, so its own older look is not taken.
    var watcher: CatalogWatcher?
    /// What every note shown must be (`--tag`, `--since`, `--folder`…), besides matching the search.
    let filter: NoteFilter

    /// Opens the browser on `store`: its catalog (warnings printed now, before the screen is
    /// taken) sorted in the `sort` setting's order, in the settings' theme.
    init(
        context: Context, store: NoteStore, size: ScreenSize, filter: NoteFilter = NoteFilter(),
        replaying: Bool = false
    ) {
        self.context = context
        self.store = store
        self.replaying = replaying
        self.filter = filter
        let catalog = context.catalog(store)
        style = context.style
        let search = LiveSearch(catalog: catalog, order: context.settings.order, filter: filter)
        state = BrowserState(search: search, size: size, theme: style.theme)
        state.searchBudget = BrowserSession.searchBudget
    }

    /// How long a key may spend finding hits before the screen is drawn (the browser allows 50 ms
    /// for the whole keystroke); the rest are found between keys.
    static let searchBudget = Duration.milliseconds(25)

    /// The frame to show now (reading the preview's note first, when the pane wants one).
    func frame() -> Frame {
        loadPreview()
        return BrowserScreen.render(state, style: style)
    }

    /// Takes a search the watcher found (the vault changed on disk).
    func adopt(_ search: LiveSearch) {
        state.replace(search)
        renewDates()
    }

    /// Carries out `command`; false when it is the one to quit. `suspend` runs the editor: it
    /// gives the terminal back for the time of its body.
    func perform(_ command: BrowserState.Command, suspend: (() throws -> Void) throws -> Void) -> Bool {
        if case .quit = command { return false }
        if replaying {
            state.message = "Replay: " + describe(command)
            return true
        }
        do {
            switch command {
            case .quit:
                return false
            case .edit(let note):
                try edit(note, suspend: suspend)
            case .create(let text):
                try create(text, suspend: suspend)
            case .delete(let note):
                try store.delete(note, now: Date().timeIntervalSince1970)
                reload()
                state.message =
                    "Moved '\(note.id)' to the trash; bring it back with: "
                    + Shell.notes("restore", argument: note.id)
            case .save(let key):
                state.message = try save(key)
            }
        } catch {
            // An editor session or a trash move may have changed the vault before it failed.
            if case .save = command {} else { reload() }
            state.message = ErrorReport(error).headline
        }
        // Each change made here is a command of its own for gitAutoCommit.
        let problems = context.commitChanges()
        if !problems.isEmpty {
            warnings += problems
            state.message =
                (state.message.map { $0 + " " } ?? "") + "Not committed to git (see the warning on quitting)."
        }
        return true
    }

    // MARK: Commands

    private func edit(_ note: Note, suspend: (() throws -> Void) throws -> Void) throws {
        let loaded = try store.load(note)
        warnings += loaded.diagnostics.map(\.description)
        var saved = false
        try suspend {
            let session = try context.editor().edit(Content.editable(loaded.editableText), name: note.id)
            try session.save { text in
                let now = Date().timeIntervalSince1970
                saved = try store.update(loaded, content: text, now: now, expectUnchanged: true)
            }
        }
        reload(selecting: note.id)
        state.message = saved ? "Saved '\(note.id)'." : "No changes to '\(note.id)'; nothing saved."
    }

    private func create(_ text: String, suspend: (() throws -> Void) throws -> Void) throws {
        let folder = try store.vault.folderForNewNote(nil, cwd: context.cwd)
        var added: String?
        do {
            try suspend {
                let session = try context.editor().edit(text, name: "new-note")
                try session.save { text in
                    added = try store.add(content: text, now: Date().timeIntervalSince1970, folder: folder)
                }
            }
        } catch is Editor.NothingSaved {
            reload()
            state.message = "The new note was empty; nothing saved."
            return
        }
        reload(selecting: added)
        if let added { state.message = "Added '\(added)'." }
    }

    /// Writes the state's dark mode or scheme to the settings file at once (read again just
    /// before, so a change made meanwhile by `notes config` is kept); a corrupt file is never
    /// overwritten.
    private func save(_ key: Settings.Key) throws -> String {
        let file = context.settingsFile
        let loaded = file.load()
        let shown =
            key == .isDarkOn
            ? (state.theme.dark ? "Dark mode on" : "Dark mode off")
            : "Theme \(state.theme.scheme.rawValue)"
        if let corruption = loaded.corruption {
            return shown + "; not saved: " + (corruption.errorDescription ?? "the settings file is not valid")
                + " (fix it or run 'notes config reset')."
        }
        var settings = loaded.settings
        try settings.set(key, text: key == .isDarkOn ? String(state.theme.dark) : state.theme.scheme.rawValue)
        try file.save(settings)
        return shown + "; saved."
    }

    // MARK: Refreshing

    /// Reads the vault again after a change made here, and runs the query on it with the note
    /// `id` (by default the selected one) selected.
    private func reload(selecting id: String? = nil) {
        watcher?.invalidate()
        let catalog = store.refresh()
        warnings += store.takeDiagnostics().map(\.description)
        state.replace(LiveSearch(catalog: catalog, order: state.hits.order, filter: filter), selecting: id)
        renewDates()
    }

    /// Dates shown relative to now ("today") after a long session.
    private func renewDates() {
        style.dates = LocalDate(environment: context.environment, now: Date().timeIntervalSince1970)
    }

    /// Reads the first lines of the note the preview pane wants, if it has not got them.
    private func loadPreview() {
        guard let note = state.previewWanted, state.preview?.id != note.id else { return }
        // A bounded start of the file: a note that is one 20 MB line costs what a short one does.
        let lines =
            store.firstLines(of: note, count: state.layout.list.count)
            ?? ["The note could not be read: \(store.vault.fullPath(note.path))"]
        state.preview = Preview(id: note.id, lines: lines)
    }

    /// The terminal's new size.
    func resize(_ size: ScreenSize) { state.resize(size) }

    /// Takes the warnings found so far (the watcher's too).
    func takeWarnings() -> [String] {
        defer { warnings = [] }
        return warnings + (watcher?.takeWarnings() ?? [])
    }

    // MARK: Sentences

    /// What a command would do, for a replay.
    func describe(_ command: BrowserState.Command) -> String {
        switch command {
        case .quit: "quit"
        case .edit(let note): "would open '\(note.id)' in the editor"
        case .create(let text):
            text.isEmpty
                ? "would open the editor on a new note"
                : "would open the editor on a new note starting '\(text.trimmingCharacters(in: .newlines))'"
        case .delete(let note): "would move '\(note.id)' to the trash"
        case .save(let key): "would save \(key.rawValue)"
        }
    }
}
