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
        guard let vault = try context.vault(forWriting: false) else { throw VaultError.noMatch(ids[0]) }
        // Resolve every argument first, so one typo deletes nothing.
        var targets: [Note] = []
        for id in ids {
            let note = try context.note(id, in: vault).note
            if !targets.contains(where: { $0.path == note.path }) { targets.append(note) }
        }
        if !yes && !context.stdinIsTTY {
            throw Failure("refusing to delete without confirmation; run it on a terminal or pass --yes")
        }
        for note in targets {
            if !yes && !context.confirm("Delete \"\(ANSI.printable(note.title))\"?") {
                context.err("Kept '\(note.id)'.")
                continue
            }
            try context.store(vault).delete(note, now: context.now)
            context.err("Moved '\(note.id)' to the trash; bring it back with: " + Shell.notes("restore", argument: note.id))
        }
    }
}
