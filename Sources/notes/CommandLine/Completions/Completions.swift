import NotesKit

/// The shells `notes completions` writes scripts for.
enum CompletionShell: String, ArgumentChoice {
    case bash, zsh, fish

    static let noun = "shell"
}

/// Shell completion scripts generated from the command declarations: the commands and
/// their aliases, every option, the values of options and arguments that have a fixed set (sort
/// orders, colour modes, settings keys and their values), folders and files, and note IDs —
/// which the script asks of `notes __complete`, a hidden command that reads the index as it is.
/// The model and what bash and zsh share are here; each shell's script is in a file of its own.
struct Completions {
    /// A command as completion sees it: the words that name it, its options and arguments.
    struct Command {
        var names: [String]
        var overview: String
        var options: [OptionSpec]
        /// The kinds of the positional arguments, in order; the last one repeats when `variadic`.
        var kinds: [ArgumentKind]
        var variadic: Bool
        var subcommands: [Command]
    }

    /// The visible commands, with `help`.
    let commands: [Command]
    /// The options every command takes.
    let globals = GlobalOptions.all

    init(_ types: [any CommandDescription.Type]) {
        func command(_ spec: CommandSpec) -> Command {
            let variadic =
                spec.arguments.last.map { if case .variadic = $0.arity { true } else { false } } ?? false
            return Command(
                names: [spec.name] + spec.aliases, overview: spec.overview, options: spec.options,
                kinds: spec.arguments.map(\.kind), variadic: variadic,
                subcommands: spec.subcommands.filter { !$0.spec.hidden }.map { command($0.spec) })
        }
        commands = types.filter { !$0.spec.hidden }.map { command($0.spec) }
    }

    /// The options every command takes that take a value.
    var globalValueOptions: [OptionSpec] { globals.filter { $0.valueName != nil } }

    /// The options of `command` (and of its subcommands) that take a value: its word and the
    /// following one are not arguments. Per command, since a short option is its command's own
    /// (`-n` is `list --limit`, which takes a value, and `move --dry-run`, which does not).
    static func valueOptions(of command: Command) -> [OptionSpec] {
        (command.options + command.subcommands.flatMap(\.options)).filter { $0.valueName != nil }
    }

    /// A shell function (the same in bash and zsh): whether word `$2` typed after command `$1`
    /// ("" before the command) is an option that takes a value.
    var takesValueFunction: String {
        var out = """
            _notes_takes_value() {
                case $2 in \(bashCase(globalValueOptions.flatMap(Self.words)))) return 0 ;; esac
                case $1 in

            """
        for command in commands where !Self.valueOptions(of: command).isEmpty {
            out +=
                "        \(bashCase(command.names))) case $2 in \(bashCase(Self.valueOptions(of: command).flatMap(Self.words)))) return 0 ;; esac ;;\n"
        }
        return out + """
                esac
                return 1
            }

            """
    }

    /// A `case` (bash and zsh) that completes the value of option `$opt` of command `$cmd` with
    /// `action`, and returns.
    func optionValueCase(_ action: (ArgumentKind) -> String) -> String {
        var out = "    case $cmd in\n"
        for command in commands where !Self.valueOptions(of: command).isEmpty {
            out += "        \(bashCase(command.names)))\n            case $opt in\n"
            for option in Self.valueOptions(of: command) {
                out +=
                    "                \(bashCase(Self.words(option)))) \(action(option.kind ?? .text)); return ;;\n"
            }
            out += "            esac ;;\n"
        }
        out += "    esac\n    case $opt in\n"
        for option in globalValueOptions {
            out += "        \(bashCase(Self.words(option)))) \(action(option.kind ?? .text)); return ;;\n"
        }
        return out + "    esac\n"
    }

    /// An option's words: `--sort` and `-s`.
    static func words(_ option: OptionSpec) -> [String] {
        ["--" + option.long] + (option.short.map { ["-" + String($0)] } ?? [])
    }

    /// The words a settings value can be, by key; keys with free values are left out.
    static var settingsValues: [(key: String, values: [String])] {
        Settings.Key.allCases.compactMap { key in key.validValues.map { (key.rawValue, $0) } }
    }

    /// The names of the commands users type (aliases included) and `help`.
    var commandWords: [String] { commands.flatMap(\.names) + ["help"] }

    func script(for shell: CompletionShell) -> String {
        switch shell {
        case .bash: bash()
        case .zsh: zsh()
        case .fish: fish()
        }
    }

    /// `a|b|c` for a `case` pattern (bash and zsh), each word quoted for the shell.
    func bashCase(_ words: [String]) -> String { words.map(Shell.quote).joined(separator: "|") }

    /// A kind as the scripts name it: `noteID`, `choice:a b c`…
    func kindWord(_ kind: ArgumentKind) -> String {
        switch kind {
        case .noteID: "noteID"
        case .trashedNoteID: "trashedNoteID"
        case .folder: "folder"
        case .directory: "directory"
        case .file: "file"
        case .tag: "tag"
        case .template: "template"
        case .text: "text"
        case .settingsKey: "settingsKey"
        case .settingsValue: "settingsValue"
        case .choice(let values): "choice:" + values.joined(separator: " ")
        }
    }
}
