import NotesKit

/// What a command is: its names, help text, options and arguments, in swift-argument-parser's
/// layout. Usage lines and help are generated from it.
struct CommandSpec: Sendable {
    var name: String
    var aliases: [String] = []
    /// The command this one is nested in (`config` for `config set`).
    var parent: String?
    var overview: String
    var arguments: [PositionalSpec] = []
    var options: [OptionSpec] = []
    /// Nested commands (`config get`, `config set`…); the first runs when none is named.
    var subcommands: [any NotesCommand.Type] = []
    /// The error for a word left over after the arguments.
    var unexpected: @Sendable (String) -> String = { "Unexpected argument '\($0)'." }
    /// Extra paragraphs shown after the options.
    var discussion: String?
    /// A command for the tool's own use (`__complete`): left out of help, completions and the man page.
    var hidden = false
    /// Whether its output on a terminal goes through the pager when longer than the screen.
    var pages = false
    /// Whether a word with one dash that is not a bundle of its short flags (every letter one of
    /// them: `-r`, `-rn5`) is an argument rather than an unknown option: `search`'s `-term`,
    /// typed as in a web search box. An unknown `--word` is still a usage error.
    var dashWordsAreArguments = false

    /// The words after `notes` that run it (`config set`).
    var fullName: String { parent.map { $0 + " " + name } ?? name }

    /// The spec of one of its subcommands by name or alias.
    func subcommand(named word: String) -> (any NotesCommand.Type)? {
        subcommands.first { $0.spec.name == word || $0.spec.aliases.contains(word) }
    }
}
