/// A problem with the command line: exit 64 with a usage line.
struct UsageError: Error {
    var message: String
    /// The command whose usage to show; nil for the top level.
    var command: CommandSpec?
}

/// The options and arguments of one command line, after parsing; read through the declarations.
struct ParsedArguments: Sendable {
    fileprivate(set) var flags: Set<String> = []
    fileprivate(set) var values: [String: String] = [:]
    /// Every value of each option, in order (for repeatable options; `values` has the last).
    fileprivate(set) var allValues: [String: [String]] = [:]
    fileprivate(set) var positionals: [String] = []
    /// The words of each positional argument by name, once `bind(to:)` has checked them.
    private var bound: [String: [String]] = [:]
    /// The command they belong to, for usage errors.
    private var command: CommandSpec?

    /// Whether the flag was given.
    func flag(_ flag: Flag) -> Bool { flags.contains(flag.spec.long) }

    /// The option's text, if given (a string never fails to convert).
    func value(_ option: Option<String>) -> String? { values[option.spec.long] }

    /// The option's value, if given.
    func value<Value>(_ option: Option<Value>) throws(UsageError) -> Value? {
        try values[option.spec.long].map { word throws(UsageError) in try convert(word) }
    }

    /// Every value of a repeatable option, in order.
    func values<Value>(_ option: Option<Value>) throws(UsageError) -> [Value] {
        var out: [Value] = []
        for word in allValues[option.spec.long] ?? [] { out.append(try convert(word)) }
        return out
    }

    /// A required argument's value.
    func argument<Value>(_ argument: Positional<Value>) throws(UsageError) -> Value {
        guard let word = bound[argument.spec.name]?.first else {
            throw UsageError(message: argument.spec.missing([]), command: command)
        }
        return try convert(word)
    }

    /// An optional argument's value, if given.
    func optionalArgument<Value>(_ argument: Positional<Value>) throws(UsageError) -> Value? {
        try bound[argument.spec.name]?.first.map { word throws(UsageError) in try convert(word) }
    }

    /// A variadic argument's values.
    func arguments<Value>(_ argument: Positional<Value>) throws(UsageError) -> [Value] {
        var out: [Value] = []
        for word in bound[argument.spec.name] ?? [] { out.append(try convert(word)) }
        return out
    }

    private func convert<Value: ArgumentValue>(_ word: String) throws(UsageError) -> Value {
        guard let value = Value(argument: word) else {
            throw UsageError(message: Value.invalid(word), command: command)
        }
        return value
    }

    /// Checks every option value (the global ones first) and binds the positional words to the
    /// command's arguments in order: a missing required one, a word an argument cannot take and a
    /// word left over are usage errors, reported in that order of the command line.
    mutating func bind(to command: CommandSpec?) throws(UsageError) {
        self.command = command
        for option in GlobalOptions.all + (command?.options ?? []) {
            for word in allValues[option.long] ?? [] {
                if let problem = option.check(word) { throw UsageError(message: problem, command: command) }
            }
        }
        var rest = positionals[...]
        var earlier: [String] = []
        for argument in command?.arguments ?? [] {
            let words: [String]
            switch argument.arity {
            case .required:
                guard let first = rest.popFirst() else {
                    throw UsageError(message: argument.missing(earlier), command: command)
                }
                words = [first]
            case .optional:
                words = rest.popFirst().map { [$0] } ?? []
            case .variadic(let atLeastOne):
                if atLeastOne && rest.isEmpty {
                    throw UsageError(message: argument.missing(earlier), command: command)
                }
                words = Array(rest)
                rest = []
            }
            for word in words {
                if let problem = argument.check(word) { throw UsageError(message: problem, command: command) }
            }
            bound[argument.name] = words
            earlier += words
        }
        if let extra = rest.first {
            throw UsageError(
                message: command?.unexpected(extra) ?? "Unexpected argument '\(extra)'.", command: command)
        }
    }
}

/// What a command line asks for: the command to run (nil: none named), and its parsed words.
struct Invocation {
    var command: (any NotesCommand.Type)?
    /// The group named without a subcommand (`notes config`): its help is what `--help` shows.
    var group: CommandSpec?
    var arguments: ParsedArguments
}

/// A hand-written parser with `--opt=value`, `--opt value`, bundled short flags and `--`.
enum ArgumentParser {
    /// Finds the command and, for a group, its subcommand (the first when none is named), then
    /// parses the rest. `notes help CMD…` is `notes CMD… --help`.
    static func resolve(_ argv: [String], commands: [any CommandDescription.Type]) throws(UsageError)
        -> Invocation
    {
        var tokens = argv
        let known = commands.flatMap { type in
            type.spec.options + type.spec.subcommands.flatMap { $0.spec.options }
        }
        var index = try commandIndex(tokens, options: known, command: nil)
        // `notes help CMD` is `notes CMD --help` (and `notes help help` is `notes --help`).
        if let i = index, tokens[i] == "help" {
            tokens.remove(at: i)
            index = try commandIndex(tokens, options: known, command: nil)
            if let j = index, tokens[j] == "help" {
                tokens.remove(at: j)
                index = nil
            }
            tokens.append("--help")
        }
        guard let i = index else {
            return Invocation(command: nil, arguments: try parse(tokens, options: [], command: nil))
        }
        let word = tokens[i]
        guard let found = commands.first(where: { $0.spec.name == word || $0.spec.aliases.contains(word) })
        else {
            let names =
                commands.filter { !$0.spec.hidden }.flatMap { [$0.spec.name] + $0.spec.aliases } + ["help"]
            throw UsageError(
                message: "Unknown command '\(word)'."
                    + Suggestions.didYouMean(Suggestions.closest(to: word, among: names)),
                command: nil)
        }
        tokens.remove(at: i)
        let group = found.spec
        var command: any NotesCommand.Type
        var unnamed: CommandSpec?
        if let first = group.subcommands.first {
            let options = group.subcommands.flatMap { $0.spec.options }
            if let j = try commandIndex(tokens, options: options, command: group) {
                guard let sub = group.subcommand(named: tokens[j]) else {
                    let names = group.subcommands.map { $0.spec.name }
                    throw UsageError(
                        message: "Unknown action '\(tokens[j])'."
                            + Suggestions.didYouMean(Suggestions.closest(to: tokens[j], among: names)),
                        command: group)
                }
                tokens.remove(at: j)
                command = sub
            } else {
                command = first
                unnamed = group
            }
        } else if let leaf = found as? any NotesCommand.Type {
            command = leaf
        } else {
            throw UsageError(message: "'\(word)' needs a subcommand.", command: group)
        }
        let spec = command.spec
        let arguments = try parse(tokens, options: spec.options, command: spec)
        return Invocation(command: command, group: unnamed, arguments: arguments)
    }

    /// Finds where the (sub)command is: the first token that is not an option or an option's
    /// value. An option before it must be a global one or one of `options`.
    static func commandIndex(_ tokens: [String], options: [OptionSpec], command: CommandSpec?)
        throws(UsageError) -> Int?
    {
        let known = GlobalOptions.all + options
        var i = 0
        while i < tokens.count {
            let token = tokens[i]
            if token == "--" { return nil }
            if token.hasPrefix("--") {
                let name = String(token.dropFirst(2).prefix { $0 != "=" })
                guard let option = known.first(where: { $0.long == name }) else {
                    let suggestion = Suggestions.closest(to: "--" + name, among: known.map { "--" + $0.long })
                    throw UsageError(
                        message: "Unknown option '--\(name)'." + Suggestions.didYouMean(suggestion),
                        command: command)
                }
                if option.valueName != nil && !token.contains("=") { i += 1 }
            } else if token.hasPrefix("-") && token.count > 1 {
                // Short flags: the last letter may take the next token as its value.
                for (offset, letter) in token.dropFirst().enumerated() {
                    guard let option = known.first(where: { $0.short == letter }) else {
                        throw UsageError(message: "Unknown option '-\(letter)'.", command: command)
                    }
                    if option.valueName != nil {
                        if offset == token.count - 2 { i += 1 }
                        break
                    }
                }
            } else {
                return i
            }
            i += 1
        }
        return nil
    }

    /// Whether a one-dash word is a bundle of short flags: every letter in it is one of theirs
    /// (`-r`, `-rn5`; a digit may be a value).
    /// Whether `token`, which starts with `-`, can be no option at all: its second character is
    /// neither a letter, a digit nor `-` (`- buy milk`, `-> idea`), so it is text, as a Markdown
    /// list item given to `add` or `edit --append` is.
    static func isNeverAnOption(_ token: String) -> Bool {
        guard let second = token.dropFirst().first else { return false }
        return !second.isLetter && !second.isNumber && second != "-"
    }

    static func isBundle(_ token: String, of options: [OptionSpec]) -> Bool {
        let letters = token.dropFirst()
        return letters.first.map { first in options.contains { $0.short == first } } == true
            && letters.allSatisfy { letter in !letter.isLetter || options.contains { $0.short == letter } }
    }

    /// Parses tokens against a command's options plus the global ones.
    static func parse(_ tokens: [String], options: [OptionSpec], command: CommandSpec?) throws(UsageError)
        -> ParsedArguments
    {
        let all = options + GlobalOptions.all
        var result = ParsedArguments()
        var i = 0
        var onlyPositionals = false
        func store(_ option: OptionSpec, inline: String?) throws(UsageError) {
            guard option.valueName != nil else {
                if inline != nil {
                    throw UsageError(
                        message: "Option '--\(option.long)' does not take a value.", command: command)
                }
                result.flags.insert(option.long)
                return
            }
            if let inline {
                result.values[option.long] = inline
                result.allValues[option.long, default: []].append(inline)
            } else if i + 1 < tokens.count {
                i += 1
                result.values[option.long] = tokens[i]
                result.allValues[option.long, default: []].append(tokens[i])
            } else {
                throw UsageError(message: "Missing value for '\(option.label)'.", command: command)
            }
        }
        let dashWords = command?.dashWordsAreArguments == true
        while i < tokens.count {
            let token = tokens[i]
            if onlyPositionals || token == "-" || !token.hasPrefix("-") || isNeverAnOption(token)
                || (dashWords && !token.hasPrefix("--") && !isBundle(token, of: all))
            {
                result.positionals.append(token)
            } else if token == "--" {
                onlyPositionals = true
            } else if token.hasPrefix("--") {
                let body = token.dropFirst(2)
                // The name is what stands before the first `=` (nothing, in `--=x`).
                let name = String(body.prefix { $0 != "=" })
                let inline = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
                guard let option = all.first(where: { $0.long == name }) else {
                    let suggestion = Suggestions.closest(to: "--" + name, among: all.map { "--" + $0.long })
                    let hint =
                        suggestion.map { " Did you mean '\($0)'?" }
                        ?? (command?.arguments.isEmpty == false
                            ? " To pass text that starts with '-', put '--' before it." : "")
                    throw UsageError(message: "Unknown option '--\(name)'." + hint, command: command)
                }
                try store(option, inline: inline)
            } else {
                // Bundled short flags: -ry; a short option with a value takes the rest or the next token.
                var letters = Substring(token.dropFirst())
                while let letter = letters.first {
                    letters = letters.dropFirst()
                    guard let option = all.first(where: { $0.short == letter }) else {
                        if letter.isNumber, Int(token.dropFirst()) != nil {
                            throw UsageError(
                                message: "Unknown option '\(token)'. Put '--' before a negative number.",
                                command: command)
                        }
                        throw UsageError(message: "Unknown option '-\(letter)'.", command: command)
                    }
                    if option.valueName != nil {
                        try store(option, inline: letters.isEmpty ? nil : String(letters))
                        break
                    }
                    try store(option, inline: nil)
                }
            }
            i += 1
        }
        return result
    }
}
