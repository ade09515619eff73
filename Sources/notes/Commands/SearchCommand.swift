import NotesKit

/// `notes search`: notes matching every term, case-, accent- and width-insensitively.
struct SearchCommand: NotesCommand {
    static let spec = CommandSpec(
        name: "search", aliases: ["find"], overview: "Find notes containing every term of a query.",
        arguments: [queryArgument.spec],
        options: ListOptions.specs,
        discussion: """
            Matching ignores case, accents and width: 'creme' finds 'Crème', 'strasse' finds
            'Straße'. A note matches when its title or body holds every term; a term #tag asks
            for the tag instead (or one nested below it), as --tag does.
            """, pages: true)

    static let queryArgument = Positional<String>(
        "query", arity: .variadic(atLeastOne: false),
        help: "Terms to find; \"a quoted phrase\" is one term. None lists every note.")

    let options: ListOptions
    let query: SearchQuery

    init(_ arguments: ParsedArguments) throws(UsageError) {
        options = try ListOptions(arguments)
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
