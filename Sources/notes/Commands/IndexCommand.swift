import NotesKit

/// `notes index`: brings the index cache up to date.
struct IndexCommand: NotesCommand {
    static let spec = CommandSpec(
        name: "index", overview: "Bring the index cache up to date.",
        options: [rebuildFlag.spec],
        discussion: """
            Every command keeps the cache in <vault>/.notes/index fresh by itself, reading only the notes
            that changed; this runs that step alone, and then checks every note in the cache against its
            checksums (commands check only what they read), rebuilding the cache if any is damaged. The
            cache can be deleted at any time.
            """)

    static let rebuildFlag = Flag(
        "rebuild", help: "Read every note again instead of only new and changed ones.")

    let rebuild: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        rebuild = arguments.flag(Self.rebuildFlag)
    }

    func run(_ context: Context) throws {
        guard let store = try context.store(creatingDefaultVault: false) else { return }
        let progress = ProgressBar(label: "Indexing")
        // Unlike other commands it waits for a writer that holds the lock, rather than leave the
        // writing to it.
        let report = { (done: Int, total: Int) in progress.update(done: done, total: total) }
        var catalog = store.refresh(rebuild: rebuild, waitForLock: true, progress: report)
        // A byte changed in the cache (by a disk, or a hand) is caught by its checksum when a
        // command reads it; here every part of every note is read, and any damage means a rebuild.
        let damaged = catalog.indexError == nil ? catalog.damagedNotes : 0
        if damaged > 0 {
            catalog = store.refresh(rebuild: true, waitForLock: true, progress: report)
        }
        progress.finish()
        context.reportDiagnostics(of: store)
        // Writing the index is this command's whole job: not writing it is its failure.
        if let error = catalog.indexError { throw error }
        let state =
            damaged > 0
            ? "rebuilt, \(damaged == 1 ? "1 note was" : "\(damaged) notes were") damaged in it"
            : catalog.indexWritten ? "updated" : "already up to date"
        let count = catalog.count == 1 ? "1 note" : "\(catalog.count) notes"
        context.output.err("Index \(state): \(count), \(catalog.filesRead) read (\(store.indexPath)).")
    }
}
