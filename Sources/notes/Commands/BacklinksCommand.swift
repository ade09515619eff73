import NotesKit

/// `notes backlinks ID`: the notes that link to a note, with the line of each link.
struct BacklinksCommand: NotesCommand {
    static let spec = CommandSpec(
        name: "backlinks", overview: "List the notes that link to a note.",
        arguments: [idArgument.spec],
        options: [jsonFlag.spec],
        unexpected: { _ in "Give one note." })

    static let idArgument = Positional<String>(
        "id", kind: .noteID, help: "A note: ID, path, unique ID prefix or title.",
        missing: "Missing the note whose backlinks to list.")
    static let jsonFlag = Flag("json", help: "Print a JSON array.")

    let id: String
    let json: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        id = try arguments.argument(Self.idArgument)
        json = arguments.flag(Self.jsonFlag)
    }

    func run(_ context: Context) throws {
        guard let store = try context.store(creatingDefaultVault: false) else { throw VaultError.noMatch(id) }
        let note = try context.note(id, in: store).note
        let text = LinkSitesView.render(
            context.catalog(store).backlinks(to: note), json: json, style: context.style,
            none: "No notes link to '\(note.id)'.")
        context.output.out(text.stdout)
        if let notice = text.notice { context.output.err(notice) }
    }
}
