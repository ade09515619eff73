import NotesKit

/// `notes restore ID`: puts a trashed note back.
struct RestoreCommand: NotesCommand {
    static let spec = CommandSpec(
        name: "restore", overview: "Put a trashed note back (under a free name if its old one is taken).",
        arguments: [idArgument.spec],
        unexpected: { _ in "Give one note to restore." })

    static let idArgument = Positional<String>(
        "id", kind: .trashedNoteID,
        help: "The trashed note's ID, unique ID prefix or title (see 'notes trash').",
        missing: "Missing the note to restore.")

    let id: String

    init(_ arguments: ParsedArguments) throws(UsageError) {
        id = try arguments.argument(Self.idArgument)
    }

    func run(_ context: Context) throws {
        guard let store = try context.store(creatingDefaultVault: false) else {
            throw VaultError.notInTrash(id)
        }
        let (entries, diagnostics) = store.trashEntries()
        for diagnostic in diagnostics { context.output.warn(diagnostic.description) }
        let entry = try store.trashed(id, in: entries)
        let path = try store.restore(entry)
        let restored = Note.id(forPath: path)
        if restored != entry.note.id {
            context.output.err("'\(entry.note.id)' is taken; restored as '\(restored)'.")
        }
        context.output.out(restored + "\n")
    }
}
