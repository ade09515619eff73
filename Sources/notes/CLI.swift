import Foundation
import NotesKit

/// The `notes` command line: finds the subcommand, parses, runs, and prints every error as
/// `ErrorReport` renders it, with its exit code (0 success, 1 failure, 64 usage).
enum CLI {
    static let version = "0.1.0"

    /// The commands in help order.
    static let commands: [any CommandDescription.Type] = [
        InitCommand.self, AddCommand.self, ListCommand.self, SearchCommand.self, ShowCommand.self,
        EditCommand.self, MoveCommand.self, DeleteCommand.self, TrashCommand.self, RestoreCommand.self,
        TagsCommand.self,
        LinksCommand.self, BacklinksCommand.self, ConfigCommand.self, PathCommand.self, IndexCommand.self,
        BrowseCommand.self, ImportCommand.self, HistoryCommand.self, SyncCommand.self, ConflictsCommand.self,
        LSPCommand.self, TodayCommand.self, TemplatesCommand.self, CompletionsCommand.self,
        CompleteCommand.self, ManCommand.self, MergeCommand.self,
    ]

    /// Runs the command line and returns the exit code.
    static func main(_ argv: [String], environment: [String: String], cwd: String) -> Int32 {
        let invocation: Invocation
        do {
            invocation = try ArgumentParser.resolve(argv, commands: commands)
        } catch {
            return fail(error)
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
            return fail(error)
        }
        let output = Output(quiet: globals.quiet)
        let context = Context(globals: globals, environment: environment, cwd: cwd, output: output)
        if (invocation.command ?? defaultCommand).spec.pages, output.stdoutIsTTY, !globals.noPager,
            let pager = Pager.command(environment: environment)
        {
            output.usePager(
                pager, environment: environment, rows: Terminal.size(environment: environment).rows)
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
        } catch {
            commit()
            return fail(error, after: output)
        }
    }

    /// What `notes` alone runs: the browser when both stdin and stdout are a terminal,
    /// else `list`, so that a script or a pipe never gets a full-screen program.
    static var defaultCommand: any NotesCommand.Type {
        let terminal = Terminal.isTerminal(STDIN_FILENO) && Terminal.isTerminal(STDOUT_FILENO)
        return terminal ? BrowseCommand.self : ListCommand.self
    }

    /// Prints `error` on stderr as `ErrorReport` renders it, after what `output` has queued for
    /// stdout, and returns its exit code: 1, or 64 for a usage error.
    static func fail(_ error: any Error, after output: Output? = nil) -> Int32 {
        let report = ErrorReport(error)
        output?.flush()
        FileHandle.standardError.write(Data((Output.printableLines(report.lines) + "\n").utf8))
        return report.exitCode
    }
}
