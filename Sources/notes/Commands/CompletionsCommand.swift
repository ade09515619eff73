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
            It completes commands, options, their values and note IDs (from the index). Install:
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

/// `notes __complete ids|trashed|folders [PREFIX]`: what a completion script offers for a note
/// argument, one per line. Fast before fresh: IDs come from the index as it is, without the
/// check against the files that other commands make (a note added since the last command shows
/// up at the next one); only a vault with no index yet is read.
struct CompleteCommand: NotesCommand {
    enum What: String, ArgumentChoice {
        case ids, trashed, folders
        static let noun = "completion kind"
    }

    static let whatArgument = Positional<What>(
        "what", help: "ids, trashed or folders.", missing: "Missing what to complete.")
    static let prefixArgument = Positional<String>("prefix", arity: .optional, help: "What has been typed.")

    static let spec = CommandSpec(
        name: "__complete", overview: "Words for shell completion.",
        arguments: [whatArgument.spec, prefixArgument.spec],
        hidden: true)

    let what: What
    let prefix: String

    init(_ arguments: ParsedArguments) throws(UsageError) {
        what = try arguments.argument(Self.whatArgument)
        prefix = try arguments.optionalArgument(Self.prefixArgument) ?? ""
    }

    func run(_ context: Context) throws {
        // A completion prints nothing rather than an error: the shell would show it in the line.
        guard let store = try? context.store(creatingDefaultVault: false) else { return }
        var words: [String]
        switch what {
        case .ids:
            // The common case, as bytes straight from the index — unless a file name holds a
            // control character, which must not reach the terminal as it is: then as every other
            // list, made printable below.
            if let lines = store.indexedIDLines(prefix: prefix), ANSI.isPrintable(lines, lineFeeds: true) {
                FileHandle.standardOutput.write(Data(lines))
                return
            }
            words = store.catalog.notes.map(\.id).filter { $0.hasPrefix(prefix) }.sorted()
        case .trashed:
            var seen = Set<String>()
            words = store.trashEntries().entries.map(\.note.id).filter {
                $0.hasPrefix(prefix) && seen.insert($0).inserted
            }
        case .folders:
            let ids = store.indexedIDs(prefix: prefix) ?? store.catalog.notes.map(\.id)
            var folders = Set<String>()
            for id in ids {
                var parts = id.split(separator: "/").dropLast()
                while !parts.isEmpty {
                    folders.insert(parts.joined(separator: "/") + "/")
                    parts = parts.dropLast()
                }
            }
            words = folders.filter { $0.hasPrefix(prefix) }.sorted()
        }
        context.output.out(words.map { ANSI.printable($0) + "\n" }.joined())
    }
}
