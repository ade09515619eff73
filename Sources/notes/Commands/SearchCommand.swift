import NotesKit

/// `notes search`: notes matching every term, case-, accent- and width-insensitively.
struct SearchCommand: NotesCommand {
    static let spec = CommandSpec(
        name: "search", aliases: ["find"], overview: "Find notes containing every term of a query.",
        arguments: [queryArgument.spec],
        options: ListOptions.searchSpecs,
        discussion: """
            Matching ignores case, accents and width: 'creme' finds 'Crème', 'strasse' finds
            'Straße'. A note matches when its title or body holds every term; a term #tag asks
            for the tag instead (or one nested below it), as --tag does.

            A term -word (or -"a phrase") keeps only the notes without it. The word OR between
            two terms takes either, and binds tighter than the spaces between terms: 'apple pie
            OR tart' is apple and (pie or tart). A word with one dash is an option only when each
            of its letters is one of the short options above (-r, -n5), so 'creme -brulee' needs
            no quotes; after '--' every word is a term.

            With --sort relevance, the notes whose title holds every term come first (a title
            that starts with the query first of all), then the rest, each group in the order
            of the 'sort' setting.

            \(FilterOptions.datesHelp)
            """, pages: true, dashWordsAreArguments: true)

    static let queryArgument = Positional<String>(
        "query", arity: .variadic(atLeastOne: false),
        help: "Terms to find; \"a quoted phrase\" is one term, -term excludes one. None lists every note.")

    let options: ListOptions
    let query: SearchQuery

    init(_ arguments: ParsedArguments) throws(UsageError) {
        options = try ListOptions(arguments, search: true)
        query = SearchQuery(try arguments.arguments(Self.queryArgument).joined(separator: " "))
    }

    func run(_ context: Context) throws {
        guard let store = try context.store(creatingDefaultVault: false) else {
            if options.json { context.output.out("[]\n") }
            return
        }
        try options.show(store, context: context, search: query)
    }
}
