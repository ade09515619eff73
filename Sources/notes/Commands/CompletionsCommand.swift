import Foundation
import NotesKit

/// `notes completions bash|zsh|fish`: prints a shell completion script.
struct CompletionsCommand: NotesCommand {
    static let shellArgument = Positional<CompletionShell>(
        "shell", help: "The shell: \(CompletionShell.choiceList).",
        missing: "Missing the shell (bash, zsh or fish).")

    static let spec = CommandSpec(
        name: "completions", overview: "Print a shell completion script (bash, zsh or fish).",
        arguments: [shellArgument.spec],
        unexpected: { _ in "Give one shell." },
        discussion: """
            It completes commands, options, their values (tags for --tag) and note IDs, from the
            index: matched ignoring case and accents, typed and inserted escaped or quoted. Install:
              bash  notes completions bash > ~/.local/share/bash-completion/completions/notes
              zsh   notes completions zsh > ~/.zfunc/_notes  (with fpath+=(~/.zfunc) before compinit)
              fish  notes completions fish > ~/.config/fish/completions/notes.fish
            """)

    let shell: CompletionShell

    init(_ arguments: ParsedArguments) throws(UsageError) {
        shell = try arguments.argument(Self.shellArgument)
    }

    func run(_ context: Context) throws {
        context.output.out(Completions(CLI.commands).script(for: shell))
    }
}

/// `notes __complete ids|trashed|folders|tags [--shell SHELL] [WORD]`: what a completion script
/// offers for a note argument or a tag, one per line, those whose folded form starts with WORD's.
/// With `--shell`, WORD is as the shell has it (escaped or quoted as typed) and each line is what
/// that shell's script hands on (see `CompletionWord`). Fast before fresh: IDs and tags come from
/// the index as it is, without the check against the files that other commands make (a note added
/// since the last command shows up at the next one); only a vault with no index yet is read.
struct CompleteCommand: NotesCommand {
    enum What: String, ArgumentChoice {
        case ids, trashed, folders, tags, templates
        static let noun = "completion kind"
    }

    static let whatArgument = Positional<What>(
        "what", help: "ids, trashed, folders, tags or templates.", missing: "Missing what to complete.")
    static let prefixArgument = Positional<String>("prefix", arity: .optional, help: "What has been typed.")
    static let shellOption = Option<CompletionShell>(
        "shell", value: "shell", help: "The shell the word comes from and the lines go to.")

    static let spec = CommandSpec(
        name: "__complete", overview: "Words for shell completion.",
        arguments: [whatArgument.spec, prefixArgument.spec],
        options: [shellOption.spec],
        hidden: true)

    let what: What
    let word: CompletionWord
    let shell: CompletionShell?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        what = try arguments.argument(Self.whatArgument)
        shell = try arguments.value(Self.shellOption)
        let typed = try arguments.optionalArgument(Self.prefixArgument) ?? ""
        word = shell == nil ? CompletionWord(text: typed) : CompletionWord(typed: typed, fish: shell == .fish)
    }

    func run(_ context: Context) throws {
        // A completion prints nothing rather than an error: the shell would show it in the line.
        guard let store = try? context.store(creatingDefaultVault: false) else { return }
        var words: [String]
        switch what {
        case .ids:
            var matcher = CompletionWord.Matcher(word.text)
            if let lines = store.indexedIDLines(where: { matcher.matches($0) }) {
                words = lines.split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }
            } else {
                words = word.matches(store.catalog.notes.map(\.id).sorted())
            }
        case .trashed:
            var seen = Set<String>()
            words = store.trashEntries().entries.map(\.note.id).filter { seen.insert($0).inserted }
        case .folders:
            // A folder that matches is the start of an ID that does.
            var matcher = CompletionWord.Matcher(word.text)
            let ids =
                store.indexedIDLines(where: { matcher.matches($0) }).map { lines in
                    lines.split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }
                } ?? store.catalog.notes.map(\.id)
            var folders = Set<String>()
            for id in ids {
                var parts = id.split(separator: "/").dropLast()
                while !parts.isEmpty {
                    folders.insert(parts.joined(separator: "/") + "/")
                    parts = parts.dropLast()
                }
            }
            words = folders.sorted()
        case .tags:
            words = (store.indexedCatalog() ?? store.catalog).tagCounts().map(\.tag).sorted()
        case .templates:
            words =
                (try? store.templateNames(in: JournalSettings(context.layeredSettings).templateFolder)) ?? []
        }
        // A file name with a control character must not reach the terminal as it is.
        if what != .ids { words = word.matches(words) }
        words = words.map(ANSI.printable)
        if shell == .bash { words = word.bashReplies(words) }
        context.output.out(words.map { $0 + "\n" }.joined())
    }
}
