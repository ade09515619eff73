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
}

/// The content rules of SPEC §4: trimmed of white space and newlines, stored with one final
/// newline; empty after trimming is never saved.
enum Content {
    static func normalize(_ text: String) throws(VaultError) -> String {
        // New text is stored with LF; a CRLF note gets CRLF back when it is rewritten.
        let trimmed = editable(text).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .emptyNote }
        return trimmed + "\n"
    }

    /// A note's body as the editor shows it: LF line endings.
    static func editable(_ body: String) -> String {
        body.replacingOccurrences(of: "\r\n", with: "\n")
    }
}
