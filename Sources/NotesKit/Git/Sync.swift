import Foundation

/// What `notes sync` did.
public struct SyncReport: Equatable, Sendable {
    /// One note that came in with the pull.
    public struct Incoming: Equatable, Sendable {
        public enum Kind: String, Sendable { case added, changed, moved, deleted }
        public var kind: Kind
        /// The vault-relative path (where it is now; for a deleted note, where it was).
        public var path: String
        /// Its title, as the pulled branch has it (as it was, for a deleted note).
        public var title: String
        /// For a moved (renamed) note, the vault-relative path it had.
        public var from: String? = nil
    }

    /// The commit of the notes changed here, if there were any.
    public var committed: CommitPlan?
    /// The upstream branch (`origin/main`).
    public var upstream: String = ""
    /// The notes the pull brought, in path order.
    public var incoming: [Incoming] = []
    /// How many commits the pull brought (some may change no note).
    public var commitsIn = 0
    /// Whether the vault's own files (`.gitattributes`, `.notes/.gitignore`, `.notes/settings.json`)
    /// were committed.
    public var vaultFilesCommitted = false
    /// The files of the template folder that were committed (vault-relative), in order.
    public var templatesCommitted: [String] = []
    /// How many commits were pushed.
    public var pushed = 0
    /// The files (from the top of the work tree) where git's putting back of the uncommitted
    /// changes it had stashed for the pull (`--autostash`) conflicted: they are left unmerged,
    /// with markers, and the changes are still in the stash. Empty when it went well.
    public var autostashConflicts: [String] = []
    /// What went wrong without stopping the sync, as sentences.
    public var warnings: [String] = []
}

extension SyncReport {
    /// Records the vault's own files a commit of `sync` committed (`commitVaultFiles`).
    mutating func note(committedVaultFiles paths: [String]) {
        let own = GitRepository.ownFiles
        if paths.contains(where: own.contains) { vaultFilesCommitted = true }
        templatesCommitted += paths.filter { !own.contains($0) && !templatesCommitted.contains($0) }
    }
}

extension GitRepository {
    /// `notes sync`: commits the vault's pending note changes as auto-commit would, then
    /// `git pull --rebase --autostash` and `git push`, and says which notes came in. Notes merge
    /// through `mergeDriver` (the `merge.notes.driver` command, set when given, with the lines of
    /// the repository's own attributes file, so even this pull merges with it; `.gitattributes`
    /// is written and committed after the pull when it lacks the lines). A rebase that stops on a
    /// conflict throws `rebaseConflict` and leaves the repository as git left it; the next sync
    /// goes on with it once the notes hold no markers of the merge. When putting back the stashed
    /// uncommitted changes conflicts, the sync still finishes (what came in, the push) and says so
    /// in `autostashConflicts`; a later sync throws `unmergedFiles` until the user has resolved
    /// them. `committed` is called as soon as the local
    /// commit is made, so a sync that fails after it can still say so. `title` reads a note's
    /// title from its text; `attachments` gives the untracked files the notes link to, which are
    /// committed with them; so are the new, changed and removed files of `templateFolder`
    /// (vault-relative), with the vault's own files.
    public func sync(
        mergeDriver: String? = nil, templateFolder: String? = nil, title: (String, String) -> String,
        attachments: (GitStatus) -> [String] = { _ in [] },
        committed: (CommitPlan) -> Void = { _ in }
    ) throws(GitError) -> SyncReport {
        if FileSystem.status(gitDirectory + "/MERGE_HEAD") != nil { throw .unfinished("merge") }
        let driverWarning = try mergeDriver.flatMap { driver throws(GitError) in try setMergeDriver(driver) }
        let remotes = try check(["remote"]).output.split(separator: "\n")
        guard let firstRemote = remotes.first.map(String.init) else { throw .noRemote }
        var resumedFrom: String?
        var autostashConflicts: [String] = []
        if FileSystem.status(gitDirectory + "/rebase-apply") != nil { throw .unfinished("rebase") }
        if FileSystem.status(gitDirectory + "/rebase-merge") != nil {
            (resumedFrom, autostashConflicts) = try continueRebase(in: "rebase-merge")
        }
        if autostashConflicts.isEmpty {
            for (head, what) in [("CHERRY_PICK_HEAD", "cherry-pick"), ("REVERT_HEAD", "revert")]
            where FileSystem.status(gitDirectory + "/" + head) != nil {
                throw .unfinished(what)
            }
            // Unmerged files with no rebase, merge or cherry-pick going on: a `git stash pop` (or
            // a sync's autostash) that conflicted. A pull would refuse to run.
            let unmerged = try conflictedPaths()
            if !unmerged.isEmpty { throw .unmergedFiles(unmerged) }
        }
        let status = try status()
        let branchResult = try run(["symbolic-ref", "--quiet", "--short", "HEAD"])
        guard branchResult.status == 0 else { throw .detachedHead }
        let branch = branchResult.output.trimmingCharacters(in: .newlines)

        var report = SyncReport()
        report.warnings = driverWarning.map { [$0] } ?? []
        // The vault's own files first, in a commit of their own: a pull may bring them too, and
        // a rebase that stops on a note then has them in place already.
        report.note(committedVaultFiles: try commitVaultFiles(templateFolder: templateFolder))
        let pending =
            status.noteChanges(exists: { FileSystem.status(folder + "/" + $0) != nil })
            + attachments(status).map { Change.added($0) }
        if let plan = CommitPlan(pending),
            try commit(plan) == .committed
        {
            report.committed = plan
            committed(plan)
        }
        let upstream = try run(["rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{upstream}"])
        guard upstream.status == 0 else {
            let remote = try run(["config", "--get", "branch.\(branch).pushRemote"]).output
                .trimmingCharacters(in: .newlines)
            throw .noUpstream(branch: branch, remote: remote.isEmpty ? firstRemote : remote)
        }
        report.upstream = upstream.output.trimmingCharacters(in: .newlines)
        // After a rebase this sync went on with, what came in counts from before that rebase.
        var before = resumedFrom
        if before == nil, try hasHead() {
            before = try check(["rev-parse", "HEAD"]).output.trimmingCharacters(in: .newlines)
        }

        // After a rebase this sync went on with and whose stash conflicted, a pull would refuse
        // to run over the unmerged files: what came in is what that rebase brought.
        if autostashConflicts.isEmpty {
            let pull = try run(["pull", "--rebase", "--autostash"])
            autostashConflicts = try self.autostashConflicts(after: pull, of: "git pull")
        }
        report.autostashConflicts = autostashConflicts
        do {
            try MergeDriver.writeAttributes(in: folder)
        } catch {
            throw .failed(command: "notes sync", message: error.localizedDescription)
        }
        report.note(committedVaultFiles: try commitVaultFiles(templateFolder: templateFolder))
        let tip = try check(["rev-parse", "@{upstream}"]).output.trimmingCharacters(in: .newlines)
        report.incoming = try incoming(since: before, to: tip, title: title)
        report.commitsIn =
            Int(
                try check(["rev-list", "--count", tip] + (before.map { ["^" + $0] } ?? [])).output
                    .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0

        let ahead =
            Int(
                try check(["rev-list", "--count", "@{upstream}..HEAD"]).output
                    .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        if ahead > 0 {
            let push = try run(["push"])
            guard push.status == 0 else { throw .failed(command: "git push", message: push.errorText) }
            report.pushed = ahead
        }
        return report
    }

    /// The notes of the vault that `tip` changed since the last commit it shares with `before`
    /// (all of them when there was no commit before). A note moved there (at least 90% similar,
    /// as `history` follows them, so two notes that merely look alike are never one) is `moved`;
    /// one moved out of the vault or to a name that is no note's is `deleted`, and one moved in,
    /// `added`. Titles are read from `tip`'s versions (the base's, for a deleted note), never from
    /// the work tree, which may hold a note that this clone moved or deleted meanwhile, or its
    /// uncommitted changes.
    private func incoming(
        since before: String?, to tip: String, title: (String, String) -> String
    ) throws(GitError) -> [SyncReport.Incoming] {
        let base: String
        if let before {
            base = try check(["merge-base", before, tip]).output.trimmingCharacters(in: .newlines)
        } else {
            // The empty tree, in whatever hash the repository uses.
            base = try check(["hash-object", "-t", "tree", "--stdin"], input: []).output.trimmingCharacters(
                in: .newlines)
        }
        guard base != tip else { return [] }
        let fields = try check([
            "diff", "--name-status", "--no-relative", "-M90%", "-z", base, tip, "--", ".",
        ]).stdout
            .split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        // The vault-relative path of a note's work-tree path; nil for a file that is no note.
        func notePath(_ treePath: String) -> String? {
            guard let path = vaultPath(treePath), GitStatus.isNote(path) else { return nil }
            return path
        }
        // Each note that came in, and the blob its title is read from (`<commit>:<tree path>`).
        var changes: [(note: SyncReport.Incoming, blob: String)] = []
        func add(_ kind: SyncReport.Incoming.Kind, _ path: String, from: String? = nil, blob: String) {
            changes.append((SyncReport.Incoming(kind: kind, path: path, title: "", from: from), blob))
        }
        var i = 0
        while i + 1 < fields.count {
            let letter = fields[i].first
            // A rename: `R<similarity>`, the old path, the new one.
            if letter == "R", i + 2 < fields.count {
                let (old, new) = (fields[i + 1], fields[i + 2])
                i += 3
                switch (notePath(old), notePath(new)) {
                case (let from?, let path?): add(.moved, path, from: from, blob: tip + ":" + new)
                case (nil, let path?): add(.added, path, blob: tip + ":" + new)
                case (let from?, nil): add(.deleted, from, blob: base + ":" + old)
                case (nil, nil): break
                }
                continue
            }
            let treePath = fields[i + 1]
            i += 2
            guard let path = notePath(treePath) else { continue }
            switch letter {
            case "A": add(.added, path, blob: tip + ":" + treePath)
            case "D": add(.deleted, path, blob: base + ":" + treePath)
            default: add(.changed, path, blob: tip + ":" + treePath)
            }
        }
        // In path order, a moved note by where it is now (git lists it by neither path alone).
        changes.sort { $0.note.path < $1.note.path }
        // The texts 256 at a time, each let go of once its title is read: a pull of a whole
        // vault never holds all its notes at once.
        var notes: [SyncReport.Incoming] = []
        for start in stride(from: 0, to: changes.count, by: 256) {
            let chunk = changes[start..<min(start + 256, changes.count)]
            for (change, text) in zip(chunk, try blobTexts(chunk.map(\.blob))) {
                var note = change.note
                note.title = title(note.path, text ?? "")
                notes.append(note)
            }
        }
        return notes
    }

    /// The texts of the blobs `names` (`<commit>:<tree path>`), all from one
    /// `git cat-file --batch`, in order; nil for one that is missing or is no blob, and for a name
    /// holding a line break, which the batch cannot be asked.
    private func blobTexts(_ names: [String]) throws(GitError) -> [String?] {
        let asked = names.filter { !$0.contains(where: \.isNewline) }
        guard !asked.isEmpty else { return names.map { _ in nil } }
        let out = try check(["cat-file", "--batch"], input: Array(asked.map { $0 + "\n" }.joined().utf8))
            .stdout
        var texts: [String: String] = [:]
        var cursor = out.startIndex
        for name in asked {
            guard let newline = out[cursor...].firstIndex(of: 0x0A) else { break }
            // `<object> blob <size>`, then the bytes and a line break; `<name> missing` alone.
            let header = String(decoding: out[cursor..<newline], as: UTF8.self).split(separator: " ")
            cursor = newline + 1
            guard header.count == 3, let size = Int(header[2]), size >= 0, size <= out.endIndex - cursor
            else { continue }
            if header[1] == "blob" {
                texts[name] = String(decoding: out[cursor..<(cursor + size)], as: UTF8.self)
            }
            cursor = min(cursor + size + 1, out.endIndex)
        }
        return names.map { texts[$0] }
    }
}
