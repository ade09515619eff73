import Foundation

/// What can go wrong in a file operation of `FileSystem`; each message names the file and says
/// what happened. The layers above hand them on in their own error type, with the same message.
public enum FileSystemError: LocalizedError, Equatable, Sendable {
    /// A file operation failed: `path` could not be opened, read, created, renamed or removed.
    case io(path: String, reason: String)
    /// Writing a file failed; `path` is the file being written (not a temp), left as it was.
    case writeFailed(path: String, reason: String)

    /// The problem without the file's path, for messages that already name the file.
    public var brief: String {
        switch self {
        case .io(_, let reason), .writeFailed(_, let reason): return reason
        }
    }

    public var errorDescription: String? {
        switch self {
        case .io(let path, let reason):
            return "could not access '\(path)': \(reason)"
        case .writeFailed(let path, let reason):
            return "could not write '\(path)': \(reason); nothing was changed"
        }
    }
}
