import NotesKit

/// `notes show ID`: a note's body, its whole file, or JSON.
struct ShowCommand: NotesCommand {
    static let spec = CommandSpec(
        name: "show", aliases: ["cat"], overview: "Print a note.",
        usage: "show [--raw | --json] <id>",
        arguments: [("<id>", "A note: ID, path, unique ID prefix or title.")],
        options: [
            OptionSpec("raw", help: "Print the whole file, front matter included."),
            OptionSpec("json", help: "Print a JSON object with the note's fields and body."),
        ])

    let id: String
    let raw: Bool
    let json: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard let first = arguments.positionals.first else { throw Self.usage("Missing the note to show.") }
        guard arguments.positionals.count == 1 else { throw Self.usage("Give one note to show.") }
        id = first
        raw = arguments.flag("raw")
        json = arguments.flag("json")
        if raw && json { throw Self.usage("Use either --raw or --json, not both.") }
    }

    func run(_ context: Context) throws {
        guard let vault = try context.vault(forWriting: false) else { throw VaultError.noMatch(id) }
        let loaded = try context.note(id, in: vault)
        let note = loaded.note
        if raw {
            context.out(String(decoding: loaded.bytes, as: UTF8.self))
        } else if json {
            context.out(JSONText.object(JSONText.noteFields(note) + [("body", .string(loaded.body))]).rendered)
        } else {
            context.out(loaded.body.utf8.last == 0x0A || loaded.body.isEmpty ? loaded.body : loaded.body + "\n")
        }
    }
}
