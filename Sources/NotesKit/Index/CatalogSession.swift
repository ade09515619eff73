import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// A vault's catalog kept fresh for a long-running program (the language server): on a thread of
/// its own, with a store of its own, it brings the catalog up to date with the files — the
/// freshness check every command makes — whenever a folder of the vault changes (inotify, or the
/// folders' modification times compared every `pollInterval`), at least every `fullInterval`
/// when polling (so rewrites in place are seen too), and when asked. Readers on other threads
/// take the latest catalog, an immutable snapshot, without waiting for a refresh in progress.
public final class CatalogSession: @unchecked Sendable {
    /// A catalog and its generation, which grows by one each time the catalog changes.
    public struct Snapshot: Sendable {
        public let catalog: Catalog
        public let generation: Int
    }

    /// How the session learns of changes.
    public enum Watching: Sendable {
        /// inotify where there is one, else polling.
        case automatic
        /// The folders' modification times, every `pollInterval`.
        case polling
        /// Only refreshes asked for (`refresh`, `refreshSoon`).
        case none
    }

    /// Seconds between two looks at the folders' modification times, when polling.
    public static let pollInterval = 1.0
    /// Seconds between two full freshness checks, when polling: rewrites in place change no
    /// folder.
    public static let fullInterval = 60.0

    private let store: NoteStore
    private let watching: Watching
    private let log: @Sendable (String) -> Void
    private let changed: @Sendable () -> Void
    private let condition = NSCondition()
    private var current: Snapshot?
    private var asked = 0
    private var done = 0
    private var stopping = false
    private var started = false
    private var thread: Thread?
    private let finished = DispatchSemaphore(value: 0)
    private var wake: (read: Int32, write: Int32) = (-1, -1)

    /// A session over `store`'s vault, which it uses from its own thread from now on (the caller
    /// keeps no other reference to it); `log` gets the warnings about files read, and `changed`
    /// is called (on the session's thread) after each refresh that changed the catalog.
    public init(
        store: NoteStore, watching: Watching = .automatic,
        log: @escaping @Sendable (String) -> Void, changed: @escaping @Sendable () -> Void
    ) {
        self.store = store
        self.watching = watching
        self.log = log
        self.changed = changed
    }

    /// Starts the thread; the first catalog is read on it, so this returns at once.
    public func start() {
        guard !started else { return }
        started = true
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            wake = (fds[0], fds[1])
            _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
            _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        }
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "notes catalog session"
        thread.start()
        self.thread = thread
    }

    /// Stops the thread, waiting for the refresh it is in the middle of.
    public func stop() {
        guard started else { return }
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
        poke()
        finished.wait()
        started = false
        close(wake.read)
        close(wake.write)
    }

    /// The latest catalog, waiting for the first one.
    public var snapshot: Snapshot {
        condition.lock()
        defer { condition.unlock() }
        while current == nil && !stopping { condition.wait() }
        return current ?? Snapshot(catalog: Catalog.empty, generation: 0)
    }

    /// Gives back the pages of the latest catalog's mapped index that this process touched (a
    /// long-running program calls it when it has answered, so a scan of the whole vault does not
    /// stay resident); they are mapped again, from the page cache, when next read. Does not wait.
    public func releaseResidentPages() {
        condition.lock()
        let catalog = current?.catalog
        condition.unlock()
        catalog?.index?.releaseResidentPages()
    }

    /// Brings the catalog up to date now and returns it (waiting for the session's thread).
    @discardableResult
    public func refresh() -> Snapshot {
        condition.lock()
        asked += 1
        let ticket = asked
        condition.unlock()
        poke()
        condition.lock()
        defer { condition.unlock() }
        while done < ticket && !stopping { condition.wait() }
        return current ?? Snapshot(catalog: Catalog.empty, generation: 0)
    }

    /// Asks for a refresh without waiting for it (the editor said files changed).
    public func refreshSoon() {
        condition.lock()
        asked += 1
        condition.unlock()
        poke()
    }

    private func poke() {
        var byte = UInt8(ascii: "r")
        _ = write(wake.write, &byte, 1)
    }

    private func run() {
        let mode: FolderWatch.Mode =
            switch watching {
            case .automatic: .automatic
            case .polling: .polling
            case .none: .none
            }
        let watch = FolderWatch(root: store.vault.root, mode: mode)
        var generation = 0
        var last: (count: Int, files: Int)?
        var lastFull = ContinuousClock.now
        var dirty = true
        while true {
            condition.lock()
            let stop = stopping
            let wanted = asked
            let pending = wanted > done
            condition.unlock()
            if stop { return }
            let full = watch.mode == .polling && ContinuousClock.now - lastFull >= .seconds(Self.fullInterval)
            if dirty || pending || full {
                // The folders are listed (and watched) before the walk, so no change slips between.
                watch.rescan()
                let catalog = store.refresh()
                lastFull = ContinuousClock.now
                for diagnostic in store.takeDiagnostics() { log("warning: \(diagnostic.description)") }
                let shape = (catalog.count, catalog.files.count)
                let differs =
                    last.map { $0 != shape } ?? true || catalog.filesRead > 0 || catalog.indexWritten
                last = shape
                if differs || current == nil { generation += 1 }
                condition.lock()
                if differs || current == nil { current = Snapshot(catalog: catalog, generation: generation) }
                done = max(done, wanted)
                condition.broadcast()
                condition.unlock()
                if differs && generation > 1 { changed() }
                // What the freshness check read of the index is not kept resident.
                catalog.index?.releaseResidentPages()
                dirty = false
            }
            let timeout =
                watch.mode == .polling ? Self.pollInterval : 3600
            dirty = watch.wait(timeout: timeout, wake: wake.read)
            var sink = [UInt8](repeating: 0, count: 64)
            while sink.withUnsafeMutableBytes({ read(wake.read, $0.baseAddress, $0.count) }) > 0 {}
        }
    }
}

extension Catalog {
    /// A catalog of no notes (a session stopped before its first refresh).
    static var empty: Catalog {
        Catalog(
            index: nil, mapped: [], files: [], diagnostics: [], filesRead: 0, indexWritten: false,
            indexError: nil, linkRules: .all, symlinkedFolders: [])
    }
}
