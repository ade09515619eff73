import Foundation

/// The git work tree a vault is in, driven through the `git` command: MyNotes never
/// reimplements git. Git runs in the vault's folder with literal pathspecs (a note named `*.md`
/// names that file, not every note) and every path after `--`; paths in and out are
/// vault-relative.
public struct GitRepository: Sendable {
    /// The vault's folder, where git runs.
    public let folder: String
    /// The vault's path inside the work tree, `""` or ending in `/` (`notes/`).
    public let prefix: String
    /// The absolute path of the repository's git folder.
    public let gitDirectory: String
    /// The `git` executable.
    let git: String
    /// The environment git runs in (the user's: identity, credentials, pager settings).
    let environment: [String: String]

    /// The repository whose work tree holds `folder`. Throws `notInstalled` without git and
    /// `notARepository` outside a work tree.
    public static func open(at folder: String, environment: [String: String]) throws(GitError)
        -> GitRepository
    {
        guard let git = ProcessRunner.find("git", path: environment["PATH"]) else { throw .notInstalled }
        var english = environment
        english["LC_ALL"] = "C"
        let result: ProcessResult
        do {
            result = try ProcessRunner.run(
                git,
                ["-C", folder, "rev-parse", "--is-inside-work-tree", "--show-prefix", "--absolute-git-dir"],
                environment: english)
        } catch {
            throw .notInstalled
        }
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard result.status == 0, lines.count >= 3, lines[0] == "true" else {
            if result.status == 0 || result.errorText.contains("not a git repository") {
                throw .notARepository(folder)
            }
            throw .failed(command: "git rev-parse", message: result.errorText)
        }
        return GitRepository(
            folder: folder, prefix: lines[1], gitDirectory: lines[2], git: git, environment: environment)
    }

    /// Runs `git <arguments>` in the vault's folder and returns what it did, whatever its status.
    public func run(_ arguments: [String], input: [UInt8]? = nil) throws(GitError) -> ProcessResult {
        do {
            // Reading commands take no optional lock, so they never get in the way of the user's git.
            return try ProcessRunner.run(
                git, ["--no-optional-locks", "--literal-pathspecs", "-C", folder] + arguments,
                environment: environment, input: input)
        } catch {
            throw .notInstalled
        }
    }

    /// Runs `git <arguments>`; a non-zero status is `failed` with git's message.
    @discardableResult
    public func check(_ arguments: [String], input: [UInt8]? = nil) throws(GitError) -> ProcessResult {
        let result = try run(arguments, input: input)
        guard result.status == 0 else {
            throw .failed(command: "git " + (arguments.first ?? ""), message: result.errorText)
        }
        return result
    }

    /// A work-tree path (as git prints it, from the top) as a vault-relative one; nil outside the vault.
    public func vaultPath(_ treePath: String) -> String? {
        guard treePath.hasPrefix(prefix) else { return nil }
        return String(treePath.dropFirst(prefix.count))
    }

    // MARK: Status

    /// The vault's changes not committed yet, from one `git status --porcelain -z`: every
    /// untracked file listed by itself (`-uall`), paths vault-relative.
    public func status() throws(GitError) -> GitStatus {
        let result = try check(["status", "--porcelain", "-z", "--untracked-files=all", "--", "."])
        return GitStatus(parsing: result.stdout, prefix: prefix)
    }

    // MARK: Committing

    /// What a commit attempt did.
    public enum CommitOutcome: Equatable, Sendable {
        /// A commit was made.
        case committed
        /// The files hold what HEAD has (or git knows none of them): nothing to commit.
        case nothingToCommit
    }

    /// Commits exactly the plan's paths: `git add --` the files that exist, then `git commit --`
    /// those and the removed ones git knows, so that nothing else the user changed or staged goes
    /// into the commit (never `git add -A`). A refusal (no identity, a hook) throws `failed`.
    public func commit(_ plan: CommitPlan) throws(GitError) -> CommitOutcome {
        let existing = plan.paths.filter { FileSystem.status(folder + "/" + $0) != nil }
        let gone = plan.paths.filter { !existing.contains($0) }
        var targets = existing
        if !gone.isEmpty {
            // A removed file that git never tracked is nothing to commit (and an unknown pathspec
            // to it). `ls-files` prints paths relative to where it runs: the vault's folder.
            let known = Set(
                try check(["ls-files", "-z", "--"] + gone).stdout.split(separator: 0)
                    .map { String(decoding: $0, as: UTF8.self) })
            targets += gone.filter { known.contains($0) }
        }
        guard !targets.isEmpty else { return .nothingToCommit }
        let deadline = Date().addingTimeInterval(GitRepository.indexLockWait)
        if !existing.isEmpty { try writingIndex(["add", "--"] + existing, until: deadline) }
        if try hasHead(), try run(["diff", "--quiet", "HEAD", "--"] + targets).status == 0 {
            return .nothingToCommit
        }
        try writingIndex(["commit", "--quiet", "-m", plan.message, "--"] + targets, until: deadline)
        return .committed
    }

    /// How long, in seconds, a commit waits for another git's `index.lock` to go.
    static let indexLockWait = 10.0

    /// `check` for a command that writes git's index: while another git holds `index.lock`, it
    /// waits for the lock to go (until `deadline`) and then tries again, instead of failing at once
    /// as git does. git offers no wait of its own, so the lock file's existence is polled.
    @discardableResult
    func writingIndex(_ arguments: [String], until deadline: Date) throws(GitError) -> ProcessResult {
        let lock = gitDirectory + "/index.lock"
        var traced = false
        while true {
            while FileSystem.status(lock) != nil && Date() < deadline {
                if !traced { Trace.mark("git: waiting for index.lock") }
                traced = true
                usleep(5000)
            }
            let result = try run(arguments)
            if result.status == 0 { return result }
            guard result.errorText.contains("index.lock"), Date() < deadline else {
                throw .failed(command: "git " + (arguments.first ?? ""), message: result.errorText)
            }
        }
    }

    /// What git has left unfinished in the work tree — `"rebase"` or `"merge"` — or nil.
    public func unfinishedOperation() -> String? {
        for (marker, what) in [
            ("rebase-merge", "rebase"), ("rebase-apply", "rebase"), ("MERGE_HEAD", "merge"),
        ]
        where FileSystem.status(gitDirectory + "/" + marker) != nil {
            return what
        }
        return nil
    }

    /// Whether HEAD names a commit (false in a repository with no commit yet).
    public func hasHead() throws(GitError) -> Bool {
        try run(["rev-parse", "--quiet", "--verify", "HEAD"]).status == 0
    }

    // MARK: History

    /// One commit of a note's history.
    public struct Commit: Equatable, Sendable {
        public var hash: String
        /// The author date, seconds since 1970.
        public var date: Double
        public var author: String
        public var subject: String
        /// The note's changes in this commit (a unified diff), with `patch`.
        public var patch: String?
    }

    /// The commits that changed the note at a vault-relative path, newest first, following it
    /// through renames; with `patch`, each with its diff. Not `git log --follow`: that always looks
    /// for copies too, so a small note that looks like another (`C085 a.md b.md`) would show the
    /// other's commits. Here each stretch of history is `git log` of one path, and where the note
    /// was added, a rename to it at least 90% similar (`-M90%`, no copies) leads to its old path.
    public func history(of path: String, patch: Bool) throws(GitError) -> [Commit] {
        guard try hasHead() else { return [] }
        var commits: [Commit] = []
        var (current, start) = (path, "HEAD")
        var seen: Set<String> = []
        while true {
            var stretch = try log(start, paths: [current], patch: patch)
            guard let oldest = stretch.last, seen.insert(oldest.hash).inserted,
                let source = try renameSource(of: current, in: oldest.hash)
            else {
                commits += stretch
                break
            }
            if patch,
                let renamed = try log(oldest.hash, paths: [source, current], patch: true, count: 1).first
            {
                stretch[stretch.count - 1] = renamed
            }
            commits += stretch
            guard try run(["rev-parse", "--quiet", "--verify", oldest.hash + "^"]).status == 0 else { break }
            (current, start) = (source, oldest.hash + "^")
        }
        return commits
    }

    /// The vault-relative path that `commit` renamed (at least 90% similar, never a copy) to the
    /// vault-relative `path`; nil when it did not, or the old path is outside the vault.
    private func renameSource(of path: String, in commit: String) throws(GitError) -> String? {
        let fields = try check([
            "diff-tree", "-r", "-z", "--root", "--no-commit-id", "--name-status", "-M90%",
            "--diff-filter=R", commit,
        ]).stdout.split(separator: 0, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        var i = 0
        while i + 2 < fields.count {
            let (old, new) = (fields[i + 1], fields[i + 2])
            i += 3
            if new == prefix + path { return vaultPath(old) }
        }
        return nil
    }

    /// `git log` from `start` of the commits that changed `paths`, newest first.
    private func log(_ start: String, paths: [String], patch: Bool, count: Int? = nil) throws(GitError)
        -> [Commit]
    {
        var arguments = ["log", "--no-follow", "--no-color", "-M90%", "--format=%x1e%H%x1f%at%x1f%an%x1f%s"]
        if let count { arguments.append("--max-count=\(count)") }
        if patch { arguments.append("--patch") }
        let result = try check(arguments + [start, "--"] + paths)
        return result.stdout.split(separator: 0x1E).compactMap { record -> Commit? in
            let text = String(decoding: record, as: UTF8.self)
            let header = text.prefix { $0 != "\n" }
            let fields = header.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 4, let seconds = Double(fields[1]) else { return nil }
            let rest = text.dropFirst(header.count).drop { $0 == "\n" }
            return Commit(
                hash: fields[0], date: seconds, author: fields[2], subject: fields[3],
                patch: patch ? String(rest) : nil)
        }
    }
}

/// What `git status --porcelain -z` says of the vault's files.
public struct GitStatus: Equatable, Sendable {
    /// One changed path: the index and work-tree columns (`?` for untracked, `U` for unmerged…).
    public struct Entry: Equatable, Sendable {
        public var index: UInt8
        public var workTree: UInt8
        /// The vault-relative path.
        public var path: String
        /// For a rename or copy, where it came from (vault-relative; nil outside the vault).
        public var source: String?

        /// Whether git is in the middle of merging this path (`DD`, `AU`, `UD`, `UA`, `DU`, `AA`, `UU`).
        public var isUnmerged: Bool {
            let (x, y) = (Character(UnicodeScalar(index)), Character(UnicodeScalar(workTree)))
            return x == "U" || y == "U" || (x == "A" && y == "A") || (x == "D" && y == "D")
        }
    }

    /// The entries inside the vault.
    public var entries: [Entry]

    /// Parses porcelain v1 `-z` output (`XY PATH\0`, and `XY NEW\0OLD\0` for a rename or copy),
    /// keeping the paths under `prefix` (the vault's place in the work tree) without it.
    public init(parsing bytes: [UInt8], prefix: String) {
        entries = []
        let fields = bytes.split(separator: 0, omittingEmptySubsequences: false)
        var i = 0
        while i < fields.count {
            let field = fields[i]
            i += 1
            guard field.count > 3 else { continue }
            let x = field[field.startIndex]
            let y = field[field.startIndex + 1]
            let path = String(decoding: field.dropFirst(3), as: UTF8.self)
            var source: String?
            if x == UInt8(ascii: "R") || x == UInt8(ascii: "C") || y == UInt8(ascii: "R")
                || y == UInt8(ascii: "C"),
                i < fields.count
            {
                source = String(decoding: fields[i], as: UTF8.self)
                i += 1
            }
            guard path.hasPrefix(prefix) else { continue }
            let inside = source.flatMap { $0.hasPrefix(prefix) ? String($0.dropFirst(prefix.count)) : nil }
            entries.append(
                Entry(index: x, workTree: y, path: String(path.dropFirst(prefix.count)), source: inside))
        }
    }

    /// Every vault-relative path with uncommitted changes (a rename's both ends).
    public var dirtyPaths: Set<String> {
        Set(entries.flatMap { [$0.path] + ($0.source.map { [$0] } ?? []) })
    }

    /// Whether a vault-relative path is a note's: a visible `.md`/`.markdown` file.
    static func isNote(_ path: String) -> Bool {
        Vault.isNoteName(path) && !path.split(separator: "/").contains { $0.hasPrefix(".") }
    }

    /// The files of the vault-relative template folder `folder` that git has uncommitted changes
    /// to (new, changed, removed; both ends of a rename in it), which `sync` and `init` commit as
    /// the vault's own, so that a clone has the templates too. Notes in a visible template folder
    /// are left out (they are committed as notes), and so are the files the vault's `.ignore` and
    /// `.gitignore` files ignore (`root`, the vault's folder; git lists no file its own rules
    /// ignore). Nothing for a folder that is the vault's top or leads out of it.
    public func templateFiles(in folder: String, root: String) -> [String] {
        let top = Vault.normalized(folder)
        guard !top.isEmpty, top != ".", top != "..", !top.hasPrefix("../") else { return [] }
        func wanted(_ path: String) -> Bool {
            path.hasPrefix(top + "/") && !Self.isNote(path)
                && IgnoreRules.rule(ignoring: path, isDirectory: false, root: root) == nil
        }
        var paths: [String] = []
        for entry in entries where !entry.isUnmerged {
            for path in [entry.path] + (entry.source.map { [$0] } ?? []) where wanted(path) {
                if !paths.contains(path) { paths.append(path) }
            }
        }
        return paths
    }

    /// The uncommitted changes to note files (visible `.md`/`.markdown` files) as change records,
    /// for `sync` to commit as auto-commit would. `exists` says whether a path is on disk.
    public func noteChanges(exists: (String) -> Bool) -> [Change] {
        let isNote = Self.isNote
        return entries.compactMap { entry -> Change? in
            guard isNote(entry.path), !entry.isUnmerged else { return nil }
            if let source = entry.source, isNote(source) { return .moved(from: source, to: entry.path) }
            if !exists(entry.path) { return .removed(entry.path) }
            if entry.index == UInt8(ascii: "?") || entry.index == UInt8(ascii: "A") {
                return .added(entry.path)
            }
            return .modified(entry.path)
        }
    }
}
