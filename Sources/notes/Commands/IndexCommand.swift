import Foundation
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
        guard let vault = try context.vault(forWriting: false) else { return }
        let start = Date()
        let showProgress = FileSystem.isTerminal(2)
        var shown = false
        let catalog = vault.catalog(rebuild: rebuild) { done, total in
            // A progress bar only when the work takes more than about half a second.
            guard showProgress, Date().timeIntervalSince(start) > 0.5 || shown else { return }
            shown = true
            let width = 30
            let filled = total == 0 ? width : width * done / total
            let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
            FileHandle.standardError.write(Data("\rIndexing [\(bar)] \(done)/\(total)".utf8))
        }
        if shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        for diagnostic in catalog.diagnostics { context.output.warn(diagnostic.description) }
        // Writing the index is this command's whole job: not writing it is its failure.
        if let error = catalog.indexError { throw error }
        let state = catalog.indexWritten ? "updated" : "already up to date"
        let count = catalog.notes.count == 1 ? "1 note" : "\(catalog.notes.count) notes"
        context.output.err("Index \(state): \(count), \(catalog.filesRead) read (\(vault.indexPath)).")
    }
}
