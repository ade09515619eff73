import NotesKit

/// `notes sync`: commit, pull, push with git.
struct SyncCommand: NotesCommand {
    static let spec = CommandSpec(
        name: "sync", overview: "Commit the notes changed here, then pull and push with git.",
        discussion: """
            Commits the vault's changed notes (and only them) as gitAutoCommit would, then runs
            'git pull --rebase --autostash' and 'git push' when the branch has an upstream, and says
            which notes came in (added, changed, moved, deleted). Notes merge through a merge driver
            (.gitattributes, committed, with the local merge.notes.driver and info/attributes, all
            set up here) that keeps the later updatedAt, so only edits of the same lines conflict.
            A conflict stops the rebase with the notes named and the markers in them; remove the
            markers (notes edit, or any editor) and sync again to finish, or abort with
            'git rebase --abort'.
            """)

    init(_ arguments: ParsedArguments) throws(UsageError) {}

    func run(_ context: Context) throws {
        guard let store = try context.store(creatingDefaultVault: false) else {
            throw CommandError("there is no vault to sync; create one with 'notes init DIR'")
        }
        let output = context.output
        let report = try store.sync(
            mergeDriver: context.mergeDriver,
            templateFolder: JournalSettings(context.layeredSettings).templateFolder,
            committed: { plan in
                output.out(
                    "Committed " + (plan.message.split(separator: "\n").first.map(String.init) ?? "") + "\n")
                output.flush()
            })
        for warning in report.warnings { output.err("warning: " + warning) }
        let upstream = ANSI.printable(report.upstream)
        if report.incoming.isEmpty {
            switch report.commitsIn {
            case 0: output.out("Nothing new from \(upstream).\n")
            case 1: output.out("From \(upstream), 1 commit that changed no note.\n")
            default: output.out("From \(upstream), \(report.commitsIn) commits that changed no note.\n")
            }
        } else {
            let count = report.incoming.count == 1 ? "1 note" : "\(report.incoming.count) notes"
            output.out("From \(upstream), \(count):\n")
            for note in report.incoming {
                // A moved note: `moved    Plan (plan to work/plan)`, its old ID and its new one.
                let from = note.from.map { Note.id(forPath: $0) + " to " } ?? ""
                let ids = from + Note.id(forPath: note.path)
                output.out(
                    "  " + note.kind.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0) + " "
                        + ANSI.printable(note.title) + " (" + ANSI.printable(ids) + ")\n")
            }
        }
        if report.vaultFilesCommitted {
            output.out(
                "Committed the vault's own files (.gitattributes, .notes/): a clone is the same vault.\n")
        }
        if !report.templatesCommitted.isEmpty {
            let count = report.templatesCommitted.count
            output.out(
                "Committed \(count == 1 ? "1 file" : "\(count) files") of the template folder: a clone has the "
                    + "templates too.\n")
        }
        switch report.pushed {
        case 0: output.out("Nothing to push.\n")
        case 1: output.out("Pushed 1 commit to \(upstream).\n")
        default: output.out("Pushed \(report.pushed) commits to \(upstream).\n")
        }
        // What came in and went out is said first: only the user's uncommitted changes are left.
        if !report.autostashConflicts.isEmpty {
            throw GitError.autostashConflict(files: report.autostashConflicts)
        }
    }
}
