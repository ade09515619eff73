import Foundation
import NotesKit

/// The `notes` command line: finds the subcommand, parses, runs, and turns every error into
/// `Error: …` on stderr with the exit codes of SPEC §4 (0 success, 1 failure, 64 usage).
enum CLI {
    static let version = "0.1.0"

    static let commands: [any NotesCommand.Type] = [
        InitCommand.self, AddCommand.self, ListCommand.self, SearchCommand.self, ShowCommand.self,
        EditCommand.self, DeleteCommand.self, TrashCommand.self, RestoreCommand.self, ConfigCommand.self,
        PathCommand.self, IndexCommand.self,
    ]

    static let overview = CommandSpec(
        name: "notes", overview: "Keep notes as Markdown files in a folder, from the terminal.",
        usage: "[--vault <dir>] [--config <file>] [--color <when>] <subcommand>")

    static func find(_ name: String) -> (any NotesCommand.Type)? {
        commands.first { $0.spec.name == name || $0.spec.aliases.contains(name) }
    }

    /// Runs the command line and returns the exit code.
    static func main(_ argv: [String], environment: [String: String], cwd: String) -> Int32 {
        var tokens = argv
        let allOptions = commands.flatMap { $0.spec.options }
        var index: Int?
        do {
            index = try ArgumentParser.commandIndex(tokens, commandOptions: allOptions)
            // `notes help CMD` is `notes CMD --help` (and `notes help help` is `notes --help`).
            if let i = index, tokens[i] == "help" {
                tokens.remove(at: i)
                index = try ArgumentParser.commandIndex(tokens, commandOptions: allOptions)
                if let j = index, tokens[j] == "help" {
                    tokens.remove(at: j)
                    index = nil
                }
                tokens.append("--help")
            }
        } catch {
            return usageFailure(error)
        }
        var commandType: (any NotesCommand.Type)?
        if let i = index {
            guard let found = find(tokens[i]) else {
                let names = commands.flatMap { [$0.spec.name] + $0.spec.aliases } + ["help"]
                let suggestion = ArgumentParser.closest(to: tokens[i], among: names)
                return usageFailure(UsageError(
                    message: "Unknown command '\(tokens[i])'." + (suggestion.map { " Did you mean '\($0)'?" } ?? ""),
                    command: nil))
            }
            commandType = found
            tokens.remove(at: i)
        }
        let spec = commandType?.spec
        let parsed: ParsedArguments
        do {
            parsed = try ArgumentParser.parse(tokens, options: spec?.options ?? [], command: spec)
        } catch {
            return usageFailure(error)
        }
        if parsed.flag("help") {
            print(Help.text(for: spec), terminator: "")
            return 0
        }
        if parsed.flag("version") {
            print("notes \(version)")
            return 0
        }
        if let color = parsed.value("color"), !["auto", "always", "never"].contains(color) {
            return usageFailure(UsageError(
                message: "'\(color)' is not a colour mode; use auto, always or never.", command: spec))
        }
        if commandType == nil, let extra = parsed.positionals.first {
            return usageFailure(UsageError(message: "Unexpected argument '\(extra)'.", command: nil))
        }
        let context = Context(arguments: parsed, environment: environment, cwd: cwd)
        defer { context.flush() }
        do {
            let command = try (commandType ?? ListCommand.self).init(parsed)
            try command.run(context)
            return 0
        } catch let error as UsageError {
            context.flush()
            return usageFailure(error)
        } catch {
            let message: String
            switch error {
            case let failure as Failure: message = failure.message
            case let localized as LocalizedError: message = localized.errorDescription ?? "\(error)"
            default: message = "\(error)"
            }
            context.err("Error: " + message)
            return 1
        }
    }

    /// Prints a usage error: the message, the usage line and where to find help; exit 64.
    static func usageFailure(_ error: UsageError) -> Int32 {
        let name = error.command.map { "notes " + $0.name } ?? "notes"
        let usage = error.command.map { "notes " + $0.usage } ?? "notes " + overview.usage
        let text = "Error: \(error.message)\nUsage: \(usage)\n  See '\(name) --help' for more information.\n"
        FileHandle.standardError.write(Data(text.utf8))
        return 64
    }
}

/// Help text in swift-argument-parser's layout.
enum Help {
    static func text(for spec: CommandSpec?) -> String {
        guard let spec else { return topLevel() }
        var out = "OVERVIEW: \(spec.overview)\n\nUSAGE: notes \(spec.usage)\n"
        if !spec.aliases.isEmpty { out += "\nALIASES: " + spec.aliases.joined(separator: ", ") + "\n" }
        if !spec.arguments.isEmpty {
            out += "\nARGUMENTS:\n" + table(spec.arguments)
        }
        out += "\nOPTIONS:\n" + table((spec.options + globalOptions).map { ($0.label, $0.help) })
        if let discussion = spec.discussion { out += "\n" + discussion + "\n" }
        return out
    }

    static func topLevel() -> String {
        var out = "OVERVIEW: \(CLI.overview.overview)\n\nUSAGE: notes \(CLI.overview.usage)\n"
        out += "\nOPTIONS:\n" + table(globalOptions.map { ($0.label, $0.help) })
        out += "\nSUBCOMMANDS:\n"
        out += table(CLI.commands.map { type in
            let spec = type.spec
            return (spec.name + (spec.aliases.isEmpty ? "" : ", " + spec.aliases.joined(separator: ", ")), spec.overview)
        } + [("help", "Show help for a subcommand.")])
        out += "\n  Without a subcommand, notes lists the vault's notes.\n"
        out += "  See 'notes help <subcommand>' for detailed help.\n"
        return out
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
