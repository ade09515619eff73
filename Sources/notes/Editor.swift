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

    /// Lets the user edit `text` in a private `.md` file named after `name`; returns the result.
    /// When the editor fails, the file is kept (if anything was typed) and its path reported.
    func edit(_ text: String, name: String) throws -> String {
        var template = Array((NSTemporaryDirectory() + "/notes-edit-XXXXXX").utf8CString)
        guard template.withUnsafeMutableBufferPointer({ $0.baseAddress.map { mkdtemp($0) } ?? nil }) != nil else {
            throw Failure("could not create a temporary folder for the editor")
        }
        let folder = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let safeName = name.split(separator: "/").last.map(String.init) ?? "note"
        let file = folder + "/" + (safeName.isEmpty ? "note" : safeName) + ".md"
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
        guard process.terminationStatus == 0, process.terminationReason == .exit else {
            if let edited, edited != text {
                throw Failure("the editor '\(command)' failed (status \(process.terminationStatus)); "
                    + "nothing saved, your text is kept in '\(file)'")
            }
            try? FileSystem.remove(folder)
            throw Failure("the editor '\(command)' failed (status \(process.terminationStatus)); nothing saved")
        }
        guard let edited else {
            throw Failure("the edited file '\(file)' is missing or not UTF-8; nothing saved")
        }
        try? FileSystem.remove(folder)
        return edited
    }
}
