import NotesKit

/// `notes index`: brings the index cache up to date (SPEC §8).
struct IndexCommand: NotesCommand {
    static let spec = CommandSpec(
        name: "index", overview: "Bring the index cache up to date.",
        options: [rebuildFlag.spec],
        discussion: """
        Every command keeps the cache in <vault>/.notes/index fresh by itself, reading only the notes
        that changed; this runs that step alone. The cache can be deleted at any time.
        """)

    static let rebuildFlag = Flag("rebuild", help: "Read every note again instead of only new and changed ones.")

    let rebuild: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        rebuild = arguments.flag(Self.rebuildFlag)
    }

    func run(_ context: Context) throws {
        guard let store = try context.store(forWriting: false) else { return }
        let progress = ProgressBar(label: "Indexing")
        // Unlike other commands it waits for a writer that holds the lock, rather than leave the writing to it.
        let catalog = store.refresh(rebuild: rebuild, waitForLock: true) { done, total in
            progress.update(done: done, total: total)
        }
        progress.finish()
        context.reportDiagnostics(of: store)
        // Writing the index is this command's whole job: not writing it is its failure.
        if let error = catalog.indexError { throw error }
        let state = catalog.indexWritten ? "updated" : "already up to date"
        let count = catalog.count == 1 ? "1 note" : "\(catalog.count) notes"
        context.output.err("Index \(state): \(count), \(catalog.filesRead) read (\(store.indexPath)).")
    }
}
