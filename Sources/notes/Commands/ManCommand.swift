/// `notes __man`: prints the manual page (for keeping `Sources/notes/notes.1` current).
struct ManCommand: NotesCommand {
    static let spec = CommandSpec(name: "__man", overview: "Print the manual page.", hidden: true)

    init(_ arguments: ParsedArguments) throws(UsageError) {}

    func run(_ context: Context) throws {
        context.output.out(ManPage.render(CLI.commands))
    }
}
