import Foundation

/// What `sync` does around a rebase that stops: which files git left conflicted (read from the
/// index, never guessed from markers), putting markers where a failed driver left none, going on
/// once the user has removed them (the markers the merge put there, from every file of the step,
/// unmerged or staged), and the files where the stash of uncommitted changes did not go back.
extension GitRepository {
    /// The work-tree paths (from the top) that the index holds unmerged: both sides changed them,
    /// or one changed and the other deleted them.
    func conflictedPaths() throws(GitError) -> [String] {
        // `--no-relative`: a `diff.relative` setting would name them from the vault's folder.
        let names = try check(["diff", "--name-only", "--no-relative", "-z", "--diff-filter=U"]).stdout
        return names.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
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
    /// markers of the merge (those a note quotes are on a side already) and both sides have a
    /// version (a modify/delete conflict has only one): git's line merge of the index's three
    /// stages with the dates aligned as the driver aligns them, markers where the same lines changed. A clean result is
    /// written too: the next sync adds it.
    private func putMarkers(in path: String) throws(GitError) {
        let file = folder + "/" + path
        let treePath = prefix + path
        guard let bytes = try? FileSystem.read(file).0,
            let oursStage = try blob(":2:" + treePath), let theirsStage = try blob(":3:" + treePath)
        else { return }
        let baseStage = try blob(":1:" + treePath) ?? []
        guard
            !ConflictMarkers.introduced(in: bytes, base: baseStage, ours: oursStage, theirs: theirsStage)
        else { return }
        let (base, ours, theirs) = MergeDriver.aligningDates(
            base: baseStage, ours: oursStage, theirs: theirsStage)
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

    /// Goes on with a rebase that stopped on conflicts. Every file of the step — unmerged, or
    /// staged as git's "mark resolved" (`git add`) has it — is looked at as it is in the work
    /// tree: one holding conflict markers that the merge put there (not those a note quotes,
    /// which a side has too) is still conflicted, and so is an unmerged file that is not a note
    /// (the user's to resolve with git). Otherwise each note of the step is added (a removed one,
    /// removed), and `git rebase --continue` runs without an editor. Throws `rebaseConflict` with
    /// what is still conflicted, or when the next commit conflicts. Returns the commit HEAD was on
    /// before the rebase began, and the files where putting back the stashed changes conflicted
    /// (`autostashConflicts(after:of:)`).
    /// Only a rebase onto the branch's upstream (what a pull makes) goes on: one of the user's
    /// own (`git rebase -i HEAD~3`) throws `unfinished`.
    func continueRebase(in state: String) throws(GitError) -> (before: String?, autostashConflicts: [String])
    {
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
        // The commit being applied: git names it REBASE_HEAD while a step is stopped.
        let applied =
            try run(["rev-parse", "--verify", "--quiet", "REBASE_HEAD"]).output
            .trimmingCharacters(in: .newlines)
        let applying = applied.isEmpty ? stateFile("stopped-sha") : applied
        let unmerged = try conflictedPaths()
        let stagedNames = try check([
            "diff", "--cached", "--name-only", "--no-relative", "--no-renames", "-z", "HEAD",
        ])
        let staged = stagedNames.stdout.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        var mended: [String] = []
        var removed: [String] = []
        var left: [String] = []
        for treePath in Set(unmerged + staged).sorted() {
            let path = vaultPath(treePath).flatMap { Vault.isNoteName($0) ? $0 : nil }
            let isUnmerged = unmerged.contains(treePath)
            guard let bytes = try? FileSystem.read(workTreeFile(treePath)).0 else {
                if let path, FileSystem.status(folder + "/" + path) == nil {
                    removed.append(path)
                } else if isUnmerged {
                    left.append(treePath)
                }
                continue
            }
            if try hasMarkersOfTheMerge(bytes, at: treePath, unmerged: isUnmerged, applying: applying) {
                left.append(treePath)
            } else if let path {
                mended.append(path)
            } else if isUnmerged {
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
        return (before, try autostashConflicts(after: result, of: "git rebase --continue"))
    }

    /// The files left unmerged by a pull or a `git rebase --continue` (`command`, which printed
    /// `result`) whose rebase finished: there, putting back the uncommitted changes stashed
    /// before the rebase (`--autostash`) conflicted, and git keeps them in the stash; git says
    /// so but exits 0. Throws what `stop` makes when the rebase itself stopped or the command
    /// failed.
    func autostashConflicts(after result: ProcessResult, of command: String) throws(GitError) -> [String] {
        if unfinishedOperation() == nil {
            let unmerged = try conflictedPaths()
            if !unmerged.isEmpty { return unmerged }
        }
        guard result.status == 0 else { throw try stop(after: result, of: command) }
        return []
    }

    /// Whether `bytes`, the work-tree file at `treePath` of a stopped rebase step, holds conflict
    /// markers the merge put there, beside the file's three versions: the index's stages while
    /// it is unmerged; once staged, HEAD's (ours), the commit being applied's (`applying`: theirs)
    /// and its parent's (the base). A file without marker lines needs no version read.
    private func hasMarkersOfTheMerge(
        _ bytes: [UInt8], at treePath: String, unmerged: Bool, applying: String?
    ) throws(GitError) -> Bool {
        guard !ConflictMarkers.markerLines(in: bytes).isEmpty else { return false }
        let (base, ours, theirs): (String?, String?, String?) =
            unmerged
            ? (":1:", ":2:", ":3:")
            : (applying.map { $0 + "^:" }, "HEAD:", applying.map { $0 + ":" })
        func version(_ revision: String?) throws(GitError) -> [UInt8] {
            guard let revision else { return [] }
            return try blob(revision + treePath) ?? []
        }
        return ConflictMarkers.introduced(
            in: bytes, base: try version(base), ours: try version(ours), theirs: try version(theirs))
    }

    /// The file at `treePath` (from the top of the work tree), reached from the vault's folder.
    private func workTreeFile(_ treePath: String) -> String {
        folder + "/" + String(repeating: "../", count: prefix.split(separator: "/").count) + treePath
    }

    /// The bytes of the blob `name` (`HEAD:a.md`, `:2:a.md`), or nil when there is none.
    private func blob(_ name: String) throws(GitError) -> [UInt8]? {
        let result = try run(["cat-file", "blob", name])
        return result.status == 0 ? result.stdout : nil
    }

    /// The vault's own files outside the template folder, which a clone needs to be the same vault.
    static let ownFiles = [MergeDriver.attributesPath, Vault.stateIgnorePath, Vault.settingsPath]

    /// Commits the vault's own files that git has changes to — `.gitattributes` (the merge
    /// driver's lines), `.notes/.gitignore` and `.notes/settings.json`, which make a clone the
    /// same vault, and the files of the template folder `templateFolder` (vault-relative; see
    /// `GitStatus.templateFiles`) — in a commit of their own; returns the files it committed.
    func commitVaultFiles(templateFolder: String? = nil) throws(GitError) -> [String] {
        let own = Self.ownFiles
        let status = try status()
        let changed = Set(status.entries.filter { !$0.isUnmerged }.map(\.path))
        var paths = own.filter { changed.contains($0) && FileSystem.status(folder + "/" + $0) != nil }
        if let templateFolder {
            paths += status.templateFiles(in: templateFolder, root: folder).filter { !paths.contains($0) }
        }
        guard var plan = CommitPlan(paths.map { Change.vaultFile($0) }) else { return [] }
        if paths == [MergeDriver.attributesPath] {
            plan.message = "notes: merge notes with the notes merge driver (.gitattributes)"
        }
        return try commit(plan) == .committed ? paths : []
    }

    /// Sets the repository's `merge.notes.driver` to `driver` (rewritten only when it differs, so
    /// that a binary that moved is found again), and sends the vault's notes through it from the
    /// repository's own attributes file too (`writeLocalAttributes`); returns the warning that
    /// file could not be written, if it could not.
    @discardableResult
    func setMergeDriver(_ driver: String) throws(GitError) -> String? {
        let warning = writeLocalAttributes()
        let current = try run(["config", "--local", "--get", MergeDriver.configKey]).output
        guard current.trimmingCharacters(in: .newlines) != driver else { return warning }
        try check(["config", "--local", MergeDriver.configKey, driver])
        try check([
            "config", "--local", "merge.notes.name",
            "notes: the later updatedAt, the earlier new createdAt, then a line merge",
        ])
        return warning
    }

    /// Adds the merge driver's lines for the vault's notes to the repository's own attributes
    /// file (`info/attributes` in the git folder), keeping what it holds. `.gitattributes` alone
    /// is not enough: a rebase reads the attributes of the trees it merges, and until both sides
    /// have committed `.gitattributes` (the first sync of a vault that had none), neither has the
    /// lines, so `updatedAt` would conflict. Git reads this file for every merge, and it is no
    /// file of the work tree: `git status` never shows it. A symlink there (a dotfiles setup) is
    /// followed, and the file it leads to written. Only a help for that first sync, so a file
    /// that cannot be written (a read-only git folder) is a warning, returned, not an error.
    func writeLocalAttributes() -> String? {
        guard
            var path = try? check(["rev-parse", "--git-path", "info/attributes"]).output
                .trimmingCharacters(in: .newlines)
        else { return nil }
        if !path.hasPrefix("/") { path = folder + "/" + path }
        // A chain of symlinks, followed as far as a few links go (a loop ends there and fails).
        for _ in 0..<8 {
            guard FileSystem.status(path)?.kind == .symlink,
                let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path)
            else { break }
            path = target.hasPrefix("/") ? target : FileSystem.parentFolder(of: path) + "/" + target
        }
        do {
            try FileSystem.makeDirectory(FileSystem.parentFolder(of: path))
            try MergeDriver.add(MergeDriver.localAttributeLines(prefix: prefix), toAttributesFile: path)
            return nil
        } catch {
            return "could not add the merge driver's lines to '\(path)' (\(error.localizedDescription)); "
                + "the first sync may then stop on 'updatedAt' conflicts until .gitattributes is committed on "
                + "both sides (add them by hand: \(MergeDriver.localAttributeLines(prefix: prefix).joined(separator: "; ")))"
        }
    }
}
