import NotesKit

/// `notes edit ID`: replaces a note's body from arguments, stdin or the editor, or adds a line.
struct EditCommand: NotesCommand {
    static let spec = CommandSpec(
        name: "edit", aliases: ["update"], overview: "Replace a note's text, or edit it in the editor.",
        arguments: [idArgument.spec, textArgument.spec],
        options: [appendFlag.spec],
        discussion: """
            Only the body and the updatedAt line change; every other front-matter line stays as written.
            With --append, the text (or stdin, with '-') becomes a new last line of the body.
            A note whose front matter holds conflict markers (from 'notes sync') is edited whole,
            markers included.
            If the file changes on disk while the editor is open (or while '-' reads stdin), your text is
            saved beside it as <id>.conflict-YYYYMMDD-HHMMSS.md and nothing is overwritten.
            """)

    static let idArgument = Positional<String>(
        "id", kind: .noteID, help: "A note: ID, path, unique ID prefix or title.",
        missing: "Missing the note to edit.")
    static let textArgument = Positional<String>(
        "text", arity: .variadic(atLeastOne: false),
        help: "The new text; '-' reads stdin; none opens the editor (even from a script).")
    static let appendFlag = Flag(
        "append", help: "Add the text as a new last line instead of replacing the body.")

    let id: String
    let text: [String]
    let append: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        id = try arguments.argument(Self.idArgument)
        text = try arguments.arguments(Self.textArgument)
        append = arguments.flag(Self.appendFlag)
        if append && text.isEmpty {
            throw Self.usage("'--append' needs the text to add, or '-' to read stdin.")
        }
    }

    func run(_ context: Context) throws {
        guard let store = try context.store(creatingDefaultVault: false) else { throw VaultError.noMatch(id) }
        let loaded = try context.note(id, in: store)
        let note = loaded.note
        func save(_ raw: String, expectUnchanged: Bool) throws {
            if try store.update(loaded, content: raw, now: context.now, expectUnchanged: expectUnchanged) {
                context.output.err("Saved '\(note.id)'.")
            } else {
                context.output.err("No changes to '\(note.id)'; nothing saved.")
            }
        }
        // Without TEXT the editor opens even when stdin is a pipe or a file: `edit`
        // never consumes a script's stdin (a `while read` loop's) unless it is given `-`.
        // Whichever way the text comes, a note that changed since it was loaded here (another
        // writer saved it while stdin was being read: `notes show n | … | notes edit n -`) is not
        // overwritten; the text goes to a conflict copy, as from the editor.
        if append {
            let line = text == ["-"] ? try context.output.readStandardInput() : text.joined(separator: " ")
            let body = Content.editable(loaded.editableText)
            // The body as it is (trimmed at its end only) with the line after it: an empty line
            // adds nothing, and the content rules apply to the whole as to any edit.
            var kept = Substring(body)
            while let last = kept.last, last.isWhitespace { kept.removeLast() }
            try save(
                kept + "\n" + line.trimmingCharacters(in: .whitespacesAndNewlines), expectUnchanged: true)
        } else if text == ["-"] {
            try save(try context.output.readStandardInput(), expectUnchanged: true)
        } else if !text.isEmpty {
            try save(text.joined(separator: " "), expectUnchanged: true)
        } else {
            let session = try context.editor().edit(Content.editable(loaded.editableText), name: note.id)
            try session.save { try save($0, expectUnchanged: true) }
        }
    }
}
