import NotesKit

/// The auto-commit sink (the `gitAutoCommit` setting): after each command — and after
/// each change made in the browser — it takes the store's change records not committed yet and
/// commits exactly those files. A commit that fails (no identity, a hook refused it, no git) is
/// a warning: the notes are saved either way.
enum AutoCommitter {
    /// Commits the changes recorded since the last call when the setting is on; returns the
    /// warnings to show (none when all went well or there was nothing to do).
    static func commit(_ store: NoteStore, enabled: Bool) -> [String] {
        guard enabled else {
            store.skipChanges()
            return []
        }
        do {
            try store.commitChanges()
            return []
        } catch .notInstalled {
            return ["gitAutoCommit is on, but git is not installed (or not on PATH); nothing was committed"]
        } catch .notARepository(let folder) {
            return [
                "gitAutoCommit is on, but '\(folder)' is not in a git repository; nothing was committed "
                    + "(run 'git init' there, or 'notes config set gitAutoCommit false')"
            ]
        } catch .unfinished(let what) {
            return [
                "the note is saved, but not committed: a \(what) is in progress; finish it (git status "
                    + "says how) or abort it, then 'notes sync' commits the notes"
            ]
        } catch .failed(_, let message) {
            let said =
                message.isEmpty
                ? "" : ":\n" + message.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
            return ["the note is saved, but git did not commit it" + said]
        } catch {
            return ["the note is saved, but git did not commit it: " + (error.errorDescription ?? "\(error)")]
        }
    }
}
