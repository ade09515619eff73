import Foundation
import NotesKit

/// The `notes` command line: finds the subcommand, parses, runs, and turns every error into
/// `Error: …` on stderr with the exit codes of SPEC §4 (0 success, 1 failure, 64 usage).
enum CLI {
    static let version = "0.1.0"

    /// The commands in help order.
    static let commands: [any CommandDescription.Type] = [
        InitCommand.self, AddCommand.self, ListCommand.self, SearchCommand.self, ShowCommand.self,
        EditCommand.self, MoveCommand.self, DeleteCommand.self, TrashCommand.self, RestoreCommand.self, TagsCommand.self,
        LinksCommand.self, BacklinksCommand.self, ConfigCommand.self, PathCommand.self, IndexCommand.self,
        BrowseCommand.self, HistoryCommand.self, SyncCommand.self, ConflictsCommand.self, CompletionsCommand.self,
        CompleteCommand.self, ManCommand.self,
    ]

    /// Runs the command line and returns the exit code.
    static func main(_ argv: [String], environment: [String: String], cwd: String) -> Int32 {
        let invocation: Invocation
        do {
            invocation = try ArgumentParser.resolve(argv, commands: commands)
        } catch {
            return usageFailure(error)
        }
        var arguments = invocation.arguments
        let spec = invocation.command?.spec
        if arguments.flag(GlobalOptions.help) {
            print(Help.text(for: invocation.group ?? spec, commands: commands), terminator: "")
            return 0
        }
        if arguments.flag(GlobalOptions.version) {
            print("notes \(version)")
            return 0
        }
        let globals: GlobalValues
        let command: any NotesCommand
        do {
            try arguments.bind(to: spec)
            globals = try GlobalValues(arguments)
            command = try (invocation.command ?? defaultCommand).init(arguments)
        } catch {
            return usageFailure(error)
        }
        let output = Output(quiet: globals.quiet)
        let context = Context(globals: globals, environment: environment, cwd: cwd, output: output)
        if (invocation.command ?? defaultCommand).spec.pages, output.stdoutIsTTY, !globals.noPager,
           let pager = Pager.command(environment: environment) {
            output.usePager(pager, environment: environment, rows: Terminal.size(environment: environment).rows)
        }
        defer { output.finish() }
        // What the command changed is committed (with gitAutoCommit) even when it failed halfway:
        // the notes it changed are changed.
        func commit() {
            for warning in context.commitChanges() { output.err("warning: " + warning) }
        }
        do {
            try command.run(context)
            commit()
            return 0
        } catch let error as UsageError {
            commit()
            output.flush()
            return usageFailure(error)
        } catch {
            commit()
            let message: String
            switch error {
            case let failure as CommandError: message = failure.message
            case let localized as LocalizedError: message = localized.errorDescription ?? "\(error)"
            default: message = "\(error)"
            }
            output.err("Error: " + message)
            return 1
        }
    }

    /// What `notes` alone runs (SPEC §4): the browser when both stdin and stdout are a terminal,
    /// else `list`, so that a script or a pipe never gets a full-screen program.
    static var defaultCommand: any NotesCommand.Type {
        let terminal = Terminal.isTerminal(STDIN_FILENO) && Terminal.isTerminal(STDOUT_FILENO)
        return terminal ? BrowseCommand.self : ListCommand.self
    }

    /// Prints a usage error: the message, the usage line and where to find help; exit 64.
    static func usageFailure(_ error: UsageError) -> Int32 {
        let name = error.command.map { "notes " + $0.fullName } ?? "notes"
        let text = "Error: \(error.message)\nUsage: \(Help.usage(error.command))\n  See '\(name) --help' for more information.\n"
        FileHandle.standardError.write(Data(Output.printableLines(text).utf8))
        return 64
    }
}
