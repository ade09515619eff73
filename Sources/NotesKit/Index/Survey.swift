import Foundation

/// The vault's note files checked against an index: which records are still current, and which
/// files must be read.
struct Survey {
    /// View-wide numbers of the index records that describe their files as they are.
    var current: [Int] = []
    /// The files the index does not know as they are (new or changed), with their status (nil
    /// when the survey did not stat them: reading a file stats it anyway).
    var stale: [(path: String, status: FileStatus?)] = []
    /// The vault's other files (attachment targets) that the index does not know: only their
    /// paths are kept, nothing is read. (Those it knows are in `current`.)
    var newFiles: [String] = []
    /// The group and other permission bits that the vault folder and every note grant.
    var sharedMode: mode_t = 0o066
    /// Folders that could not be read.
    var diagnostics: [Diagnostic] = []
    /// The vault-relative paths of the symlinks to folders that the walk did not follow (none that
    /// an ignore file ignores), in byte order.
    var symlinkedFolders: [String] = []
    /// What each folder held, of those whose listing may be kept (`FolderListing`): replayed or
    /// listed afresh.
    var folders = FolderListings()
    /// Whether a folder was listed afresh and its listing may be kept: the file of them is worth
    /// writing again.
    var listedAnew = false
}

extension Vault {
    /// Walks the vault (hidden files and folders skipped, and what the `.gitignore` and `.ignore`
    /// files ignore, read afresh each time; symlinks not followed, those to folders collected) and
    /// checks every note file against `index` on the way, on all cores: one `fstatat` per file on
    /// its open folder, and the path looked up in the index by its bytes, folder and name apart, so
    /// that a vault whose index is fresh is checked without making a string per file. The vault's
    /// other files (attachment targets) are only looked up, not stat'ed: the index keeps their
    /// paths, so one that appears or vanishes refreshes it. Without an index, every note file is
    /// stale. An ignore file's change needs no record of its own: what it now ignores drops out of
    /// the walk, and what it no longer ignores comes in as new.
    ///
    /// Reading a folder and checking its files overlap: a folder's names are handed out in
    /// batches as they are read, so one core checks while another still reads a large folder,
    /// and folders are read side by side. The result does not depend on who did what: folders
    /// come in byte order of their paths, each folder's files in the order it listed them.
    ///
    /// `statting` false (a build without an index, where every file will be read and reading
    /// stats it) lists the note files without a `fstatat` each; their mode is then not in
    /// `sharedMode`, which the reader must narrow.
    ///
    /// `listings`: what folders held when last listed; a folder still as it was then is not
    /// listed again, its entries replayed instead (`FolderListing`).
    func survey(against index: IndexView?, statting: Bool = true, listings: FolderListings? = nil) -> Survey {
        let work = SurveyWork(
            root: root, index: index, statting: statting, listings: listings, settle: folderSettle)
        DispatchQueue.concurrentPerform(iterations: SurveyWork.workers) { _ in work.run() }
        let batches = work.batches.sorted(by: NameBatch.precedes)
        // Each batch's outcome (paths made for the files to read) on all cores, then joined in order.
        return survey(
            of: work, outcomes: Parallel.map(count: batches.count, chunk: 1) { batches[$0].outcome() })
    }

    /// The survey that `work`, walked through, makes, given its batches' outcomes in their order.
    fileprivate func survey(of work: SurveyWork, outcomes: [BatchOutcome]) -> Survey {
        var survey = Survey()
        survey.sharedMode = (FileSystem.status(canonicalRoot)?.mode ?? 0) & 0o066
        survey.diagnostics = work.diagnostics.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        survey.symlinkedFolders = work.symlinkedFolders.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        survey.folders = work.kept
        survey.listedAnew = work.listedAnew
        survey.current.reserveCapacity(outcomes.reduce(0) { $0 + $1.current.count })
        survey.stale.reserveCapacity(outcomes.reduce(0) { $0 + $1.stale.count })
        for outcome in outcomes {
            survey.sharedMode &= outcome.sharedMode
            survey.current += outcome.current
            survey.newFiles += outcome.newFiles
            survey.stale += outcome.stale
            // A name that is not UTF-8 cannot be a note's ID: it is left alone, and said so (a
            // note the user wrote must not vanish from every list without a word).
            for shown in outcome.notUTF8 {
                survey.diagnostics.append(
                    Diagnostic(
                        path: fullPath(shown), line: nil,
                        message: "its name is not UTF-8, so it is not read as a note; rename it to read it"))
            }
        }
        return survey
    }

    /// Whether a file name's bytes are a note's (`.md` or `.markdown`).
    static func isNoteName(_ name: UnsafeRawBufferPointer) -> Bool {
        func hasSuffix(_ suffix: StaticString) -> Bool {
            guard name.count >= suffix.utf8CodeUnitCount, let base = name.baseAddress else { return false }
            return memcmp(
                base + name.count - suffix.utf8CodeUnitCount, suffix.utf8Start, suffix.utf8CodeUnitCount) == 0
        }
        return hasSuffix(".md") || hasSuffix(".markdown")
    }
}

/// A survey without an index (`survey(against: nil, statting: false)`: every note will be read),
/// walked on a thread of its own while the caller reads the notes it has found so far. The
/// notes come in the order that survey lists them: a batch of names is handed out once no
/// folder that sorts before its own is still being read (a folder found later sorts after the
/// one it is in, which is still being read). So a first index starts reading at the first
/// batch of names, rather than after the walk of a large folder, and is the same file.
final class SurveyStream: @unchecked Sendable {
    private let vault: Vault
    private let work: SurveyWork
    /// The outcomes of the batches handed out, in order (touched by the caller only).
    private var outcomes: [BatchOutcome] = []

    init(vault: Vault, listings: FolderListings?) {
        self.vault = vault
        let work = SurveyWork(
            root: vault.root, index: nil, statting: false, listings: listings, settle: vault.folderSettle,
            streaming: true)
        self.work = work
        // As many walkers as `survey` has: a vault of thousands of small folders is walked on
        // all cores (each takes the first folder left), a large folder by one.
        for _ in 0..<SurveyWork.workers {
            Thread.detachNewThread { work.run() }
        }
    }

    /// The next notes to read, in order: at least `count` of them, unless the walk has found no
    /// more; nil once every note was handed out.
    func next(atLeast count: Int) -> [(path: String, status: FileStatus?)]? {
        var files: [(path: String, status: FileStatus?)] = []
        while files.count < count, let batch = work.nextInOrder() {
            let outcome = batch.outcome()
            files += outcome.stale
            outcomes.append(outcome)
        }
        return files.isEmpty ? nil : files
    }

    /// How many files (notes and others) the walk has found so far.
    var found: Int { work.foundSoFar() }

    /// The whole survey, once the walk is done (waiting for it; notes not handed out yet are
    /// listed as stale all the same).
    func finish() -> Survey {
        while let batch = work.nextInOrder() { outcomes.append(batch.outcome()) }
        return vault.survey(of: work, outcomes: outcomes)
    }
}

/// What one batch of names adds to a survey (`NameBatch.outcome`).
struct BatchOutcome {
    var current: [Int] = []
    var stale: [(path: String, status: FileStatus?)] = []
    var newFiles: [String] = []
    /// The vault paths (as shown) of notes whose names are not UTF-8.
    var notUTF8: [String] = []
    var sharedMode: mode_t = 0o066
}

/// What the survey found of one directory entry.
enum EntryFreshness {
    /// Gone, or not a regular file.
    case gone
    /// The index's record describes it as it is.
    case current(Int, mode: mode_t)
    /// One of the vault's other files, which the index has (record number).
    case file(Int)
    /// One of the vault's other files, which the index lacks.
    case newFile
    /// It must be read (boxed: the other cases are the common ones, and stay small); no status
    /// when the survey does not stat.
    indirect case stale(FileStatus?)
}

/// A folder being surveyed: open while batches of its names wait to be checked.
final class OpenFolder: @unchecked Sendable {
    /// The vault-relative path ("" for the vault folder).
    let relative: String
    /// `relative` and a slash, as bytes: the first part of each file's path.
    let prefix: [UInt8]
    let fd: Int32

    init(relative: String, fd: Int32) {
        self.relative = relative
        prefix = Array((relative.isEmpty ? "" : relative + "/").utf8)
        self.fd = fd
    }

    deinit { close(fd) }
}

/// Up to `NameBatch.size` file names of one folder — notes, and the vault's other files — and what
/// checking them found.
final class NameBatch: @unchecked Sendable {
    static let size = 1024
    let folder: OpenFolder
    /// Its place among the folder's batches.
    let sequence: Int
    /// The names, each followed by a NUL, and where each starts.
    var names: [UInt8] = []
    var starts: [Int] = []
    /// Whether each name is a note's (else it is one of the vault's other files).
    var isNote: [Bool] = []
    var checked: [EntryFreshness] = []

    /// Whether `a` comes before `b` in a survey: folders in byte order of their paths, a
    /// folder's batches in the order it listed their names.
    static func precedes(_ a: NameBatch, _ b: NameBatch) -> Bool {
        a.folder.relative.utf8.elementsEqual(b.folder.relative.utf8)
            ? a.sequence < b.sequence
            : a.folder.relative.utf8.lexicographicallyPrecedes(b.folder.relative.utf8)
    }

    init(folder: OpenFolder, sequence: Int, names: [UInt8], starts: [Int], isNote: [Bool]) {
        self.folder = folder
        self.sequence = sequence
        self.names = names
        self.starts = starts
        self.isNote = isNote
    }

    /// What this batch adds to a survey, in its order: the records still current, the other files
    /// the index lacks and the notes to read, as vault paths; a name that is not UTF-8 is no path
    /// (a note's is named in `notUTF8`, as shown). The group and other bits every current or stale
    /// note grants.
    func outcome() -> BatchOutcome {
        var outcome = BatchOutcome()
        // Not checked (a survey that does not stat: no index), every note is stale, with no status.
        let checked = checked.isEmpty ? isNote.map { $0 ? .stale(nil) : .newFile } : checked
        names.withUnsafeBytes { names in
            for (i, state) in checked.enumerated() {
                switch state {
                case .gone: continue
                case .current(let number, let mode):
                    outcome.sharedMode &= mode
                    outcome.current.append(number)
                case .file(let number): outcome.current.append(number)
                case .newFile:
                    // A name that is not UTF-8 cannot be a link's target.
                    if let path = path(i, in: names) { outcome.newFiles.append(path) }
                case .stale(let status):
                    guard let path = path(i, in: names) else {
                        let shown = String(decoding: nameBytes(i, in: names), as: UTF8.self)
                        outcome.notUTF8.append(
                            folder.relative.isEmpty ? shown : folder.relative + "/" + shown)
                        continue
                    }
                    if let status { outcome.sharedMode &= status.mode }
                    outcome.stale.append((path, status))
                }
            }
        }
        return outcome
    }

    /// The bytes of name `i` of `names` (this batch's), without its NUL.
    private func nameBytes(_ i: Int, in names: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(
            rebasing: names[starts[i]..<(i + 1 < starts.count ? starts[i + 1] - 1 : names.count - 1)])
    }

    /// The vault path of name `i` (the folder's prefix and the name, made in one string); nil when
    /// the name is not UTF-8.
    private func path(_ i: Int, in names: UnsafeRawBufferPointer) -> String? {
        let name = nameBytes(i, in: names)
        guard UTF8Bytes.isValid(name.assumingMemoryBound(to: UInt8.self)) else { return nil }
        let prefix = folder.prefix
        return String(unsafeUninitializedCapacity: prefix.count + name.count) { out in
            let afterPrefix = out.initialize(fromContentsOf: prefix)
            guard let target = out.baseAddress, let source = name.baseAddress else { return afterPrefix }
            (target + afterPrefix).initialize(
                from: source.assumingMemoryBound(to: UInt8.self), count: name.count)
            return afterPrefix + name.count
        }
    }

    /// Stats each note's name on the open folder and looks it up in `index`; without `statting`,
    /// leaves `checked` empty (every note is stale, with no status: `outcome` knows). Other files
    /// are only looked up: their contents do not matter, only that they are there.
    func check(against index: IndexView?, statting: Bool) {
        guard statting else { return }
        let prefix = folder.prefix
        let fd = folder.fd
        // Every name is statted first, then every name looked up: each system call leaves the
        // caches cold, so a lookup right after one waits on memory, while lookups one after the
        // other run through the index's tables in order.
        let statuses = names.withUnsafeBytes { names in
            zip(starts, isNote).map { start, isNote -> FileStatus? in
                guard isNote, let base = names.baseAddress else { return nil }
                var st = stat()
                guard
                    fstatat(fd, (base + start).assumingMemoryBound(to: CChar.self), &st, AT_SYMLINK_NOFOLLOW)
                        == 0
                else { return nil }
                let status = FileSystem.makeStatus(st)
                // Gone or replaced by another kind of file since the folder was read: not a note now.
                return status.kind == .regular ? status : nil
            }
        }
        var previous: Int?
        checked = names.withUnsafeBytes { names in
            prefix.withUnsafeBytes { prefix in
                starts.indices.map { i -> EntryFreshness in
                    let end = i + 1 < starts.count ? starts[i + 1] - 1 : names.count - 1
                    let name = UnsafeRawBufferPointer(rebasing: names[starts[i]..<end])
                    guard isNote[i] else {
                        guard let index, let number = index.find(prefix, name, after: previous),
                            index.isFile(number)
                        else { return .newFile }
                        previous = number
                        return .file(number)
                    }
                    guard let status = statuses[i] else { return .gone }
                    guard let index, let number = index.find(prefix, name, after: previous) else {
                        return .stale(status)
                    }
                    previous = number
                    return index.isCurrent(number, status)
                        ? .current(number, mode: status.mode) : .stale(status)
                }
            }
        }
        // Names are needed later only for files to read: a folder whose index is fresh lets go of them.
        if !checked.contains(where: {
            switch $0 {
            case .stale, .newFile: return true
            default: return false
            }
        }) {
            names = []
            starts = []
            isNote = []
        }
    }
}

/// The names of a batch being read from a folder.
struct GatheredNames {
    var names: [UInt8] = []
    var starts: [Int] = []
    var isNote: [Bool] = []

    init() {
        names.reserveCapacity(NameBatch.size * 24)
        starts.reserveCapacity(NameBatch.size)
        isNote.reserveCapacity(NameBatch.size)
    }

    mutating func add(_ name: UnsafeRawBufferPointer) {
        starts.append(names.count)
        names.append(contentsOf: name)
        names.append(0)
        isNote.append(Vault.isNoteName(name))
    }

    /// The batch of these names.
    func batch(of folder: OpenFolder, sequence: Int) -> NameBatch {
        NameBatch(folder: folder, sequence: sequence, names: names, starts: starts, isNote: isNote)
    }
}
