import Foundation
import NotesKit

/// `notes init [DIR]`: makes a folder a vault.
struct InitCommand: NotesCommand {
    static let spec = CommandSpec(
        name: "init", overview: "Make a folder a vault (creates its .notes/ state folder).",
        arguments: [directoryArgument.spec],
        unexpected: { _ in "Give at most one folder." })

    static let directoryArgument = Positional<String>(
        "dir", kind: .directory, arity: .optional,
        help: "The folder (default: --vault, else the current directory). Created if missing.")

    let directory: String?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        directory = try arguments.optionalArgument(Self.directoryArgument)
    }

    func run(_ context: Context) throws {
        let given = directory ?? context.globals.vault ?? "."
        let absolute = context.locations.absolute(given)
        if let status = FileSystem.status(absolute), status.kind != .directory {
            throw Failure("'\(given)' exists and is not a folder; choose another path")
        }
        if try Vault.initialize(at: absolute) {
            context.output.out("Initialized an empty vault in \(absolute)\n")
        } else {
            context.output.out("\(absolute) is already a vault; nothing changed\n")
        }
    }
}
