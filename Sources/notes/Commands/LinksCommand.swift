import NotesKit

/// `notes links ID`: a note's links and where each goes; `notes links --broken`: every broken
/// link of the vault.
struct LinksCommand: NotesCommand {
    static let spec = CommandSpec(
        name: "links", overview: "List a note's links, or every broken link.",
        arguments: [idArgument.spec],
        options: [brokenFlag.spec, jsonFlag.spec],
        unexpected: { _ in "Give one note." },
        discussion: """
            Links are [[Target]], [[Target|text]], [[Target#Heading]] and Markdown links to notes,
            [text](path/to/note.md). A [[Target]] goes to the note with that ID, else the note with
            that file name (the nearest one), else the note with that title. Attachment links
            (![[photo.png]], ![](img/a.png), [pdf](docs/x.pdf)) go to the vault's other files. A
            link is broken when its note or file is missing, or the heading or ^block it names.
            """)

    static let idArgument = Positional<String>(
        "id", kind: .noteID, arity: .optional, help: "A note: ID, path, unique ID prefix or title.")
    static let brokenFlag = Flag(
        "broken", help: "Only broken links: of the note, or without one, of the vault.")
    static let jsonFlag = Flag("json", help: "Print a JSON array.")

    let id: String?
    let broken: Bool
    let json: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        id = try arguments.optionalArgument(Self.idArgument)
        broken = arguments.flag(Self.brokenFlag)
        json = arguments.flag(Self.jsonFlag)
        if id == nil && !broken { throw Self.usage("Missing the note whose links to list (or --broken).") }
    }

    func run(_ context: Context) throws {
        guard let store = try context.store(creatingDefaultVault: false) else {
            guard id == nil else { throw VaultError.noMatch(id ?? "") }
            if json { context.output.out("[]\n") }
            return
        }
        let text: ListView.Text
        if let id {
            let note = try context.note(id, in: store).note
            let links = context.catalog(store).links(of: note).filter { !broken || $0.isBroken }
            text = LinksView.render(links, json: json, style: context.style)
        } else {
            text = LinkSitesView.render(
                context.catalog(store).brokenLinks(), json: json, style: context.style,
                none: "No broken links.")
        }
        context.output.out(text.stdout)
        if let notice = text.notice { context.output.err(notice) }
    }
}
