import NotesKit

/// `notes trash`: lists or empties the trash.
struct TrashCommand: NotesCommand {
    static let spec = CommandSpec(
        name: "trash", overview: "List the notes in the trash, or empty it.",
        options: [jsonFlag.spec, emptyFlag.spec, yesFlag.spec], pages: true)

    static let jsonFlag = Flag("json", help: "Print a JSON array (with deletedAt).")
    static let emptyFlag = Flag("empty", help: "Remove every trashed note for good.")
    static let yesFlag = Flag("yes", short: "y", help: "With --empty: do not ask for confirmation.")

    let json: Bool
    let empty: Bool
    let yes: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        json = arguments.flag(Self.jsonFlag)
        empty = arguments.flag(Self.emptyFlag)
        yes = arguments.flag(Self.yesFlag)
        if json && empty { throw Self.usage("Use either --json or --empty, not both.") }
        if yes && !empty { throw Self.usage("--yes goes with --empty.") }
    }

    func run(_ context: Context) throws {
        guard let store = try context.store(creatingDefaultVault: false) else {
            if json { context.output.out("[]\n") }
            return
        }
        let (entries, diagnostics) = store.trashEntries()
        for diagnostic in diagnostics { context.output.warn(diagnostic.description) }
        if empty {
            guard !entries.isEmpty else {
                context.output.err("The trash is already empty.")
                return
            }
            if !yes {
                guard context.output.stdinIsTTY else {
                    throw CommandError(
                        "refusing to empty the trash without confirmation; run it on a terminal or pass --yes"
                    )
                }
                let count = entries.count == 1 ? "the note" : "the \(entries.count) notes"
                guard context.output.confirm("Remove \(count) in the trash for good?") else {
                    context.output.err("Kept the trash.")
                    return
                }
            }
            let count = try store.emptyTrash()
            context.output.err(count == 1 ? "Removed 1 note for good." : "Removed \(count) notes for good.")
            return
        }
        if json {
            context.output.out(
                JSONText.array(
                    entries.map { entry in
                        .object(
                            JSONText.noteFields(entry.note) + [
                                ("deletedAt", .string(NoteDate.format(entry.deletedAt)))
                            ])
                    }
                ).rendered)
            return
        }
        if entries.isEmpty && context.style.human {
            context.output.err("The trash is empty.")
            return
        }
        context.output.out(
            NoteRows.render(entries.map { NoteRow(note: $0.note, date: $0.deletedAt) }, style: context.style))
    }
}
