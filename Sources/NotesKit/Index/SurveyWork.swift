import Foundation

/// The shared state of a survey: a stack of folders to read and batches to check, taken by
/// every worker until none is left and none is busy.
final class SurveyWork: @unchecked Sendable {
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
    /// What folders held when last listed (`FolderListing`), and how long a folder must have been
    /// left alone for its listing to be kept.
    let listings: FolderListings?
    let settle: Int64
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
    /// How many files the walk has put into batches so far (under `condition`).
    private var found = 0
    /// The listings that may be kept, and whether any was made afresh (under `condition`).
    private(set) var kept = FolderListings()
    private(set) var listedAnew = false

    init(
        root: String, index: IndexView?, statting: Bool, listings: FolderListings?, settle: Int64,
        streaming: Bool = false
    ) {
        self.root = root
        self.index = index
        self.statting = statting
        self.listings = listings
        self.settle = settle
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

    /// How many files the walk has found so far.
    func foundSoFar() -> Int {
        condition.lock()
        defer { condition.unlock() }
        return found
    }

    private func give(_ item: Item) {
        condition.lock()
        let batch: NameBatch? = if case .batch(let batch) = item { batch } else { nil }
        if let batch { found += batch.starts.count }
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
    /// ignore files and those above (`rules`) ignore is left out. A folder that is as its kept
    /// listing says (`listings`) is not read: the listing is replayed, in the order it was read.
    private func read(_ relative: String, rules above: IgnoreRules) {
        defer { finished(relative) }
        let full = relative.isEmpty ? root : root + "/" + relative
        func unreadable(_ error: Int32) {
            let reason = String(cString: strerror(error))
            condition.lock()
            diagnostics.append(
                Diagnostic(
                    path: full, line: nil,
                    message: "could not read this folder (\(reason)); its notes are skipped"))
            condition.unlock()
        }
        // The folder's descriptor, which the batches hold (`OpenFolder` closes it).
        let own = open(full, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard own >= 0 else { return unreadable(errno) }
        let folder = OpenFolder(relative: relative, fd: own)
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
        func gather(_ name: UnsafeRawBufferPointer) {
            gathered.add(name)
            guard gathered.starts.count == NameBatch.size else { return }
            let batch = gathered.batch(of: folder, sequence: sequence)
            give(.batch(batch))
            sequence += 1
            gathered = GatheredNames()
        }
        defer {
            if !gathered.starts.isEmpty {
                let batch = gathered.batch(of: folder, sequence: sequence)
                give(.batch(batch))
            }
        }
        func enter(_ name: UnsafeRawBufferPointer) {
            let name = String(decoding: name, as: UTF8.self)
            give(.folder(relative.isEmpty ? name : relative + "/" + name, rules))
        }
        // The time before the stamp, the stamp before the listing: a change after the stamp moves
        // the folder's times past it.
        let now = FolderListing.now()
        var st = stat()
        let stamp = fstat(own, &st) == 0 ? FolderListing.Stamp(st) : nil
        let key = Array(relative.utf8)
        if let stamp, let listing = listings?.byPath[key], listing.stamp == stamp,
            listing.rules == rules.fingerprint
        {
            // As it was: what it held, as listing it would find it (the same names, kinds and rules).
            listing.forEachEntry { kind, name, raw in
                switch kind {
                case .file: gather(name)
                case .folder: enter(name)
                case .symlink: noteSymlink(raw, name, in: own, relative: relative, ignored: isIgnored)
                }
            }
            keep(listing, at: key, anew: false)
            return
        }
        // Listed: through a descriptor of its own, which `closedir` closes (a replayed folder
        // needs neither, nor the buffer `fdopendir` allocates).
        let fd = fcntl(own, F_DUPFD_CLOEXEC, 0)
        guard fd >= 0, let dir = fdopendir(fd) else {
            let error = errno
            if fd >= 0 { close(fd) }
            return unreadable(error)
        }
        defer { closedir(dir) }
        var listing = stamp.flatMap {
            FolderListing.mayKeep($0, of: own, now: now, settle: settle)
                ? FolderListing(stamp: $0, rules: rules.fingerprint) : nil
        }
        while true {
            // A listing cut short by an error is no listing to keep (its notes would stay missing).
            errno = 0
            guard let entry = readdir(dir) else {
                if errno != 0 { listing = nil }
                break
            }
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
                    // An entry whose kind could not be told may be a note: list the folder again.
                    if found != 0 { listing = nil }
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
                    listing?.add(.folder, name)
                    enter(name)
                } else if kind == Int32(DT_LNK) {
                    listing?.add(.symlink, name)
                    noteSymlink(raw, name, in: fd, relative: relative, ignored: isIgnored)
                } else if kind == Int32(DT_REG) && !isIgnored(name, isDirectory: false) {
                    listing?.add(.file, name)
                    gather(name)
                }
            }
        }
        if let listing { keep(listing, at: key, anew: true) }
    }

    /// Keeps the listing of the folder at `key` for the next survey.
    private func keep(_ listing: FolderListing, at key: [UInt8], anew: Bool) {
        condition.lock()
        kept.byPath[key] = listing
        if anew { listedAnew = true }
        condition.unlock()
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
