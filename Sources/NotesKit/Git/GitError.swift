import Foundation

/// Everything that can go wrong while driving git; each message says what to do.
public enum GitError: LocalizedError, Equatable, Sendable {
    /// No `git` executable on `PATH`.
    case notInstalled
    /// The vault is not inside a git work tree.
    case notARepository(String)
    /// A git command failed; `message` is what git said.
    case failed(command: String, message: String)
    /// The repository has no remote to pull from or push to.
    case noRemote
    /// The branch has no upstream branch, so there is nothing to pull from or push to.
    case noUpstream(branch: String, remote: String)
    /// HEAD is not on a branch.
    case detachedHead
    /// A rebase or merge was left unfinished; it must be completed or aborted first.
    case unfinished(String)
    /// `git pull --rebase` (or the rebase a sync went on with) stopped on conflicts in these
    /// vault-relative note paths (and in these other files of the work tree); the repository is
    /// left as git left it, and the next sync goes on once the notes hold no markers.
    case rebaseConflict(notes: [String], others: [String])
    /// The pull's rebase finished, but putting back the uncommitted changes git had stashed for it
    /// (`--autostash`) conflicted in these files (from the top of the work tree); the changes are
    /// still in the stash.
    case autostashConflict(files: [String])
    /// These files (from the top of the work tree) are unmerged with no rebase or merge going on,
    /// as a conflicted `git stash pop` or autostash leaves them; git pulls nothing over them.
    case unmergedFiles([String])

    /// What to do with files that re-applied stashed changes left conflicted.
    private var resolving: String {
        "Resolve each file: keep what you want, remove the <<<<<<<, ======= and >>>>>>> lines, and "
            + "mark it resolved with 'git add FILE' (or 'git restore --staged FILE' to leave the change "
            + "uncommitted); then drop the stash with 'git stash drop' (check with 'git stash list' that "
            + "it holds nothing else you want)"
    }

    public var errorDescription: String? {
        switch self {
        case .notInstalled:
            return "git is not installed (or not on PATH); install it to version and sync the vault"
        case .notARepository(let folder):
            return "'\(folder)' is not in a git repository; make it one with: git -C "
                + Shell.quote(folder) + " init"
        case .failed(let command, let message):
            let said =
                message.isEmpty
                ? "" : ":\n" + message.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
            return "'\(command)' failed" + said
        case .noRemote:
            return "the repository has no remote to sync with; add one with: git remote add origin URL"
        case .noUpstream(let branch, let remote):
            return "the branch '\(branch)' has no upstream, so nothing was pulled or pushed; set one with: "
                + "git push -u " + Shell.quote(remote) + " " + Shell.quote(branch)
        case .detachedHead:
            return "HEAD is not on a branch; check out the branch to sync (git switch BRANCH)"
        case .unfinished(let what):
            return "a \(what) is in progress; finish it (git status says how) or abort it, then sync again"
        case .rebaseConflict(let notes, let others):
            let names = notes.map { "  " + Note.id(forPath: $0) } + others.map { "  " + $0 + " (not a note)" }
            return "the pull stopped on conflicting changes in:\n" + names.joined(separator: "\n")
                + "\nNothing was resolved for you and no line is lost: edit each note to keep what you want, "
                + "removing the <<<<<<<, ======= and >>>>>>> lines (a note deleted on one side and changed "
                + "on the other is kept, unless you delete it)"
                + (others.isEmpty
                    ? ""
                    : "; resolve the other files too, removing those lines, and mark them with "
                        + "'git add FILE'")
                + ". Or go back to before the pull with 'git rebase --abort'"
        case .autostashConflict(let files):
            return "putting back your uncommitted changes after the pull conflicted in:\n"
                + files.map { "  " + $0 + "\n" }.joined()
                + "The pull itself went through, and your changes are safe in the stash ('git stash list' "
                + "shows it). " + resolving
        case .unmergedFiles(let files):
            return "these files are unmerged, with no rebase or merge in progress:\n"
                + files.map { "  " + $0 + "\n" }.joined()
                + "Putting back stashed changes leaves them so, when they conflict (a pull's autostash, "
                + "'git stash pop'), and nothing can be pulled over them. " + resolving + ", and sync again"
        }
    }
}
