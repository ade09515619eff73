/// The command failed (exit 1) for a reason the command line itself found — no
/// confirmation, no terminal, an editor that did not start — with the sentence the user reads
/// after `Error: `. Errors of the library are its own types; `ErrorReport` renders both.
struct CommandError: Error {
    /// What went wrong and what to do, as a sentence without the `Error: ` prefix.
    var message: String
    init(_ message: String) { self.message = message }
}
