import NotesKit

/// `notes add`: a new note from arguments, stdin or the editor.
struct AddCommand: NotesCommand {
    static let spec = CommandSpec(
        name: "add", aliases: ["new"], overview: "Add a note and print its ID.",
        usage: "add [--title <title>] [<text> ...]",
        arguments: [("<text>", "The note's text; '-' (or a pipe) reads stdin; none opens the editor.")],
        options: [OptionSpec("title", short: "t", value: "title", help: "Start the note with the heading '# <title>'.")],
        discussion: "Empty notes are never saved. The file is named after the title: 'Crème Brûlée' → creme-brulee.md.")

    let text: [String]
    let title: String?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        text = arguments.positionals
        title = arguments.value("title")
    }

    func run(_ context: Context) throws {
        let heading = title.map { "# " + $0.trimmingCharacters(in: .whitespacesAndNewlines) + "\n\n" } ?? ""
        let raw: String
        if text == ["-"] || (text.isEmpty && !context.stdinIsTTY) {
            raw = heading + (try context.readStandardInput())
        } else if !text.isEmpty {
            raw = heading + text.joined(separator: " ")
        } else {
            raw = try Editor(context: context).edit(heading, name: "new-note")
        }
        let content = try Content.normalize(raw)
        guard let vault = try context.vault(forWriting: true) else { return }
        let id = try vault.add(content: content, now: context.now)
        context.out(id + "\n")
    }
}
