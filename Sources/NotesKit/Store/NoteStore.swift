import Foundation

/// What a mutation did to the vault's note files: the record a later sink (git auto-commit) takes.
public enum Change: Equatable, Sendable {
    /// A note file was created at this vault-relative path.
    case added(String)
    /// `notes import` created a file at this vault-relative path: a note, or a file beside it.
    case imported(String)
    /// A trashed note was put back at this vault-relative path.
    case restored(String)
    /// A note file was rewritten.
    case modified(String)
    /// A note file left the vault (moved to the trash).
    case removed(String)
    /// A note file was renamed or moved.
    case moved(from: String, to: String)
    /// A move rewrote this many links in the note at this path (to follow the moved note).
    case rewroteLinks(String, count: Int)
    /// One of the vault's own files, committed with its notes, was written at this vault-relative
    /// path: `.notes/.gitignore` (made, or brought up to date) or `.notes/settings.json`.
    case vaultFile(String)

    /// The vault-relative paths the change touched.
    public var paths: [String] {
        switch self {
        case .added(let path), .imported(let path), .restored(let path), .modified(let path),
            .removed(let path),
            .rewroteLinks(let path, _), .vaultFile(let path):
            return [path]
        case .moved(let from, let to): return [from, to]
        }
    }
}

/// The order and cut of a listing, and the search that filters it.
public struct NoteQuery: Sendable {
    /// The search; an empty one keeps every note.
    public var search: SearchQuery
    /// What the notes must be besides matching the search: dates, folder, tags, links.
    public var filter = NoteFilter()
    /// Tags every note must have (each, or one nested below it), as typed (`--tag`).
    public var tags: [String] {
        get { filter.tags }
        set { filter.tags = newValue }
    }
    /// The order.
    public var order: SortOrder
    /// Whether the order is reversed.
    public var reverse: Bool
    /// At most this many notes, if set.
    public var limit: Int?
    /// Whether the notes whose title holds every term come first — a title starting with the
    /// query first of all —, then the rest, each group in `order` (`search --sort relevance`).
    public var ranked = false
    /// Whether the caller searches this catalog only once (a command, not the browser): then the
    /// index's text is released from the process as soon as it is scanned (it stays in the page
    /// cache), so a search of 170 MB of notes does not keep 170 MB mapped.
    public var oneOff = false

    /// A query; by default every note, newest first.
    public init(
        search: SearchQuery = SearchQuery(""), order: SortOrder = .updated, reverse: Bool = false,
        limit: Int? = nil
    ) {
        self.search = search
        self.order = order
        self.reverse = reverse
        self.limit = limit
    }
}

/// The one way into a vault: its catalog from the index cache, one routine that
/// resolves IDs (and keeps every path inside the vault), one query API for lists and searches, and
/// every change to notes and the trash, each recorded as a `Change`. Writers of the vault's state
/// hold `lock`. Use it from one thread.
public final class NoteStore {
    /// The vault.
    public let vault: Vault
    /// Where the index and the lock live: `<vault>/.notes` when the vault has one, else a folder
    /// of the cache directory, so that reading a plain folder never writes into it.
    public let stateFolder: String
    /// The environment the programs the store drives (git) run in: the user's, for their
    /// identity, credentials and settings.
    public let environment: [String: String]
    /// The changes made through this store, in order.
    public private(set) var changes: [Change] = []
    /// How many of `changes` have been committed (or offered to git) already.
    var changesCommitted = 0
    /// Whether auto-commit has said that a rebase or merge in progress kept it from committing.
    var toldUnfinished = false
    private var current: Catalog?
    var unreported: [Diagnostic] = []
    /// Where the symlinks to folders last warned about are kept.
    private let symlinkWarnings: SymlinkWarnings

    /// A store over `vault`; `cacheDirectory` is where a vault without `.notes/` keeps its index.
    public init(
        vault: Vault, cacheDirectory: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.vault = vault
        self.environment = environment
        let cacheFolder = cacheDirectory + "/" + NoteStore.cacheName(for: vault.canonicalRoot)
        if FileSystem.status(vault.stateDirectory)?.kind == .directory {
            stateFolder = vault.stateDirectory
            // A vault we may only read (a share, another user's) keeps our index in the cache, so
            // that each command does not read the files again and warn about them again.
            indexFolder = access(vault.stateDirectory, W_OK) == 0 ? stateFolder : cacheFolder
        } else {
            stateFolder = cacheFolder
            indexFolder = cacheFolder
        }
        symlinkWarnings = SymlinkWarnings(
            places: stateFolder == cacheFolder ? [cacheFolder] : [stateFolder, cacheFolder])
    }

    /// How looking for the vault went.
    public enum Opening {
        /// The vault was there.
        case opened(NoteStore)
        /// The default vault `~/Notes` was missing and a write command made it (at this path).
        case created(NoteStore, String)
        /// The default vault is missing and a read command does not make it (it looked here).
        case missingDefault(String)
    }

    /// Finds the vault (`--vault` · `NOTES_VAULT` · an enclosing vault · the `vault`
    /// setting · `~/Notes`) and opens a store over it, read as `settings` say. A write command
    /// creates a missing `~/Notes`; a missing vault named by the flag, the variable or the setting
    /// is an error, so a typo never makes a stray vault.
    public static func open(
        locations: Locations, flag: String?, settings: Settings, creatingDefaultVault: Bool
    ) throws(VaultError) -> Opening {
        let (path, source) = locations.vault(flag: flag, setting: settings.vault)
        func store() throws(VaultError) -> NoteStore {
            var vault = try Vault(root: path)
            vault.titleSource = settings.titleSource
            vault.fileNaming = settings.fileNaming
            return NoteStore(
                vault: vault, cacheDirectory: locations.cacheDirectory, environment: locations.environment)
        }
        do {
            return .opened(try store())
        } catch .vaultMissing(let missing) {
            guard source == .defaultVault else { throw .vaultMissing(missing) }
            guard creatingDefaultVault else { return .missingDefault(path) }
            try Vault.initialize(at: path)
            return .created(try store(), path)
        }
    }

    /// Where the index and the lock of its writers are: the state folder, or the cache when we
    /// cannot write there.
    let indexFolder: String

    /// The index cache file.
    public var indexPath: String { indexFolder + "/index" }

    /// The lock file that writers of the index and the trash hold.
    public var lockPath: String { stateFolder + "/lock" }

    /// A folder name for a vault in the cache: its last component (for people who look) and a
    /// hash of its canonical path (so two vaults never share one).
    public static func cacheName(for canonicalPath: String) -> String {
        let last = canonicalPath.split(separator: "/").last.map(String.init) ?? "root"
        let readable = String(
            last.unicodeScalars.map {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) ? Character($0) : "-"
            }.prefix(40))
        return readable + "-" + Hashing.fnv1a(canonicalPath.utf8)
    }

    // MARK: Reading

    /// The catalog, brought up to date with the files the first time it is asked for.
    public var catalog: Catalog { current ?? refresh() }

    /// The search the caller is about to run, if any: a catalog made with no index yet matches
    /// each note as it reads it (`Vault.catalog(search:)`).
    public var search: SearchQuery?

    /// Brings the catalog up to date with the files now (after a change, or to rebuild the index).
    /// The index is rewritten when it must be, unless another process holds the lock: then this one
    /// leaves the writing to it, as a reader should — or, with `waitForLock` (`notes index`, whose
    /// whole job the writing is), waits for it.
    @discardableResult
    public func refresh(
        rebuild: Bool = false, waitForLock: Bool = false, progress: ((Int, Int) -> Void)? = nil
    ) -> Catalog {
        keepStateIgnored()
        let catalog = vault.catalog(
            indexPath: indexPath, lockPath: indexFolder == stateFolder ? lockPath : indexFolder + "/lock",
            rebuild: rebuild,
            waitForLock: waitForLock, search: search, progress: progress)
        current = catalog
        unreported += catalog.diagnostics
        unreported += symlinkWarnings.warnings(for: catalog.symlinkedFolders, in: vault)
        return catalog
    }

    /// A `.notes/` made by hand may have no `.gitignore`: the index and the lock written there must
    /// not show up in `git status`, so it gets one. A read writes the old one-line `*`, which
    /// ignores itself too and so leaves `git status` as it was; a write brings it up to date
    /// (`bringStateIgnoreUpToDate`). One `stat`.
    private func keepStateIgnored() {
        guard stateFolder == vault.stateDirectory else { return }
        let ignore = stateFolder + "/.gitignore"
        if FileSystem.status(ignore) == nil { try? FileSystem.writeAtomically(Array("*\n".utf8), to: ignore) }
    }

    /// A write command brings an old `.notes/.gitignore` (a one-line `*`, which ignores itself)
    /// up to date, so that the folder and the vault's settings reach a clone, and records it as a
    /// change for auto-commit (or the `git add` the user runs). Once per store; a vault without
    /// `.notes/` is left alone, as any folder is until `init`.
    private func bringStateIgnoreUpToDate() {
        guard !stateIgnoreChecked else { return }
        stateIgnoreChecked = true
        guard FileSystem.status(vault.stateDirectory)?.kind == .directory,
            let setup = try? Vault.prepareState(at: vault.root), setup.wroteIgnore
        else { return }
        changes.append(.vaultFile(Vault.stateIgnorePath))
    }

    private var stateIgnoreChecked = false

    /// The problems found in files and folders since this was last asked, to be reported once: a
    /// file's warnings come with the catalog that read it, whichever command built it.
    public func takeDiagnostics() -> [Diagnostic] {
        defer { unreported = [] }
        return unreported
    }

    /// The notes a query selects, in its order.
    public func query(_ query: NoteQuery) -> [Note] { catalog.run(query) }

    /// Plain rows of `query(query)`'s notes, rendered without making the notes
    /// (`Catalog.renderRows`).
    public func renderRows(
        _ query: NoteQuery, order: SortOrder, _ render: Catalog.RowRenderer
    ) -> [UInt8] {
        catalog.renderRows(query, order: order, render)
    }

    /// The note an argument names, read from its file: an exact ID or a path to a note
    /// file inside the vault reads only that file; a unique ID prefix or title looks in the catalog.
    /// Anything that leaves the vault — `..`, an absolute path elsewhere, a symlink — is refused.
    public func open(_ argument: String, cwd: String) throws(VaultError) -> LoadedNote {
        if let path = try vault.notePath(naming: argument, cwd: cwd) { return try vault.load(path: path) }
        return try vault.load(path: matchedPath(argument))
    }

    /// The vault path of the note an argument names, as `open` finds it, but from the catalog
    /// alone: no note file is read (an exact ID or path is only looked up).
    public func notePath(naming argument: String, cwd: String) throws(VaultError) -> String {
        if let path = try vault.notePath(naming: argument, cwd: cwd) {
            guard catalog.position(ofPath: path) != nil else { throw .noMatch(argument) }
            return path
        }
        return try matchedPath(argument)
    }

    /// The path of the note of the catalog whose unique ID prefix, title or alias `argument` is.
    private func matchedPath(_ argument: String) throws(VaultError) -> String {
        let catalog = self.catalog
        let notes = catalog.notes
        guard
            let index = try Vault.match(
                argument, ids: notes.map(\.id), paths: notes.map(\.path), titles: notes.map(\.title),
                foldedAliases: { catalog.foldedAliases })
        else { throw .noMatch(argument) }
        return notes[index].path
    }

    /// A note of the catalog read from its file, as it is now.
    public func load(_ note: Note) throws(VaultError) -> LoadedNote {
        try vault.load(path: note.path)
    }

    /// The trashed notes, most recently deleted first, and problems with the trash.
    public func trashEntries() -> (entries: [TrashEntry], diagnostics: [Diagnostic]) {
        let found = vault.trashEntries()
        guard !found.diagnostics.isEmpty else { return found }
        // A delete builds its entry in steps (folder, record, note) and a restore takes one apart,
        // each holding the lock: an entry that looks broken may be one of those, half done. It is
        // looked at again once no writer holds the lock; while one does (for more than a moment),
        // it is left out without a word, as a reader never shows a half state.
        do {
            guard let lock = try VaultLock(path: lockPath, wait: false, vault: vault.root) else {
                return (found.entries, [])
            }
            defer { lock.release() }
            return vault.trashEntries()
        } catch {
            return found
        }
    }

    // MARK: Changing

    /// Adds a note holding `text` in the vault-relative `folder`, under the content rules (trimmed;
    /// empty is refused with `emptyNote`); returns its ID.
    @discardableResult
    public func add(content text: String, now: Double, folder: String = "") throws(VaultError) -> String {
        let id = try vault.add(content: try Content.normalize(text), now: now, folder: folder)
        record(.added(id + ".md"))
        return id
    }

    /// Replaces a loaded note's body with `text` under the content rules and sets its `updatedAt`
    /// to `now`; returns false, writing nothing, when the text is the body it has (even if the
    /// file moved on meanwhile). With `expectUnchanged`, a file that no longer holds the bytes it
    /// was loaded with is not overwritten: the text is saved beside it and `conflict` is thrown.
    @discardableResult
    public func update(
        _ loaded: LoadedNote, content text: String, now: Double, expectUnchanged: Bool
    ) throws(VaultError) -> Bool {
        let content = try Content.normalize(text)
        let current =
            Content.editable(loaded.editableText).trimmingCharacters(in: .whitespacesAndNewlines) + "\n"
        guard content != current else { return false }
        // Under the lock, the check that the file is unchanged and the rename are one step for
        // every other writer that goes through a store.
        try withLock { () throws(VaultError) in
            try vault.update(
                path: loaded.note.path, content: content, now: now,
                expected: expectUnchanged ? loaded.bytes : nil, whole: loaded.document.frontMatterHasMarkers)
        }
        record(.modified(loaded.note.path))
        return true
    }

    /// Moves a note to the trash.
    public func delete(_ note: Note, now: Double) throws(VaultError) {
        try withLock { () throws(VaultError) in
            // The trash lives in `<vault>/.notes` (with its .gitignore), which a first delete makes.
            try initializeState()
            try vault.trash(path: note.path, now: now)
        }
        record(.removed(note.path))
    }

    /// The trashed note an argument names among `entries` (by default, the trash as it is now):
    /// exact ID, unique ID prefix or unique title; the latest deletion wins among equal IDs.
    public func trashed(_ argument: String, in entries: [TrashEntry]? = nil) throws(VaultError) -> TrashEntry
    {
        try vault.resolveTrashed(argument, in: entries ?? vault.trashEntries().entries)
    }

    /// Puts a trashed note back (under a free name if its old one is taken); returns its path.
    @discardableResult
    public func restore(_ entry: TrashEntry) throws(VaultError) -> String {
        let path = try withLock { () throws(VaultError) in try vault.restore(entry) }
        record(.restored(path))
        return path
    }

    /// Removes every trashed note for good; returns how many there were. Vault files are not
    /// touched, so there is no change to record.
    @discardableResult
    public func emptyTrash() throws(VaultError) -> Int {
        try withLock { () throws(VaultError) in try vault.emptyTrash() }
    }

    /// Makes the vault's `.notes/` (`notes init`), or brings its `.gitignore` up to date, and
    /// records the `.gitignore` when it wrote it; returns whether it made `.notes/`.
    @discardableResult
    public func initializeState() throws(VaultError) -> Bool {
        // An open vault whose folder has gone is not made again (`notes init` of a new folder
        // runs `Vault.prepareState` itself).
        try Vault.checkStillThere(vault.root)
        let setup = try Vault.prepareState(at: vault.root)
        record(setup)
        return setup.madeStateFolder
    }

    /// Records what `Vault.prepareState` did to this vault (`notes init` runs it before the
    /// folder it makes can be opened): a `.gitignore` written is a change.
    public func record(_ setup: Vault.StateSetup) {
        if setup.wroteIgnore, !pendingChanges.contains(.vaultFile(Vault.stateIgnorePath)) {
            changes.append(.vaultFile(Vault.stateIgnorePath))
        }
        stateIgnoreChecked = true
    }

    /// Writes the vault's own settings file, `.notes/settings.json` (making `.notes/` when the
    /// vault has none), and records it, so auto-commit commits it like a note.
    public func saveVaultSettings(_ settings: Settings) throws(VaultError) {
        try initializeState()
        try SettingsFile.ofVault(at: vault.root).save(settings)
        // Git sees the settings only through the `.gitignore`'s exception, so the two go together
        // (a commit of an unchanged one commits nothing of it).
        // So does the merge driver's `.gitattributes` that `init` wrote, when there is one.
        var companions = [Vault.stateIgnorePath]
        if FileSystem.status(vault.fullPath(MergeDriver.attributesPath)) != nil {
            companions.append(MergeDriver.attributesPath)
        }
        for path in companions where !pendingChanges.contains(.vaultFile(path)) {
            changes.append(.vaultFile(path))
        }
        record(.vaultFile(Vault.settingsPath))
    }

    /// The changes not committed (or offered to git) yet.
    public var pendingChanges: [Change] { Array(changes.dropFirst(changesCommitted)) }

    func record(_ change: Change) {
        changes.append(change)
        current = nil
        bringStateIgnoreUpToDate()
    }

    /// Runs `body` holding the lock of the vault's state folder, waiting for another writer.
    func withLock<T>(_ body: () throws(VaultError) -> T) throws(VaultError) -> T {
        keepStateIgnored()
        let lock = try VaultLock(path: lockPath, wait: true, vault: vault.root)
        defer { lock?.release() }
        return try body()
    }
}
