import Foundation

/// Everything that can go wrong in the library; each message says what happened and what to do
/// about it in words any front end can show. The command to run next, when there is one, is the
/// front end's to add: the library knows no command line.
public enum VaultError: LocalizedError, Equatable, Sendable {
    /// A file operation failed.
    case io(path: String, reason: String)
    /// Writing a file failed; `path` is the file being written (not a temp), left as it was.
    case writeFailed(path: String, reason: String)
    /// The index cache could not be written; notes still work without it.
    case indexNotWritten(path: String, reason: String)
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
    /// The vault path exists but is not a folder (a file, or a broken or looping link).
    case notAFolder(String)
    /// The vault's state folder (`<vault>/.notes`, given here) is a file, so the vault cannot be made.
    case stateNotAFolder(String)
    /// The note changed on disk while it was being edited; the edit was saved to `copy`.
    case conflict(id: String, copy: String)
    /// The file is not valid UTF-8, so the tool will not touch it.
    case notUTF8(String)
    /// No trashed note matches.
    case notInTrash(String)
    /// A folder for new notes is hidden (`.git`, `.notes`), where notes are never looked for.
    case hiddenFolder(String)
    /// A note's new name starts with a dot: a hidden file, which is never listed.
    case hiddenName(String)
    /// A note was to go, or was named, where an ignore file (`.gitignore`, `.ignore`) ignores it, so
    /// it is never listed; `rule` names the line (`.gitignore:3 (build/)`).
    case ignored(String, rule: String)
    /// A note (or another file or folder) is already where a note was to go.
    case alreadyExists(String)
    /// A new name (of a note, or of a folder for one) cannot be a note's: it holds a character a
    /// `[[link]]` or a file name on some system cannot hold, a part of it starts or ends with a
    /// blank, or a folder in it has no name; `problem` says which (`Vault.nameProblem(_:)`).
    case badName(String, problem: String)
    /// A note's new ID is the path or the file name of a file of the vault that is not a note
    /// (`p.png`), so the links to that file would go to the note; `file` is the file.
    case takesFileName(String, file: String)

    /// The problem without the file's path, for messages that already name the file.
    public var brief: String {
        switch self {
        case .io(_, let reason), .writeFailed(_, let reason), .indexNotWritten(_, let reason): return reason
        case .notUTF8: return "not valid UTF-8"
        default: return errorDescription ?? "unreadable"
        }
    }

    public var errorDescription: String? {
        switch self {
        case .io(let path, let reason):
            return FileSystemError.io(path: path, reason: reason).errorDescription
        case .writeFailed(let path, let reason):
            return FileSystemError.writeFailed(path: path, reason: reason).errorDescription
        case .indexNotWritten(let path, let reason):
            return "could not write the index '\(path)': \(reason); notes work without it, only slower"
        case .noMatch(let query):
            return "no note matches '\(query)'"
        case .ambiguous(let query, let candidates):
            let shown = candidates.prefix(10).map { "  \($0)" }.joined(separator: "\n")
            let more = candidates.count > 10 ? "\n  … and \(candidates.count - 10) more" : ""
            return "'\(query)' matches \(candidates.count) notes; give one of their IDs:\n\(shown)\(more)"
        case .outsideVault(let path):
            return "'\(path)' is outside the vault (or a symbolic link); notes only works on files inside it"
        case .emptyNote:
            return "note is empty; nothing saved"
        case .vaultMissing(let path):
            return "the vault '\(path)' does not exist"
        case .notAFolder(let path):
            return "the vault '\(path)' is not a folder; give the path of a folder"
        case .stateNotAFolder(let path):
            return "could not access '\(path)': it is a file, not the vault's state folder; move it away"
        case .conflict(let id, let copy):
            return "'\(id)' changed on disk (or was removed) while you were editing it; "
                + "your text was saved to '\(copy)'"
        case .notUTF8(let path):
            return "'\(path)' is not valid UTF-8; notes will not change it"
        case .notInTrash(let query):
            return "no note in the trash matches '\(query)'"
        case .hiddenFolder(let folder):
            return "'\(folder)' is a hidden folder, where notes are never listed; choose another folder"
        case .hiddenName(let name):
            return
                "'\(name)' would be a hidden file, which notes never lists; choose a name that does not start with a dot"
        case .ignored(let path, let rule):
            return
                "'\(path)' is ignored by \(rule), where notes are never listed; choose another place, or change that line"
        case .alreadyExists(let path):
            return "'\(path)' already exists; nothing was moved. Choose another name"
        case .badName(let name, let problem):
            return "'\(name)' \(problem); choose another name"
        case .takesFileName(let name, let file):
            return
                "'\(name)' is the \(name == file ? "path" : "name") of the file '\(file)', so links to that "
                + "file would go to the note; "
                + "nothing was moved. Choose another name"
        }
    }
}

extension VaultError {
    /// A file system error as the vault reports it: the case of the same name and message.
    init(_ error: FileSystemError) {
        switch error {
        case .io(let path, let reason): self = .io(path: path, reason: reason)
        case .writeFailed(let path, let reason): self = .writeFailed(path: path, reason: reason)
        }
    }

    /// The value of `body`; a file system error it throws is thrown as a `VaultError`. (An
    /// autoclosure: a closure's thrown type is not inferred from its context.)
    static func mapping<T>(_ body: @autoclosure () throws(FileSystemError) -> T) throws(VaultError) -> T {
        do {
            return try body()
        } catch {
            throw VaultError(error)
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
