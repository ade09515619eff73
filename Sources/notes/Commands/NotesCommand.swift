import Foundation
import NotesKit

/// Anything `notes` names on its command line: a command, or a group of them (`config`).
protocol CommandDescription: Sendable {
    /// Its names, help, options and arguments.
    static var spec: CommandSpec { get }
}

/// A subcommand: a static description, validation of its arguments, then `run`.
protocol NotesCommand: CommandDescription {
    /// Reads the checked arguments; a problem is a usage error (exit 64).
    init(_ arguments: ParsedArguments) throws(UsageError)
    /// Does the work.
    func run(_ context: Context) throws
}

extension CommandDescription {
    /// A usage error shown with this command's usage line.
    static func usage(_ message: String) -> UsageError { UsageError(message: message, command: spec) }

    /// `body`'s result, a new name no note can have (`VaultError.badName`, from an argument the
    /// user typed) being a wrong command line: exit 64, with this command's usage line.
    static func naming<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as VaultError {
            if case .badName = error { throw usage(ErrorReport(error).sentence) }
            throw error
        }
    }
}
