import Foundation

/// Usage lines and help text in swift-argument-parser's layout, generated from the declarations.
enum Help {
    /// The top level's overview.
    static let overview = "Keep notes as Markdown files in a folder, from the terminal."

    /// The usage line: `notes list [--sort <order>] … [<query> ...]`; nil for the top level.
    static func usage(_ spec: CommandSpec?) -> String {
        guard let spec else {
            return (["notes"] + GlobalOptions.all.filter(\.inUsage).map(\.usage) + ["<subcommand>"])
                .joined(separator: " ")
        }
        var parts = ["notes", spec.fullName]
        parts += spec.options.filter(\.inUsage).map(\.usage)
        parts += spec.arguments.map(\.usage)
        if !spec.subcommands.isEmpty { parts.append("<subcommand>") }
        return parts.joined(separator: " ")
    }

    /// The help of a command; nil for the top level.
    static func text(for spec: CommandSpec?, commands: [any CommandDescription.Type]) -> String {
        guard let spec else { return topLevel(commands) }
        var out = "OVERVIEW: \(spec.overview)\n\nUSAGE: \(usage(spec))\n"
        if !spec.aliases.isEmpty { out += "\nALIASES: " + spec.aliases.joined(separator: ", ") + "\n" }
        if !spec.arguments.isEmpty {
            out += "\nARGUMENTS:\n" + table(spec.arguments.map { ("<\($0.name)>", $0.help) })
        }
        out += "\nOPTIONS:\n" + table((spec.options + GlobalOptions.all).map { ($0.label, $0.help) })
        if !spec.subcommands.isEmpty {
            out += "\nSUBCOMMANDS:\n" + table(spec.subcommands.map { names($0.spec) })
            out += "\n  See 'notes help \(spec.fullName) <subcommand>' for detailed help.\n"
        }
        if let discussion = spec.discussion { out += "\n" + discussion + "\n" }
        return out
    }

    /// `notes --help`: the global options and every command.
    static func topLevel(_ commands: [any CommandDescription.Type]) -> String {
        var out = "OVERVIEW: \(overview)\n\nUSAGE: \(usage(nil))\n"
        out += "\nOPTIONS:\n" + table(GlobalOptions.all.map { ($0.label, $0.help) })
        out += "\nSUBCOMMANDS:\n"
        out += table(
            commands.filter { !$0.spec.hidden }.map { names($0.spec) } + [
                ("help", "Show help for a subcommand.")
            ])
        out += "\n  Without a subcommand, notes opens the browser on a terminal, else lists the notes.\n"
        out += "  See 'notes help <subcommand>' for detailed help.\n"
        return out
    }

    /// A subcommand's row: its names and overview.
    private static func names(_ spec: CommandSpec) -> (String, String) {
        (([spec.name] + spec.aliases).joined(separator: ", "), spec.overview)
    }

    /// Two-column rows: names indented two spaces, descriptions aligned.
    static func table(_ rows: [(String, String)]) -> String {
        let width = min(26, (rows.map { $0.0.count }.max() ?? 0) + 2)
        return rows.map { name, help in
            let padded = "  " + name
            if padded.count > width {
                return padded + "\n" + String(repeating: " ", count: width + 2) + help + "\n"
            }
            return padded.padding(toLength: width + 2, withPad: " ", startingAt: 0) + help + "\n"
        }.joined()
    }
}
