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
    func survey(against index: IndexView?, statting: Bool = true) -> Survey {
        let work = SurveyWork(root: root, index: index, statting: statting)
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

    init(vault: Vault) {
        self.vault = vault
        let work = SurveyWork(root: vault.root, index: nil, statting: false, streaming: true)
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

    /// The whole survey, once the walk is done (waiting for it; notes not handed out yet are
    /// listed as stale all the same).
    func finish() -> Survey {
        while let batch = work.nextInOrder() { outcomes.append(batch.outcome()) }
        return vault.survey(of: work, outcomes: outcomes)
    }
}

/// What one batch of names adds to a survey (`NameBatch.outcome`).
private struct BatchOutcome {
    var current: [Int] = []
    var stale: [(path: String, status: FileStatus?)] = []
    var newFiles: [String] = []
    /// The vault paths (as shown) of notes whose names are not UTF-8.
    var notUTF8: [String] = []
    var sharedMode: mode_t = 0o066
}

/// What the survey found of one directory entry.
private enum EntryFreshness {
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
private final class OpenFolder: @unchecked Sendable {
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
private final class NameBatch: @unchecked Sendable {
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
private struct GatheredNames {
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

/// The shared state of a survey: a stack of folders to read and batches to check, taken by
/// every worker until none is left and none is busy.
private final class SurveyWork: @unchecked Sendable {
    private enum Item {
        /// A folder, and the rules of the ignore files above it.
        case folder(String, IgnoreRules)
        case batch(NameBatch)
    }

    /// How many threads walk a vault: one per core, up to eight.
    static let workers = max(1, min(8, ProcessInfo.processInfo.activeProcessorCount))

    let root: String
    let index: IndexView?
    let statting: Bool
    /// Whether a reader takes the batches as they are made (`nextInOrder`).
    let streaming: Bool
    private let condition = NSCondition()
    private var pending: [Item] = [.folder("", .none)]
    private var busy = 0
    /// Every batch made, unless streaming (under `condition`).
    private(set) var batches: [NameBatch] = []
    /// Streaming: the batches made and not yet handed out, in the survey's order, and the
    /// folders found and not yet read through, in byte order (under `condition`).
    private var waiting: [NameBatch] = []
    private var unfinished: [String] = [""]
    /// Folders that could not be read (under `condition`).
    private(set) var diagnostics: [Diagnostic] = []
    /// Symlinks to folders, not followed (under `condition`).
    private(set) var symlinkedFolders: [String] = []

    init(root: String, index: IndexView?, statting: Bool, streaming: Bool = false) {
        self.root = root
        self.index = index
        self.statting = statting
        self.streaming = streaming
    }

    /// Streaming: the next batch in the survey's order (`NameBatch.precedes`), once no folder
    /// still being read can hold one before it (waiting for that); nil when the walk is done and
    /// every batch was handed out.
    func nextInOrder() -> NameBatch? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let first = waiting.first {
                // A folder being read, or one yet to be found below it (whose path sorts after
                // it), may still hold names that come first: none may sort before this one's.
                if let earliest = unfinished.first,
                    earliest.utf8.lexicographicallyPrecedes(first.folder.relative.utf8)
                {
                    condition.wait()
                    continue
                }
                return waiting.removeFirst()
            } else if pending.isEmpty && busy == 0 {
                return nil
            }
            condition.wait()
        }
    }

    /// Takes and does work until there is none left anywhere.
    func run() {
        while let item = take() {
            switch item {
            case .folder(let relative, let rules): read(relative, rules: rules)
            case .batch(let batch): batch.check(against: index, statting: statting)
            }
            condition.lock()
            busy -= 1
            if pending.isEmpty && busy == 0 { condition.broadcast() }
            condition.unlock()
        }
    }

    private func take() -> Item? {
        condition.lock()
        defer { condition.unlock() }
        while pending.isEmpty {
            if busy == 0 { return nil }
            condition.wait()
        }
        busy += 1
        return pending.popLast()
    }

    private func give(_ item: Item, batch: NameBatch? = nil) {
        condition.lock()
        if streaming {
            // Folders are read in byte order of their paths (`pending` kept from last to first,
            // so the next taken is the first), so that a folder's batches can go out as they are
            // made; a batch needs no check (no index, no stat) and is only handed out.
            func bytesPrecede(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }
            switch item {
            case .folder(let relative, _):
                insertSorted(item, into: &pending) { a, b in
                    guard case .folder(let a, _) = a, case .folder(let b, _) = b else { return false }
                    return bytesPrecede(b, a)
                }
                insertSorted(relative, into: &unfinished, by: bytesPrecede)
            case .batch(let batch): insertSorted(batch, into: &waiting, by: NameBatch.precedes)
            }
            // The reader waits on the same condition as the workers.
            condition.broadcast()
        } else {
            pending.append(item)
            if let batch { batches.append(batch) }
            condition.signal()
        }
        condition.unlock()
    }

    /// Streaming: the folder `relative` has been read through (all its batches made).
    private func finished(_ relative: String) {
        guard streaming else { return }
        condition.lock()
        // Where it sorts: the last of those equal to it by bytes comes just before.
        let after = sortedPlace(of: relative, in: unfinished) { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        if after > 0, unfinished[after - 1].utf8.elementsEqual(relative.utf8) {
            unfinished.remove(at: after - 1)
        }
        condition.broadcast()
        condition.unlock()
    }

    /// Reads one folder: its subfolders become work, and its files go out in batches; what its
    /// ignore files and those above (`rules`) ignore is left out.
    private func read(_ relative: String, rules above: IgnoreRules) {
        defer { finished(relative) }
        let full = relative.isEmpty ? root : root + "/" + relative
        let fd = open(full, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        // The batches hold a descriptor of their own: `closedir` closes the one it reads through.
        let own = fd >= 0 ? fcntl(fd, F_DUPFD_CLOEXEC, 0) : -1
        guard fd >= 0, own >= 0, let dir = fdopendir(fd) else {
            let reason = String(cString: strerror(errno))
            if fd >= 0 { close(fd) }
            if own >= 0 { close(own) }
            condition.lock()
            diagnostics.append(
                Diagnostic(
                    path: full, line: nil,
                    message: "could not read this folder (\(reason)); its notes are skipped"))
            condition.unlock()
            return
        }
        let folder = OpenFolder(relative: relative, fd: own)
        defer { closedir(dir) }
        let rules = above.adding(folder: relative, fd: own)
        // The entry's vault-relative path, for rules that match paths: made in place, once a folder.
        var path = rules.needsPaths ? folder.prefix : []
        path.reserveCapacity(rules.needsPaths ? folder.prefix.count + 256 : 0)
        func isIgnored(_ name: UnsafeRawBufferPointer, isDirectory: Bool) -> Bool {
            guard !rules.isEmpty else { return false }
            // At the top a name is its path.
            guard rules.needsPaths && !folder.prefix.isEmpty else {
                return rules.isIgnored(path: name, nameStart: 0, isDirectory: isDirectory)
            }
            path.removeSubrange(folder.prefix.count...)
            path.append(contentsOf: name)
            return path.withUnsafeBytes {
                rules.isIgnored(path: $0, nameStart: folder.prefix.count, isDirectory: isDirectory)
            }
        }
        // A batch's names are gathered in a value (no class, so no exclusivity check per
        // append), then handed over whole.
        var gathered = GatheredNames()
        var sequence = 0
        while let entry = readdir(dir) {
            let type = Int32(entry.pointee.d_type)
            withUnsafeBytes(of: &entry.pointee.d_name) { raw in
                let length = raw.withMemoryRebound(to: CChar.self) { name in
                    name.baseAddress.map { strnlen($0, name.count) } ?? 0
                }
                let name = UnsafeRawBufferPointer(rebasing: raw[..<length])
                guard let first = name.first, first != UInt8(ascii: ".") else { return }
                var kind = type
                if kind == Int32(DT_UNKNOWN) {
                    var st = stat()
                    let found = raw.withMemoryRebound(to: CChar.self) { name in
                        name.baseAddress.map { fstatat(fd, $0, &st, AT_SYMLINK_NOFOLLOW) } ?? -1
                    }
                    let format = st.st_mode & S_IFMT
                    kind =
                        found != 0
                        ? Int32(DT_UNKNOWN)
                        : format == S_IFDIR
                            ? Int32(DT_DIR)
                            : format == S_IFREG
                                ? Int32(DT_REG) : format == S_IFLNK ? Int32(DT_LNK) : Int32(DT_UNKNOWN)
                }
                if kind == Int32(DT_DIR) {
                    guard !isIgnored(name, isDirectory: true) else { return }
                    let name = String(decoding: name, as: UTF8.self)
                    give(.folder(relative.isEmpty ? name : relative + "/" + name, rules))
                } else if kind == Int32(DT_LNK) {
                    noteSymlink(raw, name, in: fd, relative: relative, ignored: isIgnored)
                } else if kind == Int32(DT_REG) && !isIgnored(name, isDirectory: false) {
                    gathered.add(name)
                }
            }
            if gathered.starts.count == NameBatch.size {
                let batch = gathered.batch(of: folder, sequence: sequence)
                give(.batch(batch), batch: batch)
                sequence += 1
                gathered = GatheredNames()
            }
        }
        if !gathered.starts.isEmpty {
            let batch = gathered.batch(of: folder, sequence: sequence)
            give(.batch(batch), batch: batch)
        }
    }

    /// Remembers the symlink `name` (in `raw`, NUL-terminated) of the open folder `fd` when it
    /// leads to a folder that the ignore files do not ignore: it is not followed, and is said so.
    private func noteSymlink(
        _ raw: UnsafeRawBufferPointer, _ name: UnsafeRawBufferPointer, in fd: Int32, relative: String,
        ignored: (UnsafeRawBufferPointer, Bool) -> Bool
    ) {
        var st = stat()
        let found = raw.withMemoryRebound(to: CChar.self) { name in
            name.baseAddress.map { fstatat(fd, $0, &st, 0) } ?? -1
        }
        guard found == 0, st.st_mode & S_IFMT == S_IFDIR, !ignored(name, true) else { return }
        let name = String(decoding: name, as: UTF8.self)
        condition.lock()
        symlinkedFolders.append(relative.isEmpty ? name : relative + "/" + name)
        condition.unlock()
    }
}

/// Where `element` goes in `array`, sorted by `precedes`: after the elements equal to it.
private func sortedPlace<T>(of element: T, in array: [T], by precedes: (T, T) -> Bool) -> Int {
    var (low, high) = (0, array.count)
    while low < high {
        let middle = (low + high) / 2
        if precedes(element, array[middle]) { high = middle } else { low = middle + 1 }
    }
    return low
}

/// Inserts `element` into `array`, sorted by `precedes`, after the elements equal to it.
private func insertSorted<T>(_ element: T, into array: inout [T], by precedes: (T, T) -> Bool) {
    array.insert(element, at: sortedPlace(of: element, in: array, by: precedes))
}
