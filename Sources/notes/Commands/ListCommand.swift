import NotesKit

/// `--sort`, `--reverse`, `--limit`, `--json`: shared by `list` and `search`.
struct ListOptions {
    static let sortOption = Option<SortOrder>(
        "sort", short: "s", value: "order", help: "Order: \(SortOrder.choiceList) (default: the 'sort' setting).")
    static let reverseFlag = Flag("reverse", short: "r", help: "Reverse the order.")
    static let limitOption = Option<PositiveCount>("limit", short: "n", value: "n", help: "Show at most n notes.")
    static let jsonFlag = Flag("json", help: "Print a JSON array.")
    static let specs = [sortOption.spec, reverseFlag.spec, limitOption.spec, jsonFlag.spec]

    var sort: SortOrder?
    var reverse: Bool
    var limit: Int?
    var json: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        sort = try arguments.value(Self.sortOption)
        limit = try arguments.value(Self.limitOption)?.value
        reverse = arguments.flag(Self.reverseFlag)
        json = arguments.flag(Self.jsonFlag)
    }

    /// Sorts and cuts notes, reads snippets for the shown hits, renders them, and writes the text.
    func print(_ notes: [Note], context: Context, vault: Vault, query: SearchQuery? = nil) {
        let style = context.style
        let snippets: SnippetNeed = query.map(\.isEmpty) != false ? .none
            : json ? .all : style.human ? .unlessTitleMatches : .none
        let rows = rows(notes, order: sort ?? context.settings.order, vault: vault, query: query, snippets: snippets)
        let text = ListView.render(rows, query: query, json: json, style: style)
        context.output.out(text.stdout)
        if let notice = text.notice { context.output.err(notice) }
    }

    /// The data part: notes in order, cut to the limit, each with the date the order uses and,
    /// where `snippets` asks, the first matching line of its file (the index holds folded text only).
    func rows(_ notes: [Note], order: SortOrder, vault: Vault, query: SearchQuery?, snippets: SnippetNeed) -> [NoteRow] {
        var sorted = order.sort(notes, reverse: reverse)
        if let limit, sorted.count > limit { sorted = Array(sorted.prefix(limit)) }
        var folder = TextFolder()
        return sorted.map { note in
            var row = NoteRow(note: note, date: order.date(of: note))
            guard let query, snippets != .none else { return row }
            // On a terminal, a note whose title shows a match gets no snippet line (SPEC §4).
            if snippets == .unlessTitleMatches && !query.highlights(in: ANSI.printable(note.title)).isEmpty { return row }
            guard let loaded = try? vault.load(path: note.path) else { return row }
            row.snippet = query.snippet(in: loaded.note.searchableText, folder: &folder)
            return row
        }
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
        ID<TAB>DATE<TAB>TITLE with the date in ISO 8601 UTC.
        """)

    let options: ListOptions

    init(_ arguments: ParsedArguments) throws(UsageError) {
        options = try ListOptions(arguments)
    }

    func run(_ context: Context) throws {
        guard let vault = try context.vault(forWriting: false) else {
            if options.json { context.output.out("[]\n") }
            return
        }
        options.print(context.loadNotes(vault).notes, context: context, vault: vault)
    }
}
