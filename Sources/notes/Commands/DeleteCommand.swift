import NotesKit

/// `notes delete ID…`: moves notes to the trash, after a confirmation.
struct DeleteCommand: NotesCommand {
    static let spec = CommandSpec(
        name: "delete", aliases: ["rm"], overview: "Move notes to the trash.",
        usage: "delete [--yes] <id> ...",
        arguments: [("<id>", "Notes: ID, path, unique ID prefix or title.")],
        options: [OptionSpec("yes", short: "y", help: "Do not ask for confirmation.")],
        discussion: "On a terminal each note is confirmed; without one, --yes is required. See 'notes restore'.")

    let ids: [String]
    let yes: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard !arguments.positionals.isEmpty else { throw Self.usage("Missing the notes to delete.") }
        ids = arguments.positionals
        yes = arguments.flag("yes")
    }

    func run(_ context: Context) throws {
        if !yes && !context.stdinIsTTY {
            throw Failure("refusing to delete without confirmation; run it on a terminal or pass --yes")
        }
        guard let vault = try context.vault(forWriting: false) else { throw VaultError.noMatch(ids[0]) }
        let notes = context.loadNotes(vault)
        // Resolve every argument first, so one typo deletes nothing.
        var targets: [Note] = []
        for id in ids {
            let note = try context.resolve(id, in: vault, notes: notes)
            if !targets.contains(where: { $0.path == note.path }) { targets.append(note) }
        }
        for note in targets {
            if !yes && !context.confirm("Delete \"\(ANSI.printable(note.title))\"?") {
                context.err("Kept '\(note.id)'.")
                continue
            }
            try vault.trash(path: note.path, now: context.now)
            context.err("Moved '\(note.id)' to the trash; 'notes restore \(note.id)' brings it back.")
        }
    }
}

/// `notes trash`: lists or empties the trash.
struct TrashCommand: NotesCommand {
    static let spec = CommandSpec(
        name: "trash", overview: "List the notes in the trash, or empty it.",
        usage: "trash [--json] [--empty [--yes]]",
        options: [
            OptionSpec("json", help: "Print a JSON array (with deletedAt)."),
            OptionSpec("empty", help: "Remove every trashed note for good."),
            OptionSpec("yes", short: "y", help: "With --empty: do not ask for confirmation."),
        ])

    let json: Bool
    let empty: Bool
    let yes: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        if let extra = arguments.positionals.first { throw Self.usage("Unexpected argument '\(extra)'.") }
        json = arguments.flag("json")
        empty = arguments.flag("empty")
        yes = arguments.flag("yes")
        if json && empty { throw Self.usage("Use either --json or --empty, not both.") }
    }

    func run(_ context: Context) throws {
        guard let vault = try context.vault(forWriting: false) else {
            if json { context.out("[]\n") }
            return
        }
        let (entries, diagnostics) = vault.trashEntries()
        for diagnostic in diagnostics { context.warn(diagnostic.description) }
        if empty {
            guard !entries.isEmpty else {
                context.err("The trash is already empty.")
                return
            }
            if !yes {
                guard context.stdinIsTTY else {
                    throw Failure("refusing to empty the trash without confirmation; run it on a terminal or pass --yes")
                }
                guard context.confirm("Remove the \(entries.count) notes in the trash for good?") else {
                    context.err("Kept the trash.")
                    return
                }
            }
            let count = try vault.emptyTrash()
            context.err("Removed \(count) notes for good.")
            return
        }
        if json {
            context.out(JSONText.array(entries.map { entry in
                .object(JSONText.noteFields(entry.note) + [("deletedAt", .string(NoteDate.format(entry.deletedAt)))])
            }).rendered)
            return
        }
        if entries.isEmpty && context.humanOutput {
            context.err("The trash is empty.")
            return
        }
        context.out(NoteRows(context: context).render(entries.map { NoteRow(note: $0.note, date: $0.deletedAt) }))
    }
}

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
        let (entries, diagnostics) = vault.trashEntries()
        for diagnostic in diagnostics { context.warn(diagnostic.description) }
        let entry = try vault.resolveTrashed(id, in: entries)
        let path = try vault.restore(entry)
        let restored = Note.id(forPath: path)
        if restored != entry.note.id {
            context.err("'\(entry.note.id)' is taken; restored as '\(restored)'.")
        }
        context.out(restored + "\n")
    }
}
