import NotesKit

/// `notes conflicts`: the conflict copies that sync tools (and MyNotes' own editor) left in the
/// vault, each with the note it is a copy of.
struct ConflictsCommand: NotesCommand {
    static let jsonFlag = Flag("json", help: "Print a JSON array.")
    static let diffFlag = Flag("diff", help: "Show how each copy differs from its original (a unified diff).")

    static let spec = CommandSpec(
        name: "conflicts", overview: "List conflict copies of notes, each with its original.",
        options: [jsonFlag.spec, diffFlag.spec],
        discussion: """
            Copies are recognised by their names: Syncthing's name.sync-conflict-DATE-TIME-DEVICE.md,
            Dropbox's 'name (… conflicted copy …).md', Nextcloud's 'name (conflicted copy DATE TIME).md'
            and MyNotes' own id.conflict-DATE-TIME.md. Keep what you want in the original, then delete
            the copy ('notes delete ID').
            """, pages: true)

    let json: Bool
    let diff: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        json = arguments.flag(Self.jsonFlag)
        diff = arguments.flag(Self.diffFlag)
        if json && diff { throw Self.usage("Use either --json or --diff, not both.") }
    }

    func run(_ context: Context) throws {
        guard let store = try context.store(creatingDefaultVault: false) else {
            if json { context.output.out("[]\n") }
            return
        }
        _ = context.catalog(store)
        let pairs = store.conflictPairs()
        if json {
            context.output.out(
                JSONText.array(
                    pairs.map { pair in
                        let fields =
                            pair.copyNote.map(JSONText.noteFields)
                            ?? [
                                ("id", .string(Note.id(forPath: pair.copy.path))),
                                ("path", .string(pair.copy.path)),
                            ]
                        let original: JSONText =
                            pair.originalNote.map { .object(JSONText.noteFields($0)) } ?? .null
                        return .object(
                            fields + [("source", .string(pair.copy.source.rawValue)), ("original", original)])
                    }
                ).rendered)
            return
        }
        if pairs.isEmpty {
            if context.style.human { context.output.err("No conflict copies.") }
            return
        }
        if diff {
            for pair in pairs {
                guard pair.originalExists else {
                    context.output.err(
                        "'\(Note.id(forPath: pair.copy.path))' is a copy of "
                            + "'\(Note.id(forPath: pair.copy.original))', which is gone.")
                    continue
                }
                let text = store.diff(pair.copy.original, pair.copy.path)
                context.output.out(DiffView.render(text, style: context.style))
            }
            return
        }
        let ids = pairs.map { ANSI.printable(Note.id(forPath: $0.copy.path)) }
        let originals = pairs.map { pair in
            ANSI.printable(Note.id(forPath: pair.copy.original)) + (pair.originalExists ? "" : " (gone)")
        }
        guard context.style.human else {
            for (i, pair) in pairs.enumerated() {
                context.output.out(
                    ids[i] + "\t" + ANSI.printable(Note.id(forPath: pair.copy.original)) + "\t"
                        + pair.copy.source.rawValue + "\n")
            }
            return
        }
        let idWidth = ids.map(DisplayWidth.of).max() ?? 0
        let originalWidth = originals.map(DisplayWidth.of).max() ?? 0
        for (i, pair) in pairs.enumerated() {
            context.output.out(
                DisplayWidth.pad(ids[i], to: idWidth) + "  copy of  "
                    + DisplayWidth.pad(originals[i], to: originalWidth) + "  (" + pair.copy.source.name
                    + ")\n")
        }
    }
}
