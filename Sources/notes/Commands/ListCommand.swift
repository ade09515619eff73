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

    /// Sorts and cuts notes, then prints them in the chosen format. For a search, the shown hits'
    /// files are read for their snippets (the index holds folded text only) — on a terminal only
    /// for hits whose title holds no term.
    func print(_ notes: [Note], context: Context, vault: Vault, query: SearchQuery? = nil) {
        let order = sort ?? context.settings.order
        var sorted = order.sort(notes, reverse: reverse)
        if let limit, sorted.count > limit { sorted = Array(sorted.prefix(limit)) }
        var folder = TextFolder()
        let wantsSnippets = query.map { !$0.isEmpty } == true && (json || context.humanOutput)
        let snippets = sorted.map { note -> String? in
            guard wantsSnippets, let query else { return nil }
            // On a terminal, a note whose title shows a match gets no snippet line (SPEC §4).
            if !json && !query.highlights(in: ANSI.printable(note.title)).isEmpty { return nil }
            guard let loaded = try? vault.load(path: note.path) else { return nil }
            return query.snippet(in: loaded.note.searchableText, folder: &folder)
        }
        if json {
            let items = zip(sorted, snippets).map { note, snippet -> JSONText in
                var fields = JSONText.noteFields(note)
                if query != nil { fields.append(("snippet", .optional(snippet))) }
                return .object(fields)
            }
            context.out(JSONText.array(items).rendered)
            return
        }
        if sorted.isEmpty && context.humanOutput {
            context.err(query.map { $0.isEmpty ? "No notes yet." : "No notes match." } ?? "No notes yet; add one with 'notes add'.")
            return
        }
        let rows = zip(sorted, snippets).map { NoteRow(note: $0, date: order.date(of: $0), snippet: $1) }
        context.out(NoteRows(context: context).render(rows, query: query))
    }
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
            if options.json { context.out("[]\n") }
            return
        }
        options.print(context.loadNotes(vault).notes, context: context, vault: vault)
    }
}
