import NotesKit

/// The size of a screen in character cells.
struct ScreenSize: Equatable, Sendable {
    var columns: Int
    var rows: Int
}

/// Where things go on the browser's screen: the header (`My Notes`), the search field, the list
/// (beside the preview pane when there is one) and the footer. Rows are dropped from the top and
/// bottom as the terminal gets shorter, the search field last.
struct BrowserLayout: Equatable {
    /// The preview pane needs this many columns.
    static let previewMinimum = 100

    var header: Int?
    var field: Int
    var list: Range<Int>
    var footer: Int?
    /// The list's width; the pane, when shown, takes the rest but for one separator column.
    var listWidth: Int
    var previewWidth: Int

    init(size: ScreenSize, previewOn: Bool) {
        let rows = max(1, size.rows)
        header = rows >= 4 ? 0 : nil
        field = header == nil ? 0 : 1
        footer = rows >= 2 ? rows - 1 : nil
        list = (field + 1)..<max(field + 1, footer ?? rows)
        if previewOn && size.columns >= BrowserLayout.previewMinimum {
            listWidth = size.columns * 11 / 20
            previewWidth = size.columns - listWidth - 1
        } else {
            listWidth = max(0, size.columns)
            previewWidth = 0
        }
    }

    /// Whether the preview pane is shown.
    var showsPreview: Bool { previewWidth > 0 }
}

/// The first lines of a note, for the preview pane.
struct Preview: Equatable {
    var id: String
    var lines: [String]
}

/// The interactive browser as a pure state machine: keys go in through `handle`, the
/// state changes — the query and its hits, the selection and scrolling, the looks, the footer —
/// and what needs the world (the editor, the trash, the settings file) comes out as a `Command`
/// for the session to carry out. `BrowserScreen.render` draws it.
struct BrowserState {
    /// What a key asks of the world.
    enum Command: Equatable {
        case quit
        /// Open this note in the editor.
        case edit(Note)
        /// Open the editor on a new note holding this text.
        case create(String)
        /// Move this note to the trash (confirmed).
        case delete(Note)
        /// Save the theme's dark mode (`isDarkOn`) or scheme (`scheme`) to the settings file.
        case save(Settings.Key)
    }

    /// The search and its current hits.
    private(set) var search: LiveSearch
    private(set) var query = QueryLine()
    /// The rank of the selected hit.
    private(set) var selected = 0
    /// The rank of the first row shown.
    private(set) var top = 0
    private(set) var size: ScreenSize
    var theme: Theme
    /// Whether Tab turned the preview pane on (it shows when the terminal is wide enough).
    private(set) var previewOn = false
    /// The selected note's first lines, once the session has read them.
    var preview: Preview?
    /// The note Ctrl-D asks about, while the footer asks.
    private(set) var confirming: Note?
    /// A sentence for the footer, until the next key.
    var message: String?
    /// How long a key may spend finding hits before the screen is drawn; the rest are found by
    /// `continueSearch` between keys. Nil finds them all at once.
    var searchBudget: Duration?

    init(search: LiveSearch, size: ScreenSize, theme: Theme) {
        self.search = search
        self.size = size
        self.theme = theme
    }

    var hits: SearchHits { search.hits }

    var layout: BrowserLayout { BrowserLayout(size: size, previewOn: previewOn) }

    /// The selected note, if there are hits.
    var selectedNote: Note? { hits.count > 0 ? hits.note(at: selected) : nil }

    /// Whether the search has notes left to check.
    var searching: Bool { !hits.isComplete }

    /// What the preview pane should show, if it is shown.
    var previewWanted: Note? { layout.showsPreview ? selectedNote : nil }

    /// How far PgUp and PgDn move: one screen of rows.
    var pageSize: Int { max(1, layout.list.count) }

    // MARK: Keys

    /// Applies a key; returns what the session must do for it, if anything.
    mutating func handle(_ key: Key) -> Command? {
        if let note = confirming {
            confirming = nil
            if key == .text("y") || key == .text("Y") { return .delete(note) }
            message = "Kept '\(ANSI.printable(note.id))'."
            return nil
        }
        message = nil
        switch key {
        case .text(let text):
            query.insert(text)
            refilter()
        case .backspace:
            if query.deleteBackward() { refilter() }
        case .delete:
            if query.deleteForward() { refilter() }
        case .control("u"):
            query.deleteToStart()
            refilter()
        case .control("w"):
            query.deleteWordBackward()
            refilter()
        case .left: query.moveLeft()
        case .right: query.moveRight()
        case .up, .control("k"): select(selected - 1)
        case .down, .control("j"): select(selected + 1)
        case .pageUp: select(selected - pageSize)
        case .pageDown: select(selected + pageSize)
        case .home: select(0)
        case .end:
            search.advance()
            select(hits.count - 1)
        case .enter:
            // Whether anything matches must be known before Enter creates a note.
            if selectedNote == nil { search.advance(toFind: 1) }
            if let note = selectedNote { return .edit(note) }
            // Search-or-create, as in Notational Velocity: the query becomes the new note's title.
            let title = query.text.trimmingCharacters(in: .whitespaces)
            return .create(title.isEmpty ? "" : "# " + title + "\n\n")
        case .control("n"): return .create("")
        case .control("d"):
            guard let note = selectedNote else {
                message = "No note to delete."
                return nil
            }
            confirming = note
        case .control("t"):
            theme.dark.toggle()
            return .save(.isDarkOn)
        case .control("s"):
            let schemes = Scheme.allCases
            let next = ((schemes.firstIndex(of: theme.scheme) ?? 0) + 1) % schemes.count
            theme.scheme = schemes[next]
            return .save(.scheme)
        case .tab:
            if size.columns >= BrowserLayout.previewMinimum {
                previewOn.toggle()
            } else {
                message =
                    "The preview needs a terminal at least \(BrowserLayout.previewMinimum) columns wide."
            }
        case .escape:
            if query.text.isEmpty { return .quit }
            query.clear()
            refilter()
        case .control("c"): return .quit
        default: break
        }
        return nil
    }

    /// The terminal's new size; the selection stays in view.
    mutating func resize(_ size: ScreenSize) {
        self.size = size
        find(through: top + layout.list.count - 1)
        scroll()
    }

    /// Finds more of the search's hits (between keys) until `deadline`, or all of them.
    mutating func continueSearch(before deadline: ContinuousClock.Instant? = nil) {
        search.advance(before: deadline)
    }

    /// A new search (the vault changed): the query runs again, and the note with ID `id` (by
    /// default the one selected now) stays selected when it is still a hit.
    mutating func replace(_ search: LiveSearch, selecting id: String? = nil) {
        let kept = id ?? selectedNote?.id
        self.search = search
        let rows = top + layout.list.count
        self.search.search(SearchQuery(query.text), toFind: wanted(through: rows), before: deadline)
        preview = nil
        var rank = kept.flatMap { hits.rank(ofID: $0) }
        if rank == nil && kept != nil && searching {
            self.search.advance()
            rank = kept.flatMap { hits.rank(ofID: $0) }
        }
        selected = rank ?? min(selected, max(0, hits.count - 1))
        find(through: selected + layout.list.count)
        scroll()
    }

    /// When the budget for this key runs out.
    private var deadline: ContinuousClock.Instant? { searchBudget.map { ContinuousClock.now + $0 } }

    private mutating func refilter() {
        selected = 0
        top = 0
        search.search(SearchQuery(query.text), toFind: wanted(through: layout.list.count), before: deadline)
    }

    /// How many hits to find before drawing: enough for `rows` rows, or all without a budget.
    private func wanted(through rows: Int) -> Int { searchBudget == nil ? .max : rows }

    /// Finds hits (within the budget) until the one at `rank`, if there are that many.
    private mutating func find(through rank: Int) {
        if searching && rank >= hits.count { search.advance(toFind: rank + 1, before: deadline) }
    }

    private mutating func select(_ rank: Int) {
        find(through: max(rank, 0) + layout.list.count)
        selected = max(0, min(rank, hits.count - 1))
        scroll()
    }

    /// Moves the first row shown so that the selection is in view and no rows are left empty
    /// below the last hit when there are hits above the first row.
    private mutating func scroll() {
        let height = layout.list.count
        if selected < top { top = selected }
        if height > 0 && selected >= top + height { top = selected - height + 1 }
        if !searching { top = max(0, min(top, hits.count - height)) }
    }
}
