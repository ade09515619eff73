import NotesKit

/// `notes show ID`: a note's body, its whole file, or JSON.
struct ShowCommand: NotesCommand {
    static let spec = CommandSpec(
        name: "show", aliases: ["cat"], overview: "Print a note.",
        arguments: [idArgument.spec],
        options: [rawFlag.spec, jsonFlag.spec],
        unexpected: { _ in "Give one note to show." }, pages: true)

    static let idArgument = Positional<String>(
        "id", kind: .noteID, help: "A note: ID, path, unique ID prefix or title.",
        missing: "Missing the note to show.")
    static let rawFlag = Flag("raw", help: "Print the whole file, front matter included.")
    static let jsonFlag = Flag("json", help: "Print a JSON object with the note's fields and body.")

    let id: String
    let raw: Bool
    let json: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        id = try arguments.argument(Self.idArgument)
        raw = arguments.flag(Self.rawFlag)
        json = arguments.flag(Self.jsonFlag)
        if raw && json { throw Self.usage("Use either --raw or --json, not both.") }
    }

    func run(_ context: Context) throws {
        guard let store = try context.store(creatingDefaultVault: false) else { throw VaultError.noMatch(id) }
        let loaded = try context.note(id, in: store)
        let note = loaded.note
        if raw {
            context.output.out(String(decoding: loaded.bytes, as: UTF8.self))
        } else if json {
            context.output.out(
                JSONText.object(JSONText.noteFields(note) + [("body", .string(loaded.body))]).rendered)
        } else {
            // With conflict markers in the front matter, the body alone would hide the conflict.
            let text = loaded.editableText
            context.output.out(text.utf8.last == 0x0A || text.isEmpty ? text : text + "\n")
        }
    }
}
