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
            let hint = commitHint(store)
            store.skipChanges()
            return hint.map { [$0] } ?? []
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

    /// Without auto-commit, the vault's own files a command wrote (`.notes/.gitignore` made or
    /// brought up to date, `.notes/settings.json`), or found not committed (`init`: templates),
    /// are what a clone needs to be the same vault: the `git add` to run, when the vault is in a
    /// git work tree.
    private static func commitHint(_ store: NoteStore) -> String? {
        var paths: [String] = []
        for case .vaultFile(let path) in store.pendingChanges where !paths.contains(path) {
            paths.append(path)
        }
        guard !paths.isEmpty, store.isInGitWorkTree() else { return nil }
        let folder = Shell.quote(store.vault.root)
        let quoted = paths.map(Shell.quote).joined(separator: " ")
        let named =
            paths.count < 3
            ? paths.joined(separator: " and ")
            : paths.dropLast().joined(separator: ", ") + " and " + (paths.last ?? "")
        let them = paths.count == 1 ? "it" : "them"
        return named + (paths.count == 1 ? " is" : " are") + " not committed, and a clone of the vault needs "
            + them + "; commit " + them + " with: "
            + "git -C \(folder) add -- \(quoted) && git -C \(folder) commit -m 'notes: update the vault files' -- \(quoted)"
    }
}
