import Foundation
import NotesKit

/// Runs the user's editor on a private temporary copy of a note's text (SPEC §6).
struct Editor {
    let context: Context

    /// The editor command: `NOTES_EDITOR` · the `editor` setting · `VISUAL` · `EDITOR` · `vi`.
    var command: String {
        for candidate in [context.environment["NOTES_EDITOR"], context.settings.editor,
                          context.environment["VISUAL"], context.environment["EDITOR"]] {
            if let candidate, !candidate.trimmingCharacters(in: .whitespaces).isEmpty { return candidate }
        }
        return "vi"
    }

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
                throw VaultError.emptyNote
            } catch let error as VaultError {
                if case .conflict = error {
                    try? FileSystem.remove(folder)
                    throw error
                }
                throw Failure((error.errorDescription ?? "could not save") + "; your text is kept in '\(file)'")
            } catch let failure as Failure {
                throw Failure(failure.message + "; your text is kept in '\(file)'")
            }
            try? FileSystem.remove(folder)
        }
    }

    /// Lets the user edit `text` in a private `.md` file named after `name`.
    /// When the editor fails, the file is kept (if anything was typed) and its path reported.
    func edit(_ text: String, name: String) throws -> Session {
        var temp = NSTemporaryDirectory()
        while temp.hasSuffix("/") && temp.count > 1 { temp.removeLast() }
        let folder = try FileSystem.makeTemporaryDirectory(temp + "/notes-edit-XXXXXX")
        let base = name.split(separator: "/").last.map(String.init) ?? ""
        let file = folder + "/" + (base.isEmpty || base.utf8.count > 200 ? "note" : base) + ".md"
        try FileSystem.writeAtomically(Array(text.utf8), to: file, mode: 0o600)
        context.flush()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command + " \"$1\"", "notes", file]
        do {
            try process.run()
        } catch {
            try? FileSystem.remove(folder)
            throw Failure("could not start the editor '\(command)': \(error.localizedDescription)")
        }
        process.waitUntilExit()
        let edited = (try? FileSystem.read(file)).flatMap { String(validating: $0.0, as: UTF8.self) }
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let how = process.terminationReason == .exit
                ? "exited with status \(process.terminationStatus)"
                : "was stopped by signal \(process.terminationStatus)"
            if let edited, edited != text {
                throw Failure("the editor '\(command)' \(how); nothing saved, your text is kept in '\(file)'")
            }
            try? FileSystem.remove(folder)
            throw Failure("the editor '\(command)' \(how); nothing saved")
        }
        guard let edited else {
            throw Failure("the edited file '\(file)' is missing or not UTF-8; nothing saved")
        }
        return Session(text: edited, folder: folder, file: file)
    }
}
