import Foundation

/// What `sync` does around a rebase that stops: which files git left conflicted (read from the
/// index, never guessed from markers), putting markers where a failed driver left none, and going
/// on once the user has removed them.
extension GitRepository {
    /// The work-tree paths (from the top) that the index holds unmerged: both sides changed them,
    /// or one changed and the other deleted them.
    func conflictedPaths() throws(GitError) -> [String] {
        try check(["diff", "--name-only", "-z", "--diff-filter=U"]).stdout.split(separator: 0)
            .map { String(decoding: $0, as: UTF8.self) }
    }

    /// The error for a rebase step (`command`, which printed `result`) that did not finish:
    /// `rebaseConflict` naming the conflicted notes and files, or `failed` when git stopped for
    /// another reason. A conflicted note left without markers (its merge driver failed, so the
    /// file holds one side only) gets git's line merge with markers, so no side is lost.
    func stop(after result: ProcessResult, of command: String) throws(GitError) -> GitError {
        let conflicted = try conflictedPaths()
        guard !conflicted.isEmpty else { return .failed(command: command, message: result.errorText) }
        let notes = conflicted.compactMap(vaultPath).filter(Vault.isNoteName)
        for path in notes { try putMarkers(in: path) }
        return .rebaseConflict(
            notes: notes, others: conflicted.filter { vaultPath($0).map { !notes.contains($0) } ?? true })
    }

    /// Writes what the driver should have into a conflicted note's file when the file holds no
    /// markers and both sides have a version (a modify/delete conflict has only one): git's line
    /// merge of the index's three stages with the later `updatedAt`, markers where the same lines
    /// changed. A clean result is written too: the next sync adds it.
    private func putMarkers(in path: String) throws(GitError) {
        let file = folder + "/" + path
        guard let bytes = try? FileSystem.read(file).0,
            !ConflictMarkers.present(in: String(decoding: bytes, as: UTF8.self))
        else { return }
        let treePath = prefix + path
        func stage(_ n: Int) throws(GitError) -> [UInt8]? {
            let result = try run(["cat-file", "blob", ":\(n):" + treePath])
            return result.status == 0 ? result.stdout : nil
        }
        guard let oursStage = try stage(2), let theirsStage = try stage(3) else { return }
        let (base, ours, theirs) = MergeDriver.aligningUpdatedAt(
            base: try stage(1) ?? [], ours: oursStage, theirs: theirsStage)
        let folder: String
        do {
            folder = try FileSystem.makeTemporaryDirectory(gitDirectory + "/notes-merge-XXXXXX")
        } catch {
            throw .failed(command: "notes sync", message: error.localizedDescription)
        }
        defer { try? FileSystem.remove(folder) }
        let result: ProcessResult
        do {
            for (name, version) in [("ours", ours), ("base", base), ("theirs", theirs)] {
                try FileSystem.writeAtomically(version, to: folder + "/" + name)
            }
            result = try run([
                "merge-file", "--stdout", "-L", "ours", "-L", "base", "-L", "theirs",
                folder + "/ours", folder + "/base", folder + "/theirs",
            ])
            guard result.status >= 0, result.status < 128 else { return }
            try FileSystem.writeAtomically(result.stdout, to: file)
        } catch let error as GitError {
            throw error
        } catch {
            throw .failed(command: "notes sync", message: error.localizedDescription)
        }
    }

    /// Goes on with a rebase that stopped on conflicts: each conflicted note whose file no
    /// longer holds markers is added (a removed one, removed), then `git rebase --continue`
    /// runs without an editor. Throws `rebaseConflict` with what is still conflicted (a file
    /// that is not a note is the user's to resolve with git), or when the next commit conflicts.
    /// Returns the commit HEAD was on before the rebase began.
    /// Only a rebase onto the branch's upstream (what a pull makes) goes on: one of the user's
    /// own (`git rebase -i HEAD~3`) throws `unfinished`.
    func continueRebase(in state: String) throws(GitError) -> String? {
        func stateFile(_ name: String) -> String? {
            (try? FileSystem.read(gitDirectory + "/" + state + "/" + name).0).map {
                String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            }
        }
        let before = stateFile("orig-head")
        // `main@{upstream}`: git takes no `refs/heads/main@{upstream}`.
        guard let head = stateFile("head-name"), head.hasPrefix("refs/heads/"), let onto = stateFile("onto"),
            try run(["rev-parse", "--verify", "--quiet", head.dropFirst("refs/heads/".count) + "@{upstream}"])
                .output
                .trimmingCharacters(in: .newlines) == onto
        else { throw .unfinished("rebase") }
        var mended: [String] = []
        var removed: [String] = []
        var left: [String] = []
        for treePath in try conflictedPaths() {
            guard let path = vaultPath(treePath), Vault.isNoteName(path) else {
                left.append(treePath)
                continue
            }
            let file = folder + "/" + path
            if FileSystem.status(file) == nil {
                removed.append(path)
            } else if let bytes = try? FileSystem.read(file).0,
                !ConflictMarkers.present(in: String(decoding: bytes, as: UTF8.self))
            {
                mended.append(path)
            } else {
                left.append(treePath)
            }
        }
        guard left.isEmpty else {
            let notes = left.compactMap(vaultPath).filter(Vault.isNoteName)
            throw .rebaseConflict(
                notes: notes, others: left.filter { vaultPath($0).map { !notes.contains($0) } ?? true })
        }
        if !mended.isEmpty { try check(["add", "--"] + mended) }
        if !removed.isEmpty { try check(["rm", "--quiet", "--cached", "--ignore-unmatch", "--"] + removed) }
        var quiet = environment
        // The commit message stays the one the commit had; no editor opens.
        quiet["GIT_EDITOR"] = "true"
        let editorless = GitRepository(
            folder: folder, prefix: prefix, gitDirectory: gitDirectory, git: git, environment: quiet)
        let result = try editorless.run(["rebase", "--continue"])
        guard result.status == 0 else { throw try stop(after: result, of: "git rebase --continue") }
        return before
    }

    /// Commits the vault's own files that git has changes to — `.gitattributes` (the merge
    /// driver's lines), `.notes/.gitignore` and `.notes/settings.json`, which make a clone the
    /// same vault — in a commit of their own; returns whether it made one.
    func commitVaultFiles() throws(GitError) -> Bool {
        let own = [MergeDriver.attributesPath, Vault.stateIgnorePath, Vault.settingsPath]
        let changed = Set(try status().entries.filter { !$0.isUnmerged }.map(\.path))
        let paths = own.filter { changed.contains($0) && FileSystem.status(folder + "/" + $0) != nil }
        guard var plan = CommitPlan(paths.map { Change.vaultFile($0) }) else { return false }
        if paths == [MergeDriver.attributesPath] {
            plan.message = "notes: merge notes with the notes merge driver (.gitattributes)"
        }
        return try commit(plan) == .committed
    }

    /// Sets the repository's `merge.notes.driver` to `driver` (rewritten only when it differs, so
    /// that a binary that moved is found again).
    func setMergeDriver(_ driver: String) throws(GitError) {
        let current = try run(["config", "--local", "--get", MergeDriver.configKey]).output
        guard current.trimmingCharacters(in: .newlines) != driver else { return }
        try check(["config", "--local", MergeDriver.configKey, driver])
        try check(["config", "--local", "merge.notes.name", "notes: the later updatedAt, then a line merge"])
    }
}
