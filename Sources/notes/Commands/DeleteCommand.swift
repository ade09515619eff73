import NotesKit

/// `notes delete ID…`: moves notes to the trash, after a confirmation.
struct DeleteCommand: NotesCommand {
    static let spec = CommandSpec(
        name: "delete", aliases: ["rm"], overview: "Move notes to the trash.",
        arguments: [idsArgument.spec],
        options: [yesFlag.spec],
        discussion:
            "On a terminal each note is confirmed; without one, --yes is required. See 'notes restore'.")

    static let idsArgument = Positional<String>(
        "id", kind: .noteID, arity: .variadic(atLeastOne: true),
        help: "Notes: ID, path, unique ID prefix or title.",
        missing: "Missing the notes to delete.")
    static let yesFlag = Flag("yes", short: "y", help: "Do not ask for confirmation.")

    let ids: [String]
    let yes: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        ids = try arguments.arguments(Self.idsArgument)
        yes = arguments.flag(Self.yesFlag)
    }

    func run(_ context: Context) throws {
        guard let store = try context.store(creatingDefaultVault: false) else {
            throw VaultError.noMatch(ids.first ?? "")
        }
        // Resolve every argument first, so one typo deletes nothing.
        var targets: [Note] = []
        for id in ids {
            let note = try context.note(id, in: store).note
            if !targets.contains(where: { $0.path == note.path }) { targets.append(note) }
        }
        if !yes && !context.output.stdinIsTTY {
            throw CommandError("refusing to delete without confirmation; run it on a terminal or pass --yes")
        }
        for note in targets {
            if !yes && !context.output.confirm("Delete \"\(ANSI.printable(note.title))\"?") {
                context.output.err("Kept '\(note.id)'.")
                continue
            }
            try store.delete(note, now: context.now)
            context.output.err(
                "Moved '\(note.id)' to the trash; bring it back with: "
                    + Shell.notes("restore", argument: note.id))
        }
    }
}
