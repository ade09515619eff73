import Foundation

/// A folder of Markdown notes: walking it, reading notes, creating, rewriting and
/// trashing them. Every write is atomic.
public struct Vault: Sendable {
    /// The vault's path as the user gave it (used in messages and warnings).
    public let root: String
    /// The canonical absolute path of the vault (symlinks resolved), for containment checks.
    public let canonicalRoot: String
    /// Where notes' titles come from (the `titleFrom` setting).
    public var titleSource: TitleSource = .content
    /// How new notes' files are named (the `fileNames` setting).
    public var fileNaming: FileNaming = .slug
    /// Whether an index reads notes in batches (`FileBatch`) where the system allows it; tests turn
    /// it off to compare with reading them one by one.
    var readsInBatches = FileRing.allowed
    /// How long a folder must have been left alone for a survey to keep what it listed
    /// (`FolderListing.settle`); tests shorten it, having nothing else change their folders.
    var folderSettle = FolderListing.settle

    /// Opens an existing vault folder; throws `vaultMissing` when there is no such folder.
    public init(root: String) throws(VaultError) {
        var trimmed = root
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard FileSystem.status(trimmed) != nil else { throw .vaultMissing(root) }
        guard let canonical = FileSystem.realPath(trimmed), FileSystem.status(canonical)?.kind == .directory
        else { throw .notAFolder(root) }
        // A vault that cannot be listed would look empty: a failure, not zero notes.
        let folder = open(canonical, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else {
            throw .io(
                path: root,
                reason:
                    "the vault folder cannot be read (\(String(cString: strerror(errno)))); check its permissions"
            )
        }
        close(folder)
        self.root = trimmed
        canonicalRoot = canonical
    }

    /// Whether the vault is also an Obsidian vault: it has an `.obsidian/` folder at its top. Its
    /// links then resolve by Obsidian's rules only (`LinkRules.obsidian`).
    public var isObsidianVault: Bool { Vault.isObsidian(at: root) }

    /// Which steps resolve a link here.
    var linkRules: LinkRules { isObsidianVault ? .obsidian : .all }

    /// The tool's local state folder, `<vault>/.notes`.
    public var stateDirectory: String { root + "/.notes" }
    /// The trash folder.
    public var trashDirectory: String { stateDirectory + "/trash" }

    /// The lines of `.notes/.gitignore`: everything in the state folder is ignored except this file
    /// and the vault's settings, which are committed, so that a clone of the vault is a vault.
    public static let stateIgnoreLines = ["*", "!.gitignore", "!settings.json"]

    /// The vault-relative path of the state folder's `.gitignore`.
    public static let stateIgnorePath = ".notes/.gitignore"
    /// The vault-relative path of the vault's settings, `.notes/settings.json`.
    public static let settingsPath = ".notes/settings.json"

    /// The text of a new `.notes/.gitignore`.
    static var stateIgnoreText: String { stateIgnoreLines.joined(separator: "\n") + "\n" }

    /// What an existing `.notes/.gitignore` holding `text` should hold instead, or nil when it is up
    /// to date: `*` followed by the two exceptions. Other lines (the user's) are kept, and the three
    /// lines come last, in that order, so nothing earlier undoes them.
    static func upToDateStateIgnore(_ text: String) -> String? {
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        if let star = lines.lastIndex(of: "*"),
            Vault.stateIgnoreLines.dropFirst().allSatisfy({ lines[star...].contains($0) })
        {
            return nil
        }
        var kept = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).filter {
            !Vault.stateIgnoreLines.contains($0.trimmingCharacters(in: .whitespaces))
        }
        while kept.last?.allSatisfy(\.isWhitespace) == true { kept.removeLast() }
        return kept.map { $0 + "\n" }.joined() + stateIgnoreText
    }

    /// What `prepareState(at:)` did.
    public struct StateSetup: Equatable, Sendable {
        /// Whether `.notes/` was made (false when the folder was a vault already).
        public var madeStateFolder: Bool
        /// Whether `.notes/.gitignore` was written (made, or an old one brought up to date).
        public var wroteIgnore: Bool
    }

    /// Makes `path` a vault: creates it and `.notes/` with its `.gitignore` (`*`, `!.gitignore`,
    /// `!settings.json`), so that none of the tool's state is ever committed but the vault's
    /// settings are. A `.gitignore` there that is not up to date (an older one-line `*`, one
    /// edited, or one brought by a clone) is brought up to date.
    public static func prepareState(at path: String) throws(VaultError) -> StateSetup {
        let state = path + "/.notes"
        if let status = FileSystem.status(state), status.kind != .directory {
            throw .stateNotAFolder(state)
        }
        let existed = FileSystem.status(state)?.kind == .directory
        let folderExisted = FileSystem.status(path) != nil
        try VaultError.mapping(FileSystem.makeDirectory(state))
        let ignore = state + "/.gitignore"
        if FileSystem.status(ignore) == nil {
            do {
                try FileSystem.writeAtomically(Array(stateIgnoreText.utf8), to: ignore)
            } catch {
                // A full disk: take back the folders just made (empty, so `rmdir` takes nothing else).
                if !existed { rmdir(state) }
                if !folderExisted { rmdir(path) }
                throw VaultError(error)
            }
            return StateSetup(madeStateFolder: !existed, wroteIgnore: true)
        }
        if let (bytes, _) = try? FileSystem.read(ignore), let text = String(validating: bytes, as: UTF8.self),
            let upToDate = upToDateStateIgnore(text)
        {
            try VaultError.mapping(FileSystem.writeAtomically(Array(upToDate.utf8), to: ignore))
            return StateSetup(madeStateFolder: !existed, wroteIgnore: true)
        }
        return StateSetup(madeStateFolder: !existed, wroteIgnore: false)
    }

    /// `prepareState(at:)`, returning whether `.notes/` was made (false when it already was a vault).
    @discardableResult
    public static func initialize(at path: String) throws(VaultError) -> Bool {
        try prepareState(at: path).madeStateFolder
    }

    /// The full path of a vault-relative path.
    public func fullPath(_ relative: String) -> String { root + "/" + relative }

    // MARK: Reading

    /// Every note file's vault-relative path: `*.md` and `*.markdown` at any depth, skipping
    /// hidden names and never following symlinks.
    public func notePaths() -> [String] { walk().notes.map(\.path) }

    /// The note files (see `notePaths`) with their status as the walk found them, and a diagnostic
    /// for each folder that could not be read.
    public func walk() -> (notes: [(path: String, status: FileStatus)], diagnostics: [Diagnostic]) {
        let survey = survey(against: nil)
        return (survey.stale.compactMap { file in file.status.map { (file.path, $0) } }, survey.diagnostics)
    }

    /// Whether a file name is a note's (`.md` or `.markdown`).
    public static func isNoteName(_ name: String) -> Bool {
        // By bytes, as the walk decides it (`Survey.swift`), so both always agree.
        var name = name
        return name.withUTF8 { isNoteName(UnsafeRawBufferPointer($0)) }
    }

    /// Reads and parses the note at a vault-relative path (opened relative to `root`, the vault
    /// folder open, when given; `keepingAccessTime` for the index's reads, see `FileSystem.read`).
    public func load(path relative: String, relativeTo root: Int32? = nil, keepingAccessTime: Bool = false)
        throws(VaultError) -> LoadedNote
    {
        let full = fullPath(relative)
        let (bytes, status) = try VaultError.mapping(
            FileSystem.read(
                root == nil ? full : relative, relativeTo: root, named: full,
                keepingAccessTime: keepingAccessTime))
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .notUTF8(full) }
        let document = NoteDocument(parsing: text)
        let note = Note(
            path: relative, document: document, mtime: status.mtimeSeconds, titleFrom: titleSource)
        let diagnostics = (document.warnings + document.dateWarnings()).sorted { $0.line < $1.line }.map {
            Diagnostic(path: full, line: $0.line, message: $0.message)
        }
        return LoadedNote(
            note: note, document: document, bytes: bytes, status: status, diagnostics: diagnostics)
    }

    // MARK: Resolving IDs

    /// The index of the one item `argument` names: exact ID or path · unique file name (without
    /// its extension; exactly, else ignoring case as `[[links]]` do, `CaselessName`) · unique ID
    /// prefix · unique title or alias (case- and accent-insensitive; `foldedAliases` gives them folded
    /// already, asked only when the steps before found nothing). Nil when nothing matches; throws when several do.
    static func match(
        _ argument: String, ids: [String], paths: [String], titles: [String],
        foldedAliases: () -> [[String]] = { [] }
    ) throws(VaultError) -> Int? {
        // "" is a prefix of every ID: it would pick the only note of a vault (`notes rm "$UNSET"`).
        guard !argument.isEmpty else { return nil }
        if let exact = ids.indices.first(where: { ids[$0] == argument || paths[$0] == argument }) {
            return exact
        }
        // Conflict copies never make a name ambiguous: beside the note they are copies of (or any
        // other note that is not a copy) they drop out, and each is still reached by its own ID.
        func withoutCopies(_ candidates: [Int]) -> [Int] {
            guard candidates.count > 1 else { return candidates }
            let originals = candidates.filter { ConflictCopy(path: paths[$0]) == nil }
            return originals.isEmpty ? candidates : originals
        }
        // A file name, as a `[[link]]` names a note: `Backlinks` for `en/Plugins/Backlinks.md`.
        var named = withoutCopies(ids.indices.filter { Note.fileTitle(paths[$0]) == argument })
        if named.isEmpty {
            let caseless = CaselessName.key(argument)
            named = withoutCopies(
                ids.indices.filter { CaselessName.key(Note.fileTitle(paths[$0])) == caseless })
        }
        if named.count == 1 { return named[0] }
        if named.count > 1 { throw .ambiguous(argument, candidates: named.map { ids[$0] }.sorted()) }
        let prefixed = withoutCopies(ids.indices.filter { ids[$0].hasPrefix(argument) })
        if prefixed.count == 1 { return prefixed[0] }
        if prefixed.count > 1 { throw .ambiguous(argument, candidates: prefixed.map { ids[$0] }.sorted()) }
        let folded = TextFolding.fold(argument)
        let foldedAliases = foldedAliases()
        let titled = withoutCopies(
            titles.indices.filter { i in
                TextFolding.fold(titles[i]) == folded
                    || (i < foldedAliases.count && foldedAliases[i].contains(folded))
            })
        if titled.count == 1 { return titled[0] }
        if titled.count > 1 { throw .ambiguous(argument, candidates: titled.map { ids[$0] }.sorted()) }
        return nil
    }

    /// The vault-relative path of the note file that `argument` names exactly — as an ID
    /// (`work/standup`), or as a path relative to `cwd` or to the vault, or absolute — or nil when
    /// it names no file, so that a prefix or title lookup comes next. This is the one routine that
    /// keeps arguments inside the vault: a path that leaves it (`..`, an absolute path elsewhere)
    /// or goes through a symlink (to a file, or a folder on the way) is refused with `outsideVault`.
    public func notePath(naming argument: String, cwd: String) throws(VaultError) -> String? {
        guard !argument.isEmpty else { return nil }
        let components = argument.split(separator: "/", omittingEmptySubsequences: false)
        let explicit = argument.hasPrefix("/") || components.contains("..") || components.first == "."
        if !explicit && components.allSatisfy({ !$0.isEmpty && !$0.hasPrefix(".") }) {
            // An ID or a vault-relative path: only that file is looked at.
            for candidate in [argument + ".md", argument] where Vault.isNoteName(candidate) {
                guard let kind = FileSystem.status(fullPath(candidate))?.kind, kind != .directory else {
                    continue
                }
                return try contained(fullPath(candidate), argument: argument, mustBeInside: true)
            }
        }
        guard explicit || Vault.isNoteName(argument) || argument.contains("/") else { return nil }
        let candidates = argument.hasPrefix("/") ? [argument] : [cwd + "/" + argument, root + "/" + argument]
        for candidate in candidates {
            guard let status = FileSystem.status(candidate), status.kind != .directory else { continue }
            // A path written plainly (`sub/x.md`) may name a file beside cwd that is not ours.
            if let relative = try contained(candidate, argument: argument, mustBeInside: explicit) {
                return relative
            }
        }
        if explicit {
            // Nothing exists there: still refuse a path that would leave the vault.
            let lexical = Vault.normalized(argument.hasPrefix("/") ? argument : root + "/" + argument)
            if !lexical.hasPrefix(Vault.normalized(root) + "/") { throw .outsideVault(argument) }
            throw .noMatch(argument)
        }
        return nil
    }

    /// The vault-relative path for a note about to be moved (or made) at `argument`:
    /// an ID read from the top of the vault (`archive/idea`; `.md` is added unless it ends in
    /// `.md` or `.markdown`) or an absolute path inside the vault; ending in `/`, or naming a
    /// folder, it means that folder and the file name `name`. Like `notePath(naming:cwd:)`, it
    /// keeps the path inside the vault: `..` that leaves it, an absolute path elsewhere, or a
    /// symlink among the folders on the way is `outsideVault`; a hidden folder is `hiddenFolder`,
    /// a hidden file name `hiddenName`, a file among the folders an I/O error; anything already at
    /// the path is `alreadyExists` — unless it is the note at `from` itself, in another case, on
    /// a file system that ignores case. Missing folders are for the caller to make.
    public func notePath(forNew argument: String, name: String, replacing from: String? = nil)
        throws(VaultError)
        -> String
    {
        guard !argument.isEmpty else { throw .noMatch(argument) }
        var relative: String
        if argument.hasPrefix("/") {
            let lexical = Vault.normalized(argument)
            let tops = [Vault.normalized(root), canonicalRoot]
            guard let top = tops.first(where: { lexical == $0 || lexical.hasPrefix($0 + "/") }) else {
                throw .outsideVault(argument)
            }
            relative = String(String(lexical.dropFirst(top.count)).drop { $0 == "/" })
        } else {
            relative = Vault.normalized(argument)
            if relative == ".." || relative.hasPrefix("../") { throw .outsideVault(argument) }
        }
        if argument.hasSuffix("/") || relative.isEmpty
            || FileSystem.status(fullPath(relative))?.kind == .directory
        {
            relative = relative.isEmpty ? name : relative + "/" + name
        }
        if !Vault.isNoteName(relative) { relative += ".md" }
        let folder = FileSystem.parentFolder(of: relative)
        try checkFolder(folder, argument: argument)
        guard !(relative as NSString).lastPathComponent.hasPrefix(".") else { throw .hiddenName(argument) }
        try checkNotIgnored(relative, isDirectory: false, argument: argument)
        if FileSystem.status(fullPath(relative)) != nil,
            !(from.map { isSameFile($0, inAnotherCaseAs: relative) } ?? false)
        {
            throw .alreadyExists(Note.id(forPath: relative))
        }
        return relative
    }

    /// The vault-relative path a note that is not in the vault (a deleted one, whose history git
    /// still has) would have at `argument`: an ID or a vault-relative path, `.md` added unless it
    /// names a note file. Nil for an absolute path or one with `..`, which could leave the vault.
    public func notePath(ofAbsent argument: String) -> String? {
        guard !argument.isEmpty, !argument.hasPrefix("/"), !argument.split(separator: "/").contains("..")
        else { return nil }
        return Vault.isNoteName(argument) ? argument : argument + ".md"
    }

    /// The vault-relative path of the existing file at `path` when it is a note file inside the
    /// vault: its folder resolved through symlinks must be the vault or below it, and the file
    /// itself must not be a symlink. Outside: `outsideVault` when `mustBeInside` (or when it is a
    /// symlink), else nil. Inside but not a note (hidden, another extension): `noMatch`; ignored
    /// by an ignore file: `ignored`.
    private func contained(_ path: String, argument: String, mustBeInside: Bool) throws(VaultError) -> String?
    {
        let lexical = Vault.normalized(path)
        let parent = FileSystem.parentFolder(of: lexical)
        // A vault given as `.` makes paths like `plan.md`, whose folder is the current one.
        guard let realParent = FileSystem.realPath(parent.isEmpty ? "." : parent) else {
            throw .noMatch(argument)
        }
        let real = realParent + "/" + (lexical as NSString).lastPathComponent
        guard real.hasPrefix(canonicalRoot + "/") else {
            if mustBeInside || FileSystem.status(path)?.kind == .symlink { throw .outsideVault(argument) }
            return nil
        }
        if FileSystem.status(path)?.kind == .symlink { throw .outsideVault(argument) }
        let relative = String(real.dropFirst(canonicalRoot.count + 1))
        guard Vault.isNoteName(relative),
            !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") })
        else { throw .noMatch(argument) }
        try checkNotIgnored(relative, isDirectory: false, argument: argument)
        return relative
    }

    // MARK: Writing

    /// The vault-relative folder (`""` for the root) where `add` puts a new note: `requested`
    /// (`--folder`), relative to `cwd` when that is inside the vault and to the vault otherwise,
    /// or an absolute path inside the vault; with none, `cwd` itself when it is a visible folder
    /// inside the vault that no ignore file ignores, else the root. A folder that leaves the vault,
    /// passes through a symlink, is hidden or ignored is refused; missing ones are made by `add`,
    /// once there is a note to save.
    public func folderForNewNote(_ requested: String?, cwd: String) throws(VaultError) -> String {
        let canonicalCWD = FileSystem.realPath(cwd)
        var cwdInside: String?
        if let canonicalCWD, canonicalCWD == canonicalRoot || canonicalCWD.hasPrefix(canonicalRoot + "/") {
            let relative = String(canonicalCWD.dropFirst(canonicalRoot.count)).drop { $0 == "/" }
            // A hidden or ignored folder cannot hold notes: the root does instead, as from outside.
            if !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }),
                IgnoreRules.rule(ignoring: String(relative), isDirectory: true, root: root) == nil
            {
                cwdInside = String(relative)
            }
        }
        guard let requested else { return cwdInside ?? "" }
        let base: String
        if requested.hasPrefix("/") {
            let lexical = Vault.normalized(requested)
            let normalRoot = Vault.normalized(root)
            if lexical == normalRoot || lexical.hasPrefix(normalRoot + "/") {
                base = canonicalRoot + lexical.dropFirst(normalRoot.count)
            } else {
                base = lexical
            }
        } else if cwdInside != nil, let canonicalCWD {
            base = Vault.normalized(canonicalCWD + "/" + requested)
        } else {
            base = Vault.normalized(canonicalRoot + "/" + requested)
        }
        guard base == canonicalRoot || base.hasPrefix(canonicalRoot + "/") else {
            throw .outsideVault(requested)
        }
        let relative = existingSpelling(
            of: String(String(base.dropFirst(canonicalRoot.count)).drop { $0 == "/" }))
        try checkFolder(relative, argument: requested)
        // A folder to be made gets a name links reach, as a moved note does; one that is there is
        // the user's.
        let made = foldersToMake(relative)
        if !made.isEmpty, let problem = Vault.nameProblem(made.joined(separator: "/")) {
            throw .badName(requested, problem: problem)
        }
        return relative
    }

    /// The vault-relative folder `relative` with each folder on its way that is not there as
    /// written, but is under a canonically equal name (the same letters composed another way:
    /// `Café` typed with a combining accent, as macOS gives names), spelled as it is there: a
    /// folder is never made a second time beside itself.
    func existingSpelling(of relative: String) -> String {
        var resolved = ""
        for component in relative.split(separator: "/") {
            let prefix = resolved.isEmpty ? "" : resolved + "/"
            var name = String(component)
            if FileSystem.status(fullPath(prefix + name)) == nil,
                let entries = FileSystem.entries(resolved.isEmpty ? root : fullPath(resolved)),
                // `String`'s == compares canonical equivalence.
                let existing = entries.first(where: { $0.kind == .directory && $0.name == name })
            {
                name = existing.name
            }
            resolved = prefix + name
        }
        return resolved
    }

    /// Throws `ignored` (naming `argument`, or the path) when an ignore file ignores the
    /// vault-relative `path` (a file, or a folder with `isDirectory`) or a folder on its way, where
    /// a note would never be listed.
    func checkNotIgnored(_ path: String, isDirectory: Bool, argument: String? = nil) throws(VaultError) {
        guard !path.isEmpty, let rule = IgnoreRules.rule(ignoring: path, isDirectory: isDirectory, root: root)
        else { return }
        throw .ignored(argument ?? path, rule: rule.description)
    }

    /// Checks that the vault-relative `folder` can hold notes: no component is hidden, a symlink
    /// (which could lead out of the vault) or a file, and no ignore file ignores it. Missing
    /// components are fine; they are made later.
    func checkFolder(_ folder: String, argument: String) throws(VaultError) {
        var built = ""
        for component in folder.split(separator: "/") {
            guard !component.hasPrefix(".") else { throw .hiddenFolder(argument) }
            built += (built.isEmpty ? "" : "/") + component
            switch FileSystem.status(fullPath(built))?.kind {
            case nil, .directory: break
            case .symlink: throw .outsideVault(argument)
            default:
                throw .io(path: fullPath(built), reason: "it is a file, not a folder; choose another folder")
            }
        }
        try checkNotIgnored(folder, isDirectory: true, argument: argument)
    }

    /// Creates a note holding `content` (already trimmed) in the vault-relative `folder`, named
    /// after its title (a slug of it, or the title itself, as `fileNaming` says); returns its ID.
    func add(content: String, now: Double, folder: String = "") throws(VaultError) -> String {
        let document = NoteDocument(parsing: content)
        let probe = Note(path: "x.md", document: document, mtime: now)
        var base = fileNaming == .title ? TitleFileName.make(probe.title) : Slug.make(probe.title)
        if base.isEmpty { base = Slug.fallback(now: now) }
        let bytes = Array(NoteDocument.newFile(document, created: now).utf8)
        func name(_ attempt: Int) -> String {
            (folder.isEmpty ? "" : folder + "/") + (attempt == 1 ? base : "\(base)-\(attempt)")
        }
        // The folder was checked; a pattern may still ignore the file's own name (`draft-*`), or
        // only the numbered ones of a taken name (`*.md` then `!plan.md`): those are passed over.
        try checkNotIgnored(name(1) + ".md", isDirectory: false)
        if !folder.isEmpty { try makeFolder(folder) }
        let rules = IgnoreRules.forEntries(of: folder, root: root)
        var attempt = 1
        var passedOver = 0
        while true {
            let path = name(attempt) + ".md"
            if let rule = rules.ignoring(path, isDirectory: false) {
                passedOver += 1
                // No free name the rules let be: the first one refused is named.
                guard passedOver < Vault.ignoredNamesPassedOver else {
                    throw .ignored(name(2) + ".md", rule: rule.description)
                }
            } else {
                passedOver = 0
                if try VaultError.mapping(FileSystem.createExclusively(bytes, at: fullPath(path))) {
                    return name(attempt)
                }
            }
            attempt += 1
        }
    }

    /// How many numbered names in a row an ignore file may refuse before `add` gives up.
    static let ignoredNamesPassedOver = 1000

    /// Replaces a note's body with `content` and sets its `updatedAt` to `now`, keeping every other
    /// byte; with `whole` (a note whose front matter holds conflict markers), `content` replaces
    /// the whole file as written, in the file's line ending. When `expected` is given and the file
    /// no longer holds those bytes, nothing is written and `conflict` is thrown after saving
    /// `content` beside the note.
    func update(
        path relative: String, content: String, now: Double, expected: [UInt8]? = nil, whole: Bool = false
    ) throws(VaultError) {
        let current: LoadedNote
        do {
            current = try load(path: relative)
        } catch {
            // Removed or renamed while the editor was open: keep the text beside where it was.
            guard expected != nil else { throw error }
            throw .conflict(
                id: Note.id(forPath: relative),
                copy: try saveConflictCopy(path: relative, content: content, now: now))
        }
        if let expected, expected != current.bytes {
            let copy = try saveConflictCopy(path: relative, content: content, now: now)
            throw .conflict(id: current.note.id, copy: copy)
        }
        var document = current.document
        if whole {
            let text = document.lineEnding == "\r\n" ? content.replacingLineFeeds(with: "\r\n") : content
            document = NoteDocument(parsing: (document.hasBOM ? "\u{FEFF}" : "") + text)
        } else {
            document.rewrite(content: content, updated: now, fallbackCreation: current.note.createdAt)
        }
        try VaultError.mapping(FileSystem.writeAtomically(Array(document.text.utf8), to: fullPath(relative)))
    }

    /// Writes `content` to `<id>.conflict-YYYYMMDD-HHMMSS.md` beside the note; returns its path.
    func saveConflictCopy(path relative: String, content: String, now: Double) throws(VaultError) -> String {
        let id = Note.id(forPath: relative)
        let base = fullPath(id) + ".conflict-" + NoteDate.stamp(now)
        func candidate(_ attempt: Int) -> String { base + (attempt == 1 ? "" : "-\(attempt)") + ".md" }
        return candidate(
            try VaultError.mapping(FileSystem.createExclusively(Array(content.utf8), firstFreeOf: candidate)))
    }
}

extension Vault {
    /// A path with `.`, `..` and repeated `/` removed lexically, without resolving symlinks.
    public static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." {
                if !parts.isEmpty && parts.last != ".." {
                    parts.removeLast()
                } else if !path.hasPrefix("/") {
                    parts.append(part)
                }
                continue
            }
            parts.append(part)
        }
        return (path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
    }
}

extension Vault {
    /// Makes the vault's folder `folder` (a vault path) and those on the way to it, but never the
    /// vault's own (`checkStillThere`).
    func makeFolder(_ folder: String) throws(VaultError) {
        try Vault.checkStillThere(root)
        try VaultError.mapping(FileSystem.makeDirectory(fullPath(folder)))
    }

    /// Throws `vaultMissing` unless the vault folder at `root` is still there (through a symlink,
    /// as `~/Notes` often is): one removed (or a disk unmounted) while a command or the language
    /// server ran is not made again, empty, around a note or a lock.
    static func checkStillThere(_ root: String) throws(VaultError) {
        var st = stat()
        guard stat(root, &st) == 0, st.st_mode & S_IFMT == S_IFDIR else { throw .vaultMissing(root) }
    }

    /// Whether the folder at `root` has an `.obsidian/` folder (not a symlink to one).
    public static func isObsidian(at root: String) -> Bool {
        FileSystem.status(root + "/.obsidian")?.kind == .directory
    }
}
