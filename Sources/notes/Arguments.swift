/// One option a command accepts.
struct OptionSpec: Sendable {
    /// The long name without dashes (`sort` for `--sort`).
    var long: String
    /// The short letter (`y` for `-y`), if any.
    var short: Character?
    /// The value's name (`order` for `--sort <order>`); nil for a flag.
    var valueName: String?
    /// One line of help.
    var help: String

    init(_ long: String, short: Character? = nil, value: String? = nil, help: String) {
        self.long = long
        self.short = short
        valueName = value
        self.help = help
    }

    /// How the option is written in help, e.g. `-y, --yes` or `--sort <order>`.
    var label: String {
        let names = (short.map { "-\($0), " } ?? "") + "--" + long
        return valueName.map { names + " <\($0)>" } ?? names
    }
}

/// What a command is: its names, help text and options, in swift-argument-parser's layout.
struct CommandSpec: Sendable {
    var name: String
    var aliases: [String] = []
    var overview: String
    /// The usage line after `notes `, e.g. `list [--sort <order>] [--reverse]`.
    var usage: String
    /// Positional arguments: (name as in usage, help).
    var arguments: [(String, String)] = []
    var options: [OptionSpec] = []
    /// Extra paragraphs shown after the options.
    var discussion: String?
}

/// The global options, accepted before or after any subcommand (SPEC §4).
let globalOptions: [OptionSpec] = [
    OptionSpec("vault", value: "dir", help: "The vault folder (default: NOTES_VAULT, an enclosing vault, ~/Notes)."),
    OptionSpec("config", value: "file", help: "The settings file (default: NOTES_CONFIG, $XDG_CONFIG_HOME/notes/settings.json)."),
    OptionSpec("color", value: "when", help: "Colour output: auto, always or never (default: auto)."),
    OptionSpec("quiet", short: "q", help: "Print no warnings about the vault's files or the settings."),
    OptionSpec("help", short: "h", help: "Show help information."),
    OptionSpec("version", help: "Show the version."),
]

/// The options and arguments of one command line, after parsing.
struct ParsedArguments: Sendable {
    var flags: Set<String> = []
    var values: [String: String] = [:]
    var positionals: [String] = []

    func flag(_ name: String) -> Bool { flags.contains(name) }
    func value(_ name: String) -> String? { values[name] }
}

/// A problem with the command line: exit 64 with a usage line.
struct UsageError: Error {
    var message: String
    /// The command whose usage to show; nil for the top level.
    var command: CommandSpec?
}

/// A hand-written parser with `--opt=value`, `--opt value`, bundled short flags and `--`.
enum ArgumentParser {
    /// Finds where the subcommand is: the first token that is not an option or an option's value.
    /// An option before the subcommand must be one that some command knows.
    static func commandIndex(_ tokens: [String], commandOptions: [OptionSpec]) throws(UsageError) -> Int? {
        let known = globalOptions + commandOptions
        var i = 0
        while i < tokens.count {
            let token = tokens[i]
            if token == "--" { return nil }
            if token.hasPrefix("--") {
                let name = String(token.dropFirst(2).prefix { $0 != "=" })
                guard let option = known.first(where: { $0.long == name }) else {
                    let suggestion = closest(to: "--" + name, among: known.map { "--" + $0.long })
                    throw UsageError(
                        message: "Unknown option '--\(name)'." + (suggestion.map { " Did you mean '\($0)'?" } ?? ""),
                        command: nil)
                }
                if option.valueName != nil && !token.contains("=") { i += 1 }
            } else if token.hasPrefix("-") && token.count > 1 {
                // Short flags: the last letter may take the next token as its value.
                for (offset, letter) in token.dropFirst().enumerated() {
                    guard let option = known.first(where: { $0.short == letter }) else {
                        throw UsageError(message: "Unknown option '-\(letter)'.", command: nil)
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

    /// Parses tokens against a command's options plus the global ones.
    static func parse(_ tokens: [String], options: [OptionSpec], command: CommandSpec?) throws(UsageError) -> ParsedArguments {
        let all = options + globalOptions
        var result = ParsedArguments()
        var i = 0
        var onlyPositionals = false
        func store(_ option: OptionSpec, inline: String?) throws(UsageError) {
            guard option.valueName != nil else {
                if inline != nil {
                    throw UsageError(message: "Option '--\(option.long)' does not take a value.", command: command)
                }
                result.flags.insert(option.long)
                return
            }
            if let inline {
                result.values[option.long] = inline
            } else if i + 1 < tokens.count {
                i += 1
                result.values[option.long] = tokens[i]
            } else {
                throw UsageError(message: "Missing value for '\(option.label)'.", command: command)
            }
        }
        while i < tokens.count {
            let token = tokens[i]
            if onlyPositionals || token == "-" || !token.hasPrefix("-") {
                result.positionals.append(token)
            } else if token == "--" {
                onlyPositionals = true
            } else if token.hasPrefix("--") {
                let body = token.dropFirst(2)
                let name = body.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
                let inline = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
                guard let option = all.first(where: { $0.long == name }) else {
                    let suggestion = closest(to: "--" + name, among: all.map { "--" + $0.long })
                    let hint = suggestion.map { " Did you mean '\($0)'?" }
                        ?? (command?.arguments.isEmpty == false ? " To pass text that starts with '-', put '--' before it." : "")
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
                            throw UsageError(message: "Unknown option '\(token)'. Put '--' before a negative number.", command: command)
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

    /// Words people try that mean one of our commands.
    static let synonyms = [
        "remove": "delete", "del": "delete", "create": "add", "view": "show", "open": "show",
        "grep": "search", "modify": "edit", "change": "edit", "undelete": "restore", "undo": "restore",
    ]

    /// The candidate closest to `word` when it is close enough to be a typo: one edit for short
    /// words, two for longer ones; else a candidate that `word` starts (`--rev` → `--reverse`).
    static func closest(to word: String, among candidates: [String]) -> String? {
        if let synonym = synonyms[word.lowercased()], candidates.contains(synonym) { return synonym }
        let bare = word.drop { $0 == "-" }
        guard bare.count >= 2 else { return nil }
        let allowed = bare.count <= 4 ? 1 : 2
        var best: (String, Int)?
        for candidate in candidates {
            let d = editDistance(word.lowercased(), candidate.lowercased())
            if d <= allowed, best.map({ d < $0.1 }) ?? true { best = (candidate, d) }
        }
        if best == nil {
            best = candidates.first { $0.hasPrefix(word) && bare.count >= 3 }.map { ($0, 0) }
        }
        return best?.0
    }

    /// Optimal string alignment distance: a swap of two neighbours counts as one edit (`lsit` → `list`).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
