import NotesKit

/// `notes conflicts`: the conflict copies that sync tools (and MyNotes' own editor) left in the
/// vault, each with the note it is a copy of (SPEC §11).
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
        guard let store = try context.store(forWriting: false) else {
            if json { context.output.out("[]\n") }
            return
        }
        let copies = context.catalog(store).conflictCopies
        let vault = store.vault
        func note(_ path: String) -> Note? { try? vault.load(path: path).note }
        if json {
            context.output.out(JSONText.array(copies.map { copy in
                let fields = note(copy.path).map(JSONText.noteFields) ?? [("id", .string(Note.id(forPath: copy.path))), ("path", .string(copy.path))]
                let original: JSONText = note(copy.original).map { .object(JSONText.noteFields($0)) } ?? .null
                return .object(fields + [("source", .string(copy.source.rawValue)), ("original", original)])
            }).rendered)
            return
        }
        if copies.isEmpty {
            if context.style.human { context.output.err("No conflict copies.") }
            return
        }
        if diff {
            for copy in copies {
                guard FileSystem.status(vault.fullPath(copy.original)) != nil else {
                    context.output.err("'\(Note.id(forPath: copy.path))' is a copy of '\(Note.id(forPath: copy.original))', which is gone.")
                    continue
                }
                let text = UnifiedDiff.files(copy.original, copy.path, in: vault.root, environment: context.environment)
                context.output.out(DiffView.render(text, style: context.style))
            }
            return
        }
        let ids = copies.map { ANSI.printable(Note.id(forPath: $0.path)) }
        let originals = copies.map { copy in
            ANSI.printable(Note.id(forPath: copy.original)) + (FileSystem.status(vault.fullPath(copy.original)) == nil ? " (gone)" : "")
        }
        guard context.style.human else {
            for (i, copy) in copies.enumerated() {
                context.output.out(ids[i] + "\t" + ANSI.printable(Note.id(forPath: copy.original)) + "\t" + copy.source.rawValue + "\n")
            }
            return
        }
        let idWidth = ids.map(DisplayWidth.of).max() ?? 0
        let originalWidth = originals.map(DisplayWidth.of).max() ?? 0
        for (i, copy) in copies.enumerated() {
            context.output.out(DisplayWidth.pad(ids[i], to: idWidth) + "  copy of  "
                + DisplayWidth.pad(originals[i], to: originalWidth) + "  (" + copy.source.name + ")\n")
        }
    }
}
