import Foundation
import NotesKit

/// Keeps the browser's notes current while it is open, so that notes another program adds,
/// changes or removes show up within about a second. On a thread of its own it brings a
/// store of its own up to date with the files — the freshness check every command makes: a walk
/// and a `stat` per file, reading only what changed — and when anything changed it sorts the notes
/// for a new live search and wakes the browser's loop with a byte on a pipe. Keystrokes never wait
/// for it.
///
/// It checks every half second, or after four times the processor time the last check took when
/// that is longer (a huge vault: 100,000 notes cost about a quarter of a second), so that it takes
/// at most a fifth of the processor. After a minute without a key it checks every five seconds,
/// and the next key makes it check at once.
final class CatalogWatcher: @unchecked Sendable {
    private let lock = NSLock()
    /// Counts the browser's own changes: a search found before one is stale.
    private var generation = 0
    private var published: (search: LiveSearch, generation: Int)?
    private var warnings: [String] = []
    private var stopping = false
    private let wakeUp = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private var started = false
    /// When the user last pressed a key.
    private var lastKey = ContinuousClock.now
    /// Whether the watcher is in its long pause (no key for a while).
    private var resting = false

    /// Seconds between two checks, at least.
    static let pause = 0.5
    /// No key for this long, and the watcher checks only every `restingPause`.
    static let restAfter = Duration.seconds(60)
    static let restingPause = 5.0

    /// Starts watching `vault` (whose catalog holds `count` notes now), keeping what `filter` keeps
    /// sorted in `order`, and writing a byte to `notify` when there is a new search to take.
    func start(
        vault: Vault, cacheDirectory: String, order: NotesKit.SortOrder, filter: NoteFilter, count: Int,
        notify: Int32
    ) {
        started = true
        let thread = Thread { [self] in
            watch(
                vault: vault, cacheDirectory: cacheDirectory, order: order, filter: filter, count: count,
                notify: notify)
            finished.signal()
        }
        thread.name = "notes catalog watcher"
        thread.start()
    }

    /// Stops the thread and waits for it (for the check it is in the middle of, if any).
    func stop() {
        guard started else { return }
        locked { stopping = true }
        wakeUp.signal()
        finished.wait()
        started = false
    }

    /// Says that the browser changed the vault itself (and read it again): whatever the watcher
    /// found before is older than that, and the next check hands its result over in any case.
    func invalidate() {
        locked {
            generation += 1
            published = nil
        }
    }

    /// Notes a key: after a long pause, the watcher checks at once.
    func keyPressed() {
        let wake = locked { () -> Bool in
            lastKey = .now
            defer { resting = false }
            return resting
        }
        if wake { wakeUp.signal() }
    }

    /// A new live search, when the vault changed since the browser's own last look.
    func take() -> LiveSearch? {
        locked {
            defer { published = nil }
            guard let published, published.generation == generation else { return nil }
            return published.search
        }
    }

    /// The warnings about files the watcher read, to print once the browser is closed.
    func takeWarnings() -> [String] {
        locked {
            defer { warnings = [] }
            return warnings
        }
    }

    private func watch(
        vault: Vault, cacheDirectory: String, order: NotesKit.SortOrder, filter: NoteFilter, count: Int,
        notify: Int32
    ) {
        let store = NoteStore(vault: vault, cacheDirectory: cacheDirectory)
        var lastCount = count
        var lastGeneration = 0
        var pause = CatalogWatcher.pause
        while wakeUp.wait(timeout: .now() + pause) == .timedOut || !locked({ stopping }) {
            let generation = locked { self.generation }
            let start = CatalogWatcher.processorSeconds()
            let catalog = store.refresh()
            let found = store.takeDiagnostics().map(\.description)
            // A file read means something changed, and so does a note gone; after the browser's own
            // change, the result is handed over whatever it holds (see `invalidate`).
            let changed = catalog.filesRead > 0 || catalog.count != lastCount || generation != lastGeneration
            (lastCount, lastGeneration) = (catalog.count, generation)
            if changed {
                let search = LiveSearch(catalog: catalog, order: order, filter: filter)
                let handed = locked { () -> Bool in
                    warnings += found
                    guard !stopping else { return false }
                    published = (search, generation)
                    return true
                }
                if handed {
                    var byte = UInt8(ascii: "c")
                    _ = write(notify, &byte, 1)
                }
            } else if !found.isEmpty {
                locked { warnings += found }
            }
            let busy = max(CatalogWatcher.pause, 4 * (CatalogWatcher.processorSeconds() - start))
            pause = locked { () -> Double in
                resting = ContinuousClock.now - lastKey > CatalogWatcher.restAfter
                return resting ? max(busy, CatalogWatcher.restingPause) : busy
            }
        }
    }

    /// The processor time this process has used, on all its threads.
    private static func processorSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}
