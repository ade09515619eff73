import NotesKit

/// `notes templates`: the names of the templates `add --template` takes.
struct TemplatesCommand: NotesCommand {
    static let spec = CommandSpec(
        name: "templates", overview: "List the templates of the template folder.",
        discussion: """
            Templates are Markdown files in the templateFolder setting's folder (.templates/ in the vault
            by default; in an Obsidian vault, the folder of .obsidian/templates.json). 'notes add
            --template NAME' starts a note from NAME.md, and a 'daily' template makes the daily notes of
            'notes today'. Placeholders: {{title}}, {{date}}, {{time}}, {{date:FORMAT}}, {{time:FORMAT}}
            (date tokens such as YYYY-MM-DD, dddd, Do, GGGG-[W]WW), {{content}}, and in daily notes
            {{yesterday}} and {{tomorrow}} (the IDs of those days' notes).
            """)

    init(_ arguments: ParsedArguments) throws(UsageError) {}

    func run(_ context: Context) throws {
        guard let store = try context.store(creatingDefaultVault: false) else { return }
        let folder = JournalSettings(context.layeredSettings).templateFolder
        let names = try store.templateNames(in: folder)
        guard !names.isEmpty else {
            context.output.err(
                "No templates in '\(store.vault.fullPath(Vault.normalized(folder)))/' yet; put Markdown files there "
                    + "(a daily.md makes the daily notes).")
            return
        }
        context.output.out(names.map { ANSI.printable($0) + "\n" }.joined())
    }
}
