import NotesKit

/// `notes browse` (and `notes` alone on a terminal): the interactive browser.
struct BrowseCommand: NotesCommand {
    static let replayOption = Option<String>(
        "replay", value: "keys",
        help: "Replay these keys without a terminal and print the last screen; changes nothing.")
    static let timingFlag = Flag("timing", help: "With --replay: print how long each key took instead.")

    static let spec = CommandSpec(
        name: "browse", overview: "Browse, search and edit notes in a full-screen list.",
        options: [ListOptions.tagOption.spec] + FilterOptions.specs + [replayOption.spec, timingFlag.spec],
        discussion: """
            Type to search (every keystroke filters, in the 'sort' order). Enter opens the selected
            note in the editor, or, when nothing matches, creates a note titled with the search.
            Up/Down or Ctrl-K/Ctrl-J, PgUp/PgDn, Home/End move; Ctrl-U and Ctrl-W erase the search;
            Ctrl-N adds a note; Ctrl-D deletes (after y); Ctrl-T toggles dark mode and Ctrl-S the
            theme (both saved); Tab shows a preview (100 columns or more); Esc clears, then quits;
            Ctrl-C quits.

            --replay keys are text with <Enter>, <Tab>, <BS>, <Del>, <Esc>, <Up>, <Down>, <Left>,
            <Right>, <PgUp>, <PgDn>, <Home>, <End>, <C-x> (Ctrl-X) and <lt> (a '<'); the screen is
            COLUMNS x LINES (default 80x24) when not on a terminal.

            --tag and the filters show only the notes they keep, as in 'notes list'; a search
            looks among those.

            \(FilterOptions.datesHelp)
            """)

    let replay: [Key]?
    let timing: Bool
    let tags: [String]
    let filters: FilterOptions

    init(_ arguments: ParsedArguments) throws(UsageError) {
        timing = arguments.flag(Self.timingFlag)
        tags = try arguments.values(ListOptions.tagOption)
        filters = try FilterOptions(arguments)
        if let notation = arguments.value(Self.replayOption) {
            switch BrowserReplay.keys(notation) {
            case .success(let keys): replay = keys
            case .failure(let unknown):
                throw Self.usage(
                    "'\(unknown.name)' in --replay is not a key; see 'notes browse --help' for the names.")
            }
        } else {
            replay = nil
            if timing { throw Self.usage("'--timing' needs '--replay'.") }
        }
    }

    func run(_ context: Context) throws {
        let output = context.output
        if replay == nil && !(output.stdinIsTTY && output.stdoutIsTTY) {
            throw CommandError(
                "the browser needs a terminal (standard input and output); in a script use "
                    + "'notes list' or 'notes search'")
        }
        guard let store = try context.store(creatingDefaultVault: false) else { return }
        let terminal = Terminal.size(environment: context.environment, fd: STDOUT_FILENO)
        let size = ScreenSize(columns: terminal.columns, rows: terminal.rows)
        let filter = try filters.filter(tags: tags, store: store, context: context)
        if let replay {
            BrowserReplay.run(
                replay, timing: timing, store: store, size: size, filter: filter, context: context)
            return
        }
        let session = BrowserSession(context: context, store: store, size: size, filter: filter)
        output.flush()
        defer {
            for warning in session.takeWarnings() { output.warn(warning) }
        }
        try BrowserLoop.run(session, input: STDIN_FILENO, output: STDOUT_FILENO)
    }
}
