import Foundation
import NotesKit

/// `notes add`: a new note from arguments, stdin or the editor.
struct AddCommand: NotesCommand {
    static let titleOption = Option<String>(
        "title", short: "t", value: "title", help: "Start the note with the heading '# <title>'.")
    static let folderOption = Option<String>(
        "folder", short: "f", value: "folder", kind: .folder,
        help: "Put the note in this folder of the vault (created if missing).")
    static let templateOption = Option<String>(
        "template", short: "T", value: "name", kind: .template,
        help: "Start from this template of the template folder (see 'notes templates').")
    static let textArgument = Positional<String>(
        "text", arity: .variadic(atLeastOne: false),
        help: "The note's text; '-' (or a pipe) reads stdin; none opens the editor.")

    static let spec = CommandSpec(
        name: "add", aliases: ["new"], overview: "Add a note and print its ID.",
        arguments: [textArgument.spec],
        options: [titleOption.spec, folderOption.spec, templateOption.spec],
        discussion: """
            Empty notes are never saved. The file is named after the title: 'Crème Brûlée' → creme-brulee.md.
            Run from a folder inside the vault, the note goes into that folder; --folder is relative to
            it there, and to the vault elsewhere.
            With --template, the template's placeholders are filled: {{title}} with --title, {{content}}
            with the text (without one, the text goes after the template), {{date}}, {{time}} and
            {{date:FORMAT}} with now. Left untouched in the editor, the template saves nothing.
            """)

    let text: [String]
    let title: String?
    let folder: String?
    let template: String?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        text = try arguments.arguments(Self.textArgument)
        title = arguments.value(Self.titleOption)
        folder = arguments.value(Self.folderOption)
        template = arguments.value(Self.templateOption)
    }

    func run(_ context: Context) throws {
        // A blank --title adds nothing (and must not save a lone '#').
        let heading =
            title.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .flatMap { $0.isEmpty ? nil : "# " + $0 + "\n\n" } ?? ""
        // The vault first, so a wrong vault is reported before anything is typed.
        guard let store = try context.store(creatingDefaultVault: true) else { return }
        let folder = try Self.naming { try store.vault.folderForNewNote(self.folder, cwd: context.cwd) }
        if let template {
            return try add(from: template, store: store, folder: folder, context: context)
        }
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

    /// Adds a note made from the template `name`, filled with the title, the text and now.
    private func add(from name: String, store: NoteStore, folder: String, context: Context) throws {
        let template = try store.template(
            named: name, in: JournalSettings(context.layeredSettings).templateFolder)
        let time = LocalDateTime(seconds: context.now)
        func filled(_ content: String?) throws -> FilledTemplate {
            try template.filled(with: TemplateValues(title: title ?? "", time: time, content: content))
        }
        func save(_ filled: FilledTemplate, body: String) throws {
            // The template's front matter alone is no note.
            guard !body.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw VaultError.emptyNote
            }
            let text = filled.noteText(body: body, created: context.now)
            context.output.out(try store.add(content: text, now: context.now, folder: folder) + "\n")
        }
        if text == ["-"] || (text.isEmpty && !context.output.stdinIsTTY) {
            let note = try filled(try context.output.readStandardInput())
            try save(note, body: note.body)
        } else if !text.isEmpty {
            let note = try filled(text.joined(separator: " "))
            try save(note, body: note.body)
        } else {
            let note = try filled(nil)
            try context.editor().edit(note.body, name: "new-note").save { edited in
                // Untouched, the template holds nothing the user wrote: nothing is saved.
                let trimmed = Content.editable(edited).trimmingCharacters(in: .whitespacesAndNewlines)
                guard trimmed != note.body.trimmingCharacters(in: .whitespacesAndNewlines) else {
                    throw VaultError.emptyNote
                }
                try save(note, body: edited)
            }
        }
    }
}
