import NotesKit

/// `notes restore ID`: puts a trashed note back.
struct RestoreCommand: NotesCommand {
    static let spec = CommandSpec(
        name: "restore", overview: "Put a trashed note back (under a free name if its old one is taken).",
        usage: "restore <id>",
        arguments: [("<id>", "The trashed note's ID, unique ID prefix or title (see 'notes trash').")])

    let id: String

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard let first = arguments.positionals.first else { throw Self.usage("Missing the note to restore.") }
        guard arguments.positionals.count == 1 else { throw Self.usage("Give one note to restore.") }
        id = first
    }

    func run(_ context: Context) throws {
        guard let vault = try context.vault(forWriting: false) else { throw VaultError.notInTrash(id) }
        let store = context.store(vault)
        for diagnostic in store.trashEntries().diagnostics { context.warn(diagnostic.description) }
        let entry = try store.trashed(id)
        let path = try store.restore(entry)
        let restored = Note.id(forPath: path)
        if restored != entry.note.id {
            context.err("'\(entry.note.id)' is taken; restored as '\(restored)'.")
        }
        context.out(restored + "\n")
    }
}
