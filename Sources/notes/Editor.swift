import Foundation
import NotesKit

/// Runs the user's editor on a private temporary copy of a note's text.
struct Editor {
    /// The shell command that opens the editor (the file's path is appended).
    let command: String
    /// The editor's environment.
    let environment: [String: String]
    /// Flushed before the editor takes the terminal; warnings go there.
    let output: Output

    /// The editor command: `NOTES_EDITOR` · the `editor` setting · `VISUAL` · `EDITOR` · `vi`.
    static func command(environment: [String: String], setting: String?) -> String {
        for candidate in [environment["NOTES_EDITOR"], setting, environment["VISUAL"], environment["EDITOR"]]
        {
            if let candidate, !candidate.trimmingCharacters(in: .whitespaces).isEmpty { return candidate }
        }
        return "vi"
    }

    /// The user left the text empty in the editor: nothing is saved, which they chose, so it is
    /// said as a remark (`Nothing saved.`) rather than an error, with exit code 1.
    struct NothingSaved: Error {}

    /// What the user typed, still kept in its temporary file until it is saved.
    struct Session {
        let text: String
        let folder: String
        let file: String

        /// Runs `save` on the text. The temporary file goes away once the text is safe (saved,
        /// saved as a conflict copy, or empty); on any other failure it stays and the error says where.
        func save(_ save: (String) throws -> Void) throws {
            do {
                try save(text)
            } catch VaultError.emptyNote {
                try? FileSystem.remove(folder)
                throw NothingSaved()
            } catch let error as VaultError {
                if case .conflict = error {
                    try? FileSystem.remove(folder)
                    throw error
                }
                throw CommandError(
                    ErrorReport(error).sentence
                        + "; your text is kept in '\(Editor.keep(file, in: folder))'")
            } catch let failure as CommandError {
                throw CommandError(
                    failure.message + "; your text is kept in '\(Editor.keep(file, in: folder))'")
            }
            try? FileSystem.remove(folder)
        }
    }

    /// Lets the user edit `text` in a private `.md` file named after `name`.
    /// When the editor fails, the file is kept (if anything was typed) and its path reported.
    func edit(_ text: String, name: String) throws -> Session {
        var temp = NSTemporaryDirectory()
        while temp.hasSuffix("/") && temp.count > 1 { temp.removeLast() }
        // Not silenced by --quiet: this is the user's typing, not a remark about a file.
        for kept in Editor.sweepAbandonedSessions(in: temp) {
            output.err(
                "warning: an editor session that was interrupted before notes could save it left "
                    + "files in '\(kept)' (the text, and any swap or backup file of the editor; 'vim -r FILE' "
                    + "recovers a vim swap file); nothing was saved from them: copy what you need, then delete the folder"
            )
        }
        let folder = try FileSystem.makeTemporaryDirectory(
            temp + "/" + Editor.folderPrefix + "\(getpid())-XXXXXX")
        let base = name.split(separator: "/").last.map(String.init) ?? ""
        let file = folder + "/" + (base.isEmpty || base.utf8.count > 200 ? "note" : base) + ".md"
        let bytes = Array(text.utf8)
        try FileSystem.writeAtomically(bytes, to: file, mode: 0o600)
        try FileSystem.writeAtomically([], to: folder + "/" + Editor.originalMarker(bytes), mode: 0o600)
        output.flush()
        let outcome: ForegroundProcess.Outcome
        do {
            // The shell waits for the editor before it acts on a SIGTERM or SIGHUP passed on to
            // them both, so the editor has ended when the shell has.
            outcome = try ForegroundProcess.run(
                "/bin/sh",
                arguments: ["/bin/sh", "-c", "trap : TERM HUP; " + command + " \"$1\"", "notes", file],
                environment: environment)
        } catch let terminated as ForegroundProcess.Terminated {
            // Anything beside the text and its marker (vim's swap file) holds typing too.
            let edited = (try? FileSystem.read(file)).map { $0.0 }
            if edited != bytes || Editor.holdsMoreThanTheText(folder) {
                output.err(
                    "warning: notes was stopped while the editor was open; nothing was saved, your text "
                        + "is kept in '\(Editor.keep(file, in: folder))'")
            } else {
                try? FileSystem.remove(folder)
            }
            output.flush()
            terminated.end()
        } catch {
            try? FileSystem.remove(folder)
            throw CommandError("could not start the editor '\(command)': \(error)")
        }
        let written = (try? FileSystem.read(file)).map { $0.0 }
        let edited = written.flatMap { String(validating: $0, as: UTF8.self) }
        guard outcome == .exited(0) else {
            let how =
                switch outcome {
                case .exited(let status): "exited with status \(status)"
                case .signaled(let signal): "was stopped by signal \(signal)"
                }
            // Anything typed is kept: other text than was handed over (in whatever encoding), or
            // a file beside it (a swap file).
            if written != bytes || Editor.holdsMoreThanTheText(folder) {
                throw CommandError(
                    "the editor '\(command)' \(how); nothing saved, your text is kept in "
                        + "'\(Editor.keep(file, in: folder))'")
            }
            try? FileSystem.remove(folder)
            throw CommandError("the editor '\(command)' \(how); nothing saved")
        }
        guard let edited else {
            guard let written else {
                // Moved, or replaced by what cannot be read as a file (a symlink): anything beside
                // the marker may hold the typing.
                guard (FileSystem.entries(folder) ?? []).count > 1 else {
                    try? FileSystem.remove(folder)
                    throw CommandError(
                        "the editor removed the file it was editing ('\(file)'); nothing saved")
                }
                throw CommandError(
                    "the editor left no readable file at '\(file)'; nothing saved, what it left is kept in '"
                        + Editor.keep(folder: folder) + "'")
            }
            // Text in another encoding (Latin-1, UTF-16) is the user's typing all the same: keep
            // it where they can convert it, rather than leave it for the next sweep to report.
            throw CommandError(
                "the editor saved text that is not UTF-8 (\(Editor.firstInvalidUTF8(in: written))); "
                    + "nothing saved, your text is kept in '\(Editor.keep(file, in: folder))': convert it to "
                    + "UTF-8 (Latin-1 text with 'iconv -f latin1 -t utf-8 FILE') and set the editor to save UTF-8"
            )
        }
        return Session(text: edited, folder: folder, file: file)
    }

    /// Whether an editor folder holds anything besides the text and its marker (a swap file).
    static func holdsMoreThanTheText(_ folder: String) -> Bool {
        (FileSystem.entries(folder) ?? []).count > 2
    }

    /// Where the first byte sequence that is not UTF-8 sits in `bytes`, as "line L, byte B" (both
    /// 1-based; the byte counts from the line's start).
    static func firstInvalidUTF8(in bytes: [UInt8]) -> String {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var (line, lineStart, offset) = (1, 0, 0)
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                offset += encoded.count
                if encoded.count == 1 && encoded.first == 0x0A { (line, lineStart) = (line + 1, offset) }
            case .error: return "line \(line), byte \(offset - lineStart + 1)"
            case .emptyInput: return "line \(line)"
            }
        }
    }

    // MARK: Abandoned sessions

    /// Renames an editor folder whose text could not be saved to `notes-unsaved-…`, where no sweep
    /// removes it, and returns the text's path there (or where it is, if the rename fails).
    static func keep(_ file: String, in folder: String) -> String {
        keep(folder: folder) + "/" + (file as NSString).lastPathComponent
    }

    /// Renames an editor folder to `notes-unsaved-…` and returns its new path (or the old one, if
    /// the rename fails).
    static func keep(folder: String) -> String {
        let name = (folder as NSString).lastPathComponent
        guard name.hasPrefix(folderPrefix) else { return folder }
        let renamed =
            FileSystem.parentFolder(of: folder) + "/notes-unsaved-"
            + name.dropFirst(folderPrefix.count)
        return (try? FileSystem.moveExclusively(folder, to: renamed)) != nil ? renamed : folder
    }

    /// Editor folders are `<TMPDIR>/notes-edit-<pid>-XXXXXX`, so that a later run can tell whether
    /// the process that made one is gone (killed while the editor was open).
    static let folderPrefix = "notes-edit-"

    /// An empty file beside the text whose name records the text's hash as handed to the editor:
    /// a folder whose text still has that hash holds nothing the user typed.
    static func originalMarker(_ bytes: [UInt8]) -> String { ".original-" + Hashing.fnv1a(bytes) }

    /// Removes the editor folders of processes that no longer run when their text is as it was
    /// handed to the editor and nothing else is there. Anything more — changed text, or a file the
    /// editor left beside it (vim's `.swp` holds text typed but never written) — is the user's
    /// unsaved work: the folder is renamed to `notes-unsaved-…` (so it is reported once) and its
    /// path returned. Folders of live processes — another `notes` with its editor open — are
    /// never touched.
    static func sweepAbandonedSessions(in temp: String) -> [String] {
        var kept: [String] = []
        for (name, kind) in FileSystem.entries(temp) ?? []
        where kind == .directory && name.hasPrefix(folderPrefix) {
            let rest = name.dropFirst(folderPrefix.count)
            guard let dash = rest.firstIndex(of: "-"), let pid = Int32(rest[..<dash]), pid > 0,
                kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            let folder = temp + "/" + name
            let files = FileSystem.entries(folder) ?? []
            let marker = files.first { $0.name.hasPrefix(".original-") }?.name
            let others = files.filter { $0.name != marker }
            let unchanged =
                others.count <= 1
                && others.allSatisfy { entry in
                    guard let (bytes, _) = try? FileSystem.read(folder + "/" + entry.name) else {
                        return false
                    }
                    return originalMarker(bytes) == marker
                }
            if unchanged {
                try? FileSystem.remove(folder)
            } else {
                kept.append(keep(folder: folder))
            }
        }
        return kept
    }
}
