import Foundation

/// A note's commits, and the vault-relative path they were looked up by.
public struct NoteHistory: Sendable {
    /// The note's path (for a deleted note, the path it had).
    public var path: String
    /// Its commits, newest first, following renames.
    public var commits: [GitRepository.Commit]
}

/// Git behind the store: the commands ask the store for a note's history, a sync, the files git
/// has not committed, and the commit of the changes the store made; the store finds the work tree
/// and drives git (`GitRepository`), so no command opens a repository itself.
extension NoteStore {
    /// The git work tree the vault is in. Throws `notInstalled` or `notARepository`.
    func repository() throws(GitError) -> GitRepository {
        try GitRepository.open(at: vault.root, environment: environment)
    }

    /// The history of the note an argument names (as `open` resolves it), or of a deleted note
    /// whose ID or path git still has (a name inside the vault, never one that leaves it).
    /// Throws `GitError` outside git, `VaultError.noMatch` when neither has it.
    public func history(of argument: String, cwd: String, patch: Bool) throws -> NoteHistory {
        let repository = try repository()
        let path: String
        do {
            let loaded = try open(argument, cwd: cwd)
            unreported += loaded.diagnostics
            path = loaded.note.path
        } catch .noMatch(let argument) {
            guard let deleted = vault.notePath(ofAbsent: argument),
                try !repository.history(of: deleted, patch: false).isEmpty
            else { throw VaultError.noMatch(argument) }
            path = deleted
        }
        return NoteHistory(path: path, commits: try repository.history(of: path, patch: patch))
    }

    /// The vault-relative paths of the files git has changes to that are not committed, from one
    /// `git status` of the whole vault.
    public func uncommittedPaths() throws(GitError) -> Set<String> {
        try repository().status().dirtyPaths
    }

    /// `notes sync` (see `GitRepository.sync`): the titles of the notes that came in are read as
    /// the vault reads them (its `titleFrom`), and the untracked files that notes link to or embed
    /// are committed with the notes, so the other clones get them too, and so are the files of the
    /// vault-relative `templateFolder` (the `templateFolder` setting's, `.templates` by default),
    /// unless it is a symlink or leads out of the vault.
    public func sync(
        mergeDriver: String?, templateFolder: String? = nil, committed: (CommitPlan) -> Void = { _ in }
    ) throws(GitError) -> SyncReport {
        let source = vault.titleSource
        let repository = try repository()
        return try repository.sync(
            mergeDriver: mergeDriver, templateFolder: templateFolder.flatMap(committedTemplateFolder),
            title: { path, text in
                Note(path: path, document: NoteDocument(parsing: text), mtime: 0, titleFrom: source).title
            },
            attachments: { linkedAttachments($0) },
            committed: committed)
    }

    /// The vault-relative template folder `folder` when its files are committed with the vault:
    /// a folder inside it (or none yet, whose removed files are committed); nil for one that
    /// leads out through a symlink, or is not a folder.
    func committedTemplateFolder(_ folder: String) -> String? {
        do {
            _ = try templateFolderPath(folder)
            return Vault.normalized(folder)
        } catch {
            return nil
        }
    }

    /// Makes git merge the vault's notes with the merge driver `driver` (the `merge.notes.driver`
    /// command): writes the `.gitattributes` lines when they are missing, and sets the driver when
    /// the vault is in a git work tree. Returns whether `.gitattributes` was written, which is then
    /// recorded as one of the vault's own files, for auto-commit (or its `git add` hint). `warn`
    /// gets what went wrong without stopping it, as a sentence.
    @discardableResult
    public func setUpMergeDriver(_ driver: String?, warn: (String) -> Void = { _ in }) throws -> Bool {
        let written = try VaultError.mapping(MergeDriver.writeAttributes(in: vault.root))
        if let driver, let repository = try? repository(), let warning = try repository.setMergeDriver(driver)
        {
            warn(warning)
        }
        if written { record(.vaultFile(MergeDriver.attributesPath)) }
        return written
    }

    /// Records, as the vault's own files for auto-commit (or its `git add` hint), those that git
    /// has uncommitted changes to — `.gitattributes`, `.notes/.gitignore`, `.notes/settings.json`
    /// and the files of the vault-relative `templateFolder` (`GitStatus.templateFiles`) — as
    /// `sync` commits them: `notes init` of a folder that has templates already commits them too,
    /// so a clone has them. Nothing outside git, or for a template folder that leads out of the
    /// vault.
    public func recordUncommittedVaultFiles(templateFolder: String) {
        guard let status = try? repository().status() else { return }
        let changed = Set(status.entries.filter { !$0.isUnmerged }.map(\.path))
        var paths = GitRepository.ownFiles.filter {
            changed.contains($0) && FileSystem.status(vault.fullPath($0)) != nil
        }
        if let folder = committedTemplateFolder(templateFolder) {
            paths += status.templateFiles(in: folder, root: vault.root)
        }
        for path in paths where !pendingChanges.contains(.vaultFile(path)) {
            record(.vaultFile(path))
        }
    }

    /// Commits exactly the files of the changes made through this store since the last call (the
    /// `gitAutoCommit` setting); nil when there was nothing to commit. The changes count as dealt
    /// with whatever git says, so a failed commit is reported once, not again with the next.
    /// Holding the vault's lock, so that writers committing at once take turns instead of racing
    /// for git's `index.lock` (and waiting for another git's). During a rebase or a merge nothing
    /// is committed (a commit would land in the middle of it): that throws `unfinished`, once per
    /// store, and `sync` commits the notes when it is over.
    @discardableResult
    public func commitChanges() throws(GitError) -> GitRepository.CommitOutcome? {
        var pending = Array(changes.dropFirst(changesCommitted))
        changesCommitted = changes.count
        guard !pending.isEmpty else { return nil }
        let repository = try repository()
        // A repository that ignores the vault's `.notes/` itself keeps it out: `git add` of a path
        // in it would fail the commit of the notes too. Git lists a folder it ignores whole as
        // `.notes/`; one whose own `.gitignore` lets files through, file by file.
        if pending.contains(where: { if case .vaultFile = $0 { true } else { false } }) {
            let ignored = try repository.run([
                "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory", "--",
                ".notes",
            ]).stdout.split(separator: 0)
            if ignored.contains(where: { String(decoding: $0, as: UTF8.self) == ".notes/" }) {
                pending.removeAll {
                    if case .vaultFile(let path) = $0 { path.hasPrefix(".notes/") } else { false }
                }
            }
        }
        guard let plan = CommitPlan(pending) else { return nil }
        if let what = repository.unfinishedOperation() {
            guard !toldUnfinished else { return nil }
            toldUnfinished = true
            throw .unfinished(what)
        }
        // Without the lock (a state folder that cannot hold one) the commit is tried all the same.
        let lock = try? VaultLock(path: lockPath, wait: true, vault: vault.root)
        defer { lock?.release() }
        return try repository.commit(plan)
    }

    /// Whether the vault is inside a git work tree (false without git).
    public func isInGitWorkTree() -> Bool { (try? repository()) != nil }

    /// Forgets the changes not committed yet, so that `commitChanges` does not commit them (the
    /// setting is off).
    public func skipChanges() {
        changesCommitted = changes.count
    }

    /// Whether git tracks files in the vault's `.notes/` state folder other than the two that are
    /// the vault's own and committed with it (`stateFolderCommitted`, SPEC §3: a clone is a vault),
    /// whose every rewrite (the index) would then leave `git status` dirty. False outside git.
    public func gitTracksStateFolder() -> Bool {
        guard let repository = try? repository(),
            let tracked = try? repository.check(["ls-files", "-z", "--", ".notes"])
        else { return false }
        return tracked.stdout.split(separator: 0).contains {
            !Self.stateFolderCommitted.contains(String(decoding: $0, as: UTF8.self))
        }
    }

    /// The files of `.notes/` that are committed with the vault: its `.gitignore` and settings.
    public static let stateFolderCommitted = [".notes/.gitignore", ".notes/settings.json"]

    /// The pathspecs, for a shell's git, of everything else in `.notes/`: the tool's local state.
    public static let stateFolderLocal = [".notes"] + stateFolderCommitted.map { ":(exclude)" + $0 }
}
