import NotesKit

/// `notes move ID NEW`: renames or moves a note inside the vault and rewrites every link to it
///.
struct MoveCommand: NotesCommand {
    static let spec = CommandSpec(
        name: "move", aliases: ["mv", "rename"],
        overview: "Rename or move a note, and rewrite every link to it.",
        arguments: [idArgument.spec, newArgument.spec],
        options: [dryRunFlag.spec],
        unexpected: { _ in "Give one note and its new name." },
        discussion: """
            NEW is an ID from the top of the vault: 'archive/idea' moves the note to archive/idea.md
            (folders are made); ending in '/', or naming a folder, it keeps the file name. Links to
            the note in other notes are rewritten to reach it at its new place, in the style they
            were written in; only the link targets change, so 'git diff' shows just those.
            """)

    static let idArgument = Positional<String>(
        "id", kind: .noteID, help: "A note: ID, path, unique ID prefix or title.",
        missing: "Missing the note to move.")
    static let newArgument = Positional<String>(
        "new", kind: .folder, help: "Its new ID, or a folder ending in '/'.",
        missing: "Missing the note's new name.")
    static let dryRunFlag = Flag("dry-run", short: "n", help: "Only print what would change.")

    let id: String
    let new: String
    let dryRun: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        id = try arguments.argument(Self.idArgument)
        new = try arguments.argument(Self.newArgument)
        dryRun = arguments.flag(Self.dryRunFlag)
    }

    func run(_ context: Context) throws {
        guard let store = try context.store(creatingDefaultVault: false) else { throw VaultError.noMatch(id) }
        let loaded = try context.note(id, in: store)
        _ = context.catalog(store)
        let plan = try Self.naming { try store.planMove(loaded, to: new) }
        if dryRun {
            context.output.out(MoveView.plan(plan))
            return
        }
        let report = try store.move(plan)
        context.output.out(MoveView.report(report))
        var problems = report.failed.map { id, error in
            "could not rewrite the links in '\(id)': " + ErrorReport(error).sentence
        }
        if !report.changed.isEmpty {
            let names = report.changed.map { "'\($0)'" }.joined(separator: ", ")
            let their = report.changed.count == 1 ? "its" : "their"
            problems.append(
                "\(names) changed on disk during the move, so \(their) links were left as they were; "
                    + "find the ones that no longer work with 'notes links --broken'")
        }
        guard let last = problems.popLast() else { return }
        for problem in problems { context.output.err(ErrorReport(CommandError(problem)).lines) }
        throw CommandError(last)
    }
}
