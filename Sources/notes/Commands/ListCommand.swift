import NotesKit

/// `--sort`, `--reverse`, `--limit`, `--json`, `--tag` and the filters: shared by `list` and `search`.
struct ListOptions {
    static let sortOption = Option<SortOrder>(
        "sort", short: "s", value: "order",
        help: "Order: \(SortOrder.choiceList) (default: the 'sort' setting).")
    /// `search`'s `--sort`, which also takes `relevance`.
    static let searchSortOption = Option<SearchOrder>(
        "sort", short: "s", value: "order",
        help: "Order: \(SearchOrder.choiceList) (default: the 'sort' setting).")
    static let reverseFlag = Flag("reverse", short: "r", help: "Reverse the order.")
    static let limitOption = Option<PositiveCount>(
        "limit", short: "n", value: "n", help: "Show at most n notes.")
    static let tagOption = Option<String>(
        "tag", short: "t", value: "tag", kind: .tag, repeatable: true,
        help: "Only notes with this tag, or one nested below it; repeat for all of several.")
    static let jsonFlag = Flag("json", help: "Print a JSON array.")
    static let gitFlag = Flag(
        "git", help: "Mark notes with changes git has not committed ('*', \"dirty\" in JSON).")
    static let marksFlag = Flag(
        "marks", help: "Piped, add a fourth column with the marks ('!', '=', '*'); implied by --git.")
    static let specs =
        [
            sortOption.spec, reverseFlag.spec, limitOption.spec, tagOption.spec,
        ] + FilterOptions.specs + [jsonFlag.spec, gitFlag.spec, marksFlag.spec]
    /// `search`'s options: `list`'s, with a `--sort` that also takes `relevance`.
    static let searchSpecs = [searchSortOption.spec] + specs.dropFirst()

    var sort: SortOrder?
    /// Whether the title matches come first (`--sort relevance`), then the rest in the `sort`
    /// setting's order.
    var ranked = false
    var reverse: Bool
    var limit: Int?
    var tags: [String]
    var filters: FilterOptions
    var json: Bool
    var git: Bool
    /// Whether piped rows get a fourth column with the marks.
    var marks: Bool

    /// The options of `list`, or with `search` those of `search`.
    init(_ arguments: ParsedArguments, search: Bool = false) throws(UsageError) {
        git = arguments.flag(Self.gitFlag)
        marks = git || arguments.flag(Self.marksFlag)
        if search {
            switch try arguments.value(Self.searchSortOption) {
            case .relevance: ranked = true
            case .listed(let order): sort = order
            case nil: break
            }
        } else {
            sort = try arguments.value(Self.sortOption)
        }
        limit = try arguments.value(Self.limitOption)?.value
        reverse = arguments.flag(Self.reverseFlag)
        tags = try arguments.values(Self.tagOption)
        filters = try FilterOptions(arguments)
        json = arguments.flag(Self.jsonFlag)
    }

    /// Runs the listing through the store's query API — filter, order, limit, conflict copies,
    /// git's marks, and snippets for the shown hits only — renders it, and writes the text; plain
    /// piped rows are rendered from the index by the store (`NoteStore.renderRows`), the same
    /// notes in the same order. `search` is nil for `list`.
    func show(_ store: NoteStore, context: Context, search: SearchQuery? = nil) throws {
        let style = context.style
        let order = sort ?? context.settings.order
        store.search = search
        _ = context.catalog(store)
        var query = NoteQuery(search: search ?? SearchQuery(""), order: order, reverse: reverse, limit: limit)
        query.filter = try filters.filter(tags: tags, store: store, context: context)
        query.ranked = ranked
        query.oneOff = true
        // Plain piped rows show each note's ID, date and title only: read straight from the index
        // (a search of thousands of hits makes no note of them), the same lines `NoteRows.piped`
        // makes of the listing.
        if !json && !style.human && !marks && !git {
            context.output.out(NoteRows.piped(store, query: query, order: order))
            return
        }
        let snippets: SnippetNeed =
            search.map(\.isEmpty) != false
            ? .none
            : json ? .all : style.human ? .unlessTitleMatches : .none
        let listed = try store.listing(query, git: git) { note in
            switch snippets {
            case .none: return false
            case .all: return true
            // On a terminal, a note whose title shows a match gets no snippet line (the rows
            // show it only when the match is out of the title's column).
            case .unlessTitleMatches:
                let title = NoteRows.bounded(note.title, to: style.width)
                let first = search?.highlights(in: title).first
                return first.map { title[..<$0.upperBound].count > style.width / 3 } ?? true
            }
        }
        let rows = listed.map { listed in
            NoteRow(
                note: listed.note, date: order.date(of: listed.note), snippet: listed.snippet,
                conflictCopies: listed.conflictCopies, dirty: listed.uncommitted)
        }
        let text = ListView.render(rows, query: search, json: json, marks: marks, style: style)
        context.output.out(text.stdout)
        if let notice = text.notice { context.output.err(notice) }
    }
}

/// Which listed notes get a snippet: none, every one (JSON), or those whose title shows no match
/// (human rows).
enum SnippetNeed {
    case none, all, unlessTitleMatches
}

/// `notes list`: every note, newest first.
struct ListCommand: NotesCommand {
    static let spec = CommandSpec(
        name: "list", aliases: ["ls"], overview: "List notes, newest first.",
        options: ListOptions.specs,
        unexpected: { "Unexpected argument '\($0)'. To search, use: " + Shell.notes("search", argument: $0) },
        discussion: """
            On a terminal each note is a row: title, date and ID. Piped, each line is
            ID<TAB>DATE<TAB>TITLE with the date in ISO 8601 UTC, and with --marks a fourth column
            with the marks. Marks before a title: '!' the note holds conflict markers, '=' it has
            conflict copies (see 'notes conflicts'), '*' git has changes to it not committed yet
            (with --git).

            \(FilterOptions.datesHelp)
            """, pages: true)

    let options: ListOptions

    init(_ arguments: ParsedArguments) throws(UsageError) {
        options = try ListOptions(arguments)
    }

    func run(_ context: Context) throws {
        guard let store = try context.store(creatingDefaultVault: false) else {
            if options.json { context.output.out("[]\n") }
            return
        }
        try options.show(store, context: context)
    }
}
