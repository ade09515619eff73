import NotesKit

/// What an argument or an option's value holds, so that help and shell completions know what to
/// offer (a note ID, a folder, one of a fixed set of words…).
enum ArgumentKind: Equatable, Sendable {
    /// A note of the vault: ID, path, unique ID prefix or title.
    case noteID
    /// A note in the trash.
    case trashedNoteID
    /// A folder inside the vault.
    case folder
    /// A folder anywhere on disk.
    case directory
    /// A file anywhere on disk.
    case file
    /// A tag of the vault's notes.
    case tag
    /// A template of the vault's template folder.
    case template
    /// Free text.
    case text
    /// A settings key (`Settings.Key.allCases`).
    case settingsKey
    /// A value for the settings key given before it.
    case settingsValue
    /// One of a fixed set of words.
    case choice([String])
}

/// A type an argument's text converts to, with what it holds and the sentence for text that is
/// not one (swift-argument-parser's `ExpressibleByArgument`).
protocol ArgumentValue: Sendable {
    /// The value the text names, if it names one.
    init?(argument: String)
    /// What such a value is, for completions.
    static var kind: ArgumentKind { get }
    /// The error for text that is not a value.
    static func invalid(_ text: String) -> String
}

extension String: ArgumentValue {
    /// Any text is a string.
    init?(argument: String) { self = argument }
    /// Free text, unless the declaration says more.
    static var kind: ArgumentKind { .text }
    /// Never used: every text is a string.
    static func invalid(_ text: String) -> String { "'\(text)' is not valid." }
}

/// A value chosen from a `CaseIterable` enum's raw values: help lists them, completions offer
/// them, and a typo gets a suggestion.
protocol ArgumentChoice: ArgumentValue, CaseIterable, RawRepresentable where RawValue == String {
    /// What one value is called in an error (`sort order`).
    static var noun: String { get }
}

extension ArgumentChoice {
    /// The case with this raw value.
    init?(argument: String) { self.init(rawValue: argument) }

    /// The raw values of every case.
    static var kind: ArgumentKind { .choice(allCases.map(\.rawValue)) }

    /// `a, b or c`, for help and errors.
    static var choiceList: String {
        let names = allCases.map(\.rawValue)
        guard let last = names.last, names.count > 1 else { return names.joined() }
        return names.dropLast().joined(separator: ", ") + " or " + last
    }

    /// `'x' is not a sort order; use updated, created or title.`, with a suggestion for a typo.
    static func invalid(_ text: String) -> String {
        let suggestion = Suggestions.closest(to: text, among: allCases.map(\.rawValue))
        return "'\(text)' is not a \(noun); use \(choiceList)." + Suggestions.didYouMean(suggestion)
    }
}

/// When to colour output: `auto` colours a terminal without `NO_COLOR` or `TERM=dumb`.
enum ColorMode: String, ArgumentChoice {
    case auto, always, never

    static let noun = "colour mode"
}

extension SortOrder: ArgumentChoice {
    static var noun: String { "sort order" }

    /// `'x' is not a sort order; …`; `relevance` is told to be `search`'s alone.
    static func invalid(_ text: String) -> String {
        guard text == "relevance" else {
            let suggestion = Suggestions.closest(to: text, among: allCases.map(\.rawValue))
            return "'\(text)' is not a \(noun); use \(choiceList)." + Suggestions.didYouMean(suggestion)
        }
        return "'relevance' orders search results only (there is no query to rank by); use \(choiceList)."
    }
}

/// The orders of `search`: those of `list`, and `relevance` (the notes whose title holds every
/// term first, then the rest in the `sort` setting's order).
enum SearchOrder: Equatable, ArgumentValue {
    case listed(SortOrder)
    case relevance

    /// Every order's name, `relevance` last.
    static let names = SortOrder.allCases.map(\.rawValue) + ["relevance"]

    init?(argument: String) {
        if argument == "relevance" {
            self = .relevance
        } else if let order = SortOrder(rawValue: argument) {
            self = .listed(order)
        } else {
            return nil
        }
    }

    static var kind: ArgumentKind { .choice(names) }

    /// `updated, created, title or relevance`.
    static var choiceList: String { names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "") }

    static func invalid(_ text: String) -> String {
        let suggestion = Suggestions.closest(to: text, among: names)
        return "'\(text)' is not a sort order; use \(choiceList)." + Suggestions.didYouMean(suggestion)
    }
}

extension Settings.Key: ArgumentValue {
    /// The key with this name.
    init?(argument: String) { self.init(rawValue: argument) }

    /// Settings keys.
    static var kind: ArgumentKind { .settingsKey }

    /// `'x' is not a settings key.`, with a suggestion or the list of keys.
    static func invalid(_ text: String) -> String {
        let names = allCases.map(\.rawValue)
        let suggestion = Suggestions.closest(to: text, among: names)
        return "'\(text)' is not a settings key."
            + (suggestion.map { " Did you mean '\($0)'?" } ?? " Keys: " + names.joined(separator: ", ") + ".")
    }
}

/// A whole number above zero (`--limit`).
struct PositiveCount: ArgumentValue {
    var value: Int

    init?(argument: String) {
        guard let n = Int(argument), n > 0 else { return nil }
        value = n
    }

    static var kind: ArgumentKind { .text }

    static func invalid(_ text: String) -> String {
        "'\(text)' is not a valid limit; give a whole number above 0."
    }
}

// MARK: Options

/// One option as the parser and the help see it, whatever its value's type.
struct OptionSpec: Sendable {
    /// The long name without dashes (`sort` for `--sort`).
    var long: String
    /// The short letter (`y` for `-y`), if any.
    var short: Character?
    /// The value's name (`order` for `--sort <order>`); nil for a flag.
    var valueName: String?
    /// What the value holds; nil for a flag.
    var kind: ArgumentKind?
    /// One line of help.
    var help: String
    /// Whether the usage line shows it (`--help` and `--quiet` go without saying).
    var inUsage = true
    /// Whether it may be given more than once, each value kept (`--tag a --tag b`).
    var repeatable = false
    /// The error for a value the option cannot take; nil when it can.
    var check: @Sendable (String) -> String? = { _ in nil }

    /// How the option is written in help, e.g. `-y, --yes` or `--sort <order>`.
    var label: String {
        let names = (short.map { "-\($0), " } ?? "") + "--" + long
        return valueName.map { names + " <\($0)>" } ?? names
    }

    /// How the option is written in a usage line, e.g. `[--sort <order>]` or `[--tag <tag> ...]`.
    var usage: String {
        "[--" + long + (valueName.map { " <\($0)>" } ?? "") + (repeatable ? " ..." : "") + "]"
    }
}

/// An option that is on or off (`--json`).
struct Flag: Sendable {
    let spec: OptionSpec

    init(_ long: String, short: Character? = nil, help: String, inUsage: Bool = true) {
        spec = OptionSpec(long: long, short: short, help: help, inUsage: inUsage)
    }
}

/// An option that takes a value of type `Value` (`--sort <order>`).
struct Option<Value: ArgumentValue>: Sendable {
    let spec: OptionSpec

    /// `kind` overrides the value type's own (a `String` that names a folder); a `repeatable`
    /// option keeps every value it is given.
    init(
        _ long: String, short: Character? = nil, value: String, kind: ArgumentKind? = nil,
        repeatable: Bool = false,
        help: String
    ) {
        spec = OptionSpec(
            long: long, short: short, valueName: value, kind: kind ?? Value.kind, help: help,
            repeatable: repeatable,
            check: { Value(argument: $0) == nil ? Value.invalid($0) : nil })
    }
}

// MARK: Positional arguments

/// How many words a positional argument takes.
enum Arity: Sendable {
    case required, optional
    /// Every word left; `atLeastOne` makes an empty list a missing argument.
    case variadic(atLeastOne: Bool)
}

/// One positional argument as the parser and the help see it, whatever its value's type.
struct PositionalSpec: Sendable {
    /// The name in usage and help (`id` for `<id>`).
    var name: String
    var kind: ArgumentKind
    var arity: Arity
    /// One line of help.
    var help: String
    /// The error when it is missing, given the words bound before it.
    var missing: @Sendable ([String]) -> String
    /// The error for a word it cannot take; nil when it can.
    var check: @Sendable (String) -> String?

    /// `<id>`, `[<dir>]`, `<id> ...` or `[<text> ...]`.
    var usage: String {
        switch arity {
        case .required: return "<\(name)>"
        case .optional: return "[<\(name)>]"
        case .variadic(let atLeastOne): return atLeastOne ? "<\(name)> ..." : "[<\(name)> ...]"
        }
    }
}

/// A positional argument whose words convert to `Value`.
struct Positional<Value: ArgumentValue>: Sendable {
    let spec: PositionalSpec

    /// `missing` is the error when a required argument is absent; `kind` overrides the value
    /// type's own.
    init(
        _ name: String, kind: ArgumentKind? = nil, arity: Arity = .required, help: String,
        missing: String = ""
    ) {
        self.init(name, kind: kind, arity: arity, help: help, missing: { _ in missing })
    }

    /// `missing` builds the error from the words bound before this argument.
    init(
        _ name: String, kind: ArgumentKind? = nil, arity: Arity = .required, help: String,
        missing: @escaping @Sendable ([String]) -> String
    ) {
        spec = PositionalSpec(
            name: name, kind: kind ?? Value.kind, arity: arity, help: help, missing: missing,
            check: { Value(argument: $0) == nil ? Value.invalid($0) : nil })
    }
}
