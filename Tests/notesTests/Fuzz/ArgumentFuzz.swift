import Foundation
import TestSupport

@testable import notes

// The argument parser under fuzzing (`ArgumentFuzzTests`, and `Tests/Fuzz/fuzz.sh`, which compiles
// this file too): command lines made of the real commands, options and values, valid ones and
// broken ones. Arguments come from execve as C strings, so a NUL cannot reach the parser from a
// shell; it can here, and must not matter either.

enum ArgumentFuzz {
    /// Every command and subcommand, with the words that name it.
    static let commands: [(words: [String], type: any NotesCommand.Type)] = CLI.commands.flatMap {
        type -> [([String], any NotesCommand.Type)] in
        let names = [type.spec.name] + type.spec.aliases
        if type.spec.subcommands.isEmpty, let leaf = type as? any NotesCommand.Type {
            return names.map { ([$0], leaf) }
        }
        return type.spec.subcommands.flatMap { sub in
            names.flatMap { name in ([sub.spec.name] + sub.spec.aliases).map { ([name, $0], sub) } }
        }
    }

    /// Words that are not commands, options or plain values: dashes, equals signs, controls,
    /// NUL, invalid-looking and long text, numbers that look like options.
    static let oddWords = [
        "", "-", "--", "---", "--=", "--=vault", "--=x", "-=", "=", "-1", "-5x", "--1", "help", "-\u{301}",
        "--\u{301}",
        "\0", "a\0b", "--vault\0x", "\n", "a\nb", "\u{1B}[31mred", "\u{85}", "\u{7F}", "\u{FFFD}", "crème",
        "データ",
        "\u{202E}evil", String(repeating: "x", count: 3000), String(repeating: "-", count: 50), "-\t",
        "--\u{A0}",
    ]

    /// A command line: often a valid one, with what it must parse to; else words drawn from
    /// everything a command line holds.
    static func line(seed: UInt64) -> (argv: [String], expected: Valid?) {
        var r = SplitMix(seed: seed)
        if r.chance(40) {
            let valid = valid(&r)
            return (valid.argv, valid)
        }
        var words: [String] = []
        let options = GlobalOptions.all + commands.flatMap { $0.type.spec.options }
        for _ in 0..<r.below(8) {
            switch r.below(7) {
            case 0: words += r.pick(commands).words
            case 1: words.append("--" + r.pick(options).long)
            case 2:
                words.append("--" + r.pick(options).long + "=" + r.pick(oddWords + ["title", "auto", "5"]))
            case 3:
                words.append("-" + String((0..<(1 + r.below(3))).compactMap { _ in r.pick(options).short }))
            case 4: words.append(r.pick(oddWords))
            case 5:
                words.append(
                    r.pick(["x", "note", "work/standup", "../../etc/passwd", "/tmp", "title", "sort", "blue"])
                )
            default:
                var word = r.pick(oddWords + ["list", "--sort", "-n"])
                if !word.isEmpty {
                    word.insert(
                        r.pick(["\0", "=", "-", "\u{301}", " "]),
                        at: word.index(word.startIndex, offsetBy: r.below(word.count)))
                }
                words.append(word)
            }
        }
        return (words, nil)
    }

    /// A command line the parser must accept, and what it must make of it.
    struct Valid {
        var argv: [String] = []
        var command: any NotesCommand.Type
        var flags: Set<String> = []
        var values: [String: String] = [:]
        var positionals: [String] = []
    }

    fileprivate static func valid(_ r: inout SplitMix) -> Valid {
        let (words, type) = r.pick(commands.filter { !$0.type.spec.hidden })
        var line = Valid(command: type)
        let options =
            type.spec.options + GlobalOptions.all.filter { $0.long != "help" && $0.long != "version" }
        var tail: [String] = []
        func value(for check: (String) -> String?, kind: ArgumentKind?) -> String? {
            var candidates = [
                "1", "5", "work", "plan", "note", "x y", "crème", "title", "sort", "editor", "true", "-",
            ]
            if case .choice(let choices)? = kind { candidates = choices }
            if kind == .settingsKey { candidates = ["sort", "scheme", "editor", "vault"] }
            for _ in 0..<4 {
                let candidate = r.pick(candidates)
                if check(candidate) == nil { return candidate }
            }
            return nil
        }
        for _ in 0..<r.below(4) {
            let option = r.pick(options)
            if option.valueName == nil {
                tail.append(
                    option.short != nil && r.chance(30)
                        ? "-" + String(option.short ?? "x") : "--" + option.long)
                line.flags.insert(option.long)
            } else if let v = value(for: option.check, kind: option.kind), v != "-" {
                switch (r.below(3), option.short) {
                case (0, _): tail += ["--" + option.long, v]
                case (1, let short?): tail += ["-" + String(short), v]
                default: tail.append("--" + option.long + "=" + v)
                }
                line.values[option.long] = v
            }
        }
        var positionals: [String] = []
        for argument in type.spec.arguments {
            let count: Int
            switch argument.arity {
            case .required: count = 1
            case .optional: count = r.below(2)
            case .variadic(let atLeastOne): count = (atLeastOne ? 1 : 0) + r.below(3)
            }
            for _ in 0..<count {
                guard let v = value(for: argument.check, kind: argument.kind) else { break }
                positionals.append(v)
            }
        }
        // Positionals among the options, or all after `--`.
        if r.chance(30) {
            line.argv = (r.chance(50) ? [] : ["--quiet"]) + words + tail + ["--"] + positionals
            if line.argv.first == "--quiet" { line.flags.insert("quiet") }
        } else {
            var mixed = tail
            for p in positionals where !p.hasPrefix("-") || p == "-" { mixed.insert(p, at: mixed.count) }
            line.argv = words + mixed
            positionals = positionals.filter { !$0.hasPrefix("-") || $0 == "-" }
        }
        line.positionals = positionals
        return line
    }

    /// A valid command line parses to what it says; any command line parses or is refused with a
    /// usage error that prints no control character, and what it parses to comes from its words:
    /// every option from a word naming it, every word after `--` a positional argument.
    static func check(_ argv: [String], expected: Valid? = nil) -> [String] {
        var problems: [String] = []
        let shown = argv.map(\.debugDescription).joined(separator: " ")
        let invocation: Invocation
        do {
            invocation = try ArgumentParser.resolve(argv, commands: CLI.commands)
        } catch {
            if expected != nil {
                problems.append("a valid command line is refused: \(shown): \(error.message)")
            }
            return problems + checkUsageError(error, shown)
        }
        let parsed = invocation.arguments
        // The first `--` that is no option's value (`--folder --` gives the folder `--`).
        var allOptions: [OptionSpec] = GlobalOptions.all
        for command in CLI.commands {
            allOptions += command.spec.options
            for sub in command.spec.subcommands { allOptions += sub.spec.options }
        }
        var valueWords: Set<String> = []
        for option in allOptions where option.valueName != nil {
            valueWords.insert("--" + option.long)
            if let short = option.short { valueWords.insert("-" + String(short)) }
        }
        var dashes = argv.count
        for k in argv.indices where argv[k] == "--" && (k == 0 || !valueWords.contains(argv[k - 1])) {
            dashes = k
            break
        }
        let before = argv[..<dashes]
        func named(_ option: OptionSpec, value: String?) -> Bool {
            if option.long == "help" && argv.contains("help") { return true }
            for (k, token) in zip(before.indices, before) {
                let next = k + 1 < argv.count ? argv[k + 1] : nil
                if token == "--" + option.long && (value == nil || next == value) { return true }
                if let value, token == "--" + option.long + "=" + value { return true }
                if let short = option.short, token.hasPrefix("-"), !token.hasPrefix("--"),
                    let at = token.dropFirst().firstIndex(of: short)
                {
                    let rest = String(token[token.index(after: at)...])
                    if value == nil || rest == value || (rest.isEmpty && next == value) { return true }
                }
            }
            return false
        }
        let options =
            GlobalOptions.all + (invocation.command?.spec.options ?? [])
            + (invocation.group?.subcommands.flatMap { $0.spec.options } ?? [])
        for flag in parsed.flags {
            guard let option = options.first(where: { $0.long == flag }) else {
                problems.append("the flag '\(flag)' is not an option of the command: \(shown)")
                continue
            }
            if !named(option, value: nil) {
                problems.append("the flag '--\(flag)' comes from no word of \(shown)")
            }
        }
        for (long, value) in parsed.values {
            guard let option = options.first(where: { $0.long == long }) else {
                problems.append("the option '\(long)' is not an option of the command: \(shown)")
                continue
            }
            if !named(option, value: value) {
                problems.append("'--\(long)' = \(value.debugDescription) comes from no word of \(shown)")
            }
        }
        if dashes < argv.count, !argv.contains("help"),
            !parsed.positionals.reversed().starts(with: argv[(dashes + 1)...].reversed())
        {
            problems.append(
                "the words after '--' are not the last positionals \(parsed.positionals): \(shown)")
        }
        if let expected {
            if invocation.command.map(ObjectIdentifier.init) != ObjectIdentifier(expected.command) {
                problems.append(
                    "\(shown) runs \(String(describing: invocation.command)), not \(expected.command)")
            }
            if parsed.flags != expected.flags || parsed.values != expected.values
                || parsed.positionals != expected.positionals
            {
                problems.append(
                    "\(shown) parses to \(parsed.flags) \(parsed.values) \(parsed.positionals), "
                        + "not \(expected.flags) \(expected.values) \(expected.positionals)")
            }
        }
        _ = Help.text(for: invocation.group ?? invocation.command?.spec, commands: CLI.commands)
        var arguments = parsed
        do {
            try arguments.bind(to: invocation.command?.spec)
            _ = try GlobalValues(arguments)
        } catch {
            if expected != nil {
                problems.append("a valid command line is refused when bound: \(shown): \(error.message)")
            }
            return problems + checkUsageError(error, shown)
        }
        do {
            // A command's own rules across its options and arguments (`--yes goes with --empty`,
            // `config set`'s key and value) may still refuse a line made of valid words.
            if let command = invocation.command { _ = try command.init(arguments) }
        } catch {
            problems += checkUsageError(error, shown)
        }
        return problems
    }

    static func checkUsageError(_ error: UsageError, _ shown: String) -> [String] {
        var problems: [String] = []
        if error.message.isEmpty { problems.append("an empty usage error for \(shown)") }
        let name = error.command.map { "notes " + $0.fullName } ?? "notes"
        let text = Output.printableLines(
            "Error: \(error.message)\nUsage: \(Help.usage(error.command))\n  See '\(name) --help' for more information.\n"
        )
        if text.unicodeScalars.contains(where: {
            $0 != "\n" && ($0.value < 0x20 || (0x7F..<0xA0).contains($0.value))
        }) {
            problems.append("a usage error prints a control character: \(text.debugDescription)")
        }
        return problems
    }
}
