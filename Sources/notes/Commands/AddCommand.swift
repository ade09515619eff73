import NotesKit

/// `notes add`: a new note from arguments, stdin or the editor.
struct AddCommand: NotesCommand {
    static let titleOption = Option<String>(
        "title", short: "t", value: "title", help: "Start the note with the heading '# <title>'.")
    static let folderOption = Option<String>(
        "folder", short: "f", value: "folder", kind: .folder,
        help: "Put the note in this folder of the vault (created if missing).")
    static let textArgument = Positional<String>(
        "text", arity: .variadic(atLeastOne: false),
        help: "The note's text; '-' (or a pipe) reads stdin; none opens the editor.")

    static let spec = CommandSpec(
        name: "add", aliases: ["new"], overview: "Add a note and print its ID.",
        arguments: [textArgument.spec],
        options: [titleOption.spec, folderOption.spec],
        discussion: """
            Empty notes are never saved. The file is named after the title: 'Crème Brûlée' → creme-brulee.md.
            Run from a folder inside the vault, the note goes into that folder; --folder is relative to
            it there, and to the vault elsewhere.
            """)

    let text: [String]
    let title: String?
    let folder: String?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        text = try arguments.arguments(Self.textArgument)
        title = arguments.value(Self.titleOption)
        folder = arguments.value(Self.folderOption)
    }

    func run(_ context: Context) throws {
        // A blank --title adds nothing (and must not save a lone '#').
        let heading =
            title.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .flatMap { $0.isEmpty ? nil : "# " + $0 + "\n\n" } ?? ""
        // The vault first, so a wrong vault is reported before anything is typed.
        guard let store = try context.store(creatingDefaultVault: true) else { return }
        let folder = try store.vault.folderForNewNote(folder, cwd: context.cwd)
        func save(_ raw: String) throws {
            let id = try store.add(content: raw, now: context.now, folder: folder)
            context.output.out(id + "\n")
        }
        if text == ["-"] || (text.isEmpty && !context.output.stdinIsTTY) {
            try save(heading + (try context.output.readStandardInput()))
        } else if !text.isEmpty {
            try save(heading + text.joined(separator: " "))
        } else {
            try context.editor().edit(heading, name: "new-note").save(save)
        }
    }
}
