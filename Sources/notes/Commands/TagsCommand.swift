import NotesKit

/// `notes tags`: every tag with the number of notes that have it.
struct TagsCommand: NotesCommand {
    static let spec = CommandSpec(
        name: "tags", overview: "List every tag with the number of notes that have it.",
        options: [jsonFlag.spec],
        discussion: """
            Most used first. Tags come from the front matter's 'tags' and from #tags in the text;
            #Café and #cafe are one tag. A nested tag (work/meetings) is counted on its own; list
            --tag work finds it with its parent.
            """)

    static let jsonFlag = Flag("json", help: "Print a JSON array of {tag, count}.")

    let json: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        json = arguments.flag(Self.jsonFlag)
    }

    func run(_ context: Context) throws {
        guard let store = try context.store(creatingDefaultVault: false) else {
            if json { context.output.out("[]\n") }
            return
        }
        let text = TagsView.render(context.catalog(store).tagCounts(), json: json, style: context.style)
        context.output.out(text.stdout)
        if let notice = text.notice { context.output.err(notice) }
    }
}
