import NotesKit

/// `notes history ID`: the note's commits, following renames.
struct HistoryCommand: NotesCommand {
    static let idArgument = Positional<String>(
        "id", kind: .noteID,
        help: "A note: ID, path, unique ID prefix or title (or the ID of a deleted one).",
        missing: "Missing the note whose history to show.")
    static let patchFlag = Flag("patch", short: "p", help: "Show each commit's changes to the note.")
    static let jsonFlag = Flag("json", help: "Print a JSON array.")

    static let spec = CommandSpec(
        name: "history", aliases: ["log"], overview: "Show a note's git history.",
        arguments: [idArgument.spec], options: [patchFlag.spec, jsonFlag.spec],
        unexpected: { _ in "Give one note." },
        discussion: "Newest first, following the note through renames (git log --follow).", pages: true)

    let id: String
    let patch: Bool
    let json: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        id = try arguments.argument(Self.idArgument)
        patch = arguments.flag(Self.patchFlag)
        json = arguments.flag(Self.jsonFlag)
    }

    func run(_ context: Context) throws {
        guard let store = try context.store(creatingDefaultVault: false) else { throw VaultError.noMatch(id) }
        let history = try store.history(of: id, cwd: context.cwd, patch: patch)
        context.reportDiagnostics(of: store)
        let (path, commits) = (history.path, history.commits)
        let style = context.style
        if json {
            context.output.out(
                JSONText.array(
                    commits.map { commit in
                        var fields: [(String, JSONText)] = [
                            ("commit", .string(commit.hash)), ("date", .string(NoteDate.format(commit.date))),
                            ("author", .string(commit.author)), ("subject", .string(commit.subject)),
                        ]
                        if let patch = commit.patch { fields.append(("patch", .string(patch))) }
                        return .object(fields)
                    }
                ).rendered)
            return
        }
        if commits.isEmpty {
            context.output.err("'\(Note.id(forPath: path))' has no commits yet.")
            return
        }
        for commit in commits {
            let short = String(commit.hash.prefix(7))
            if style.human {
                let date = style.dates.full(commit.date)
                let line =
                    (style.color ? ANSI.yellow + short + ANSI.reset : short) + "  " + date + "  "
                    + ANSI.printable(commit.subject) + "  (" + ANSI.printable(commit.author) + ")"
                context.output.out(line + "\n")
            } else {
                context.output.out(
                    commit.hash + "\t" + NoteDate.format(commit.date) + "\t" + ANSI.printable(commit.author)
                        + "\t" + ANSI.printable(commit.subject) + "\n")
            }
            if let patch = commit.patch, !patch.isEmpty {
                context.output.out("\n" + DiffView.render(patch, style: style) + "\n")
            }
        }
    }
}
