import Foundation

/// Everything that can go wrong in the library; each message says what happened and what to do.
public enum VaultError: LocalizedError, Equatable, Sendable {
    /// A file operation failed.
    case io(path: String, reason: String)
    /// No note matches the given ID, path, prefix or title.
    case noMatch(String)
    /// More than one note matches; the candidates' IDs are listed.
    case ambiguous(String, candidates: [String])
    /// The argument names a file outside the vault, or a symlink.
    case outsideVault(String)
    /// The content is empty after trimming.
    case emptyNote
    /// The vault folder named by `--vault`, `NOTES_VAULT` or the `vault` setting does not exist.
    case vaultMissing(String)
    /// The note changed on disk while it was being edited; the edit was saved to `copy`.
    case conflict(id: String, copy: String)
    /// The file is not valid UTF-8, so the tool will not touch it.
    case notUTF8(String)
    /// No trashed note matches.
    case notInTrash(String)

    public var errorDescription: String? {
        switch self {
        case .io(let path, let reason):
            return "could not access '\(path)': \(reason)"
        case .noMatch(let query):
            return "no note matches '\(query)'"
        case .ambiguous(let query, let candidates):
            let shown = candidates.prefix(10).map { "  \($0)" }.joined(separator: "\n")
            let more = candidates.count > 10 ? "\n  … and \(candidates.count - 10) more" : ""
            return "'\(query)' matches \(candidates.count) notes; use more of the ID:\n\(shown)\(more)"
        case .outsideVault(let path):
            return "'\(path)' is outside the vault (or a symbolic link); notes only works on files inside it"
        case .emptyNote:
            return "note is empty; nothing saved"
        case .vaultMissing(let path):
            return "the vault '\(path)' does not exist; create it with 'notes init \(path)'"
        case .conflict(let id, let copy):
            return "'\(id)' changed on disk while you were editing it; your text was saved to '\(copy)'"
        case .notUTF8(let path):
            return "'\(path)' is not valid UTF-8; notes will not change it"
        case .notInTrash(let query):
            return "no note in the trash matches '\(query)'; see 'notes trash'"
        }
    }
}

/// A problem with one file that does not stop the command: `warning: <path>:<line>: <message>`.
public struct Diagnostic: Equatable, Sendable, CustomStringConvertible {
    /// The file's path as the user can open it.
    public var path: String
    /// The 1-based line, when the problem is on one.
    public var line: Int?
    /// What is wrong.
    public var message: String

    /// Creates a diagnostic.
    public init(path: String, line: Int?, message: String) {
        self.path = path
        self.line = line
        self.message = message
    }

    public var description: String { path + (line.map { ":\($0)" } ?? "") + ": " + message }
}
