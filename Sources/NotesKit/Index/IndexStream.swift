import Foundation

/// An index file written while the files it records are still being read: the header's place
/// and the kept records' texts first, then each batch's texts as soon as it is read (on a queue of
/// their own, beside the readers, with the disk writing them back early), then the tables and the
/// header; then it is put in place atomically. The same layout `NoteIndexFile.write` makes.
final class IndexStream: @unchecked Sendable {
    private let file: PendingFile
    private let queue = DispatchQueue(label: "notes.index-writer")
    private var table: IndexTable
    private var chunks: [IndexTable] = []

    /// Starts the file that will become `path`, with the records `kept` of `index`.
    init(path: String, kept: [Int], of index: IndexView?, capacity: Int) throws(VaultError) {
        do {
            file = try PendingFile(beside: path)
        } catch {
            throw VaultError(error)
        }
        table = IndexTable(capacity: capacity)
        [UInt8](repeating: 0, count: IndexLayout.headerSize).withUnsafeBytes(file.append)
        table.addKept(kept, of: index).forEach(file.append)
    }

    /// Adds the records of `read` (just read, in order); their texts are written out meanwhile.
    func add(_ read: [IndexTable]) {
        // Kept without their texts, which are let go once written: the memory is used again for
        // the next batch (no new pages to fault in), and the texts are never all held at once.
        chunks += read.map { chunk in
            var kept = chunk
            kept.texts = []
            return kept
        }
        queue.async { [file] in
            for chunk in read { chunk.texts.withUnsafeBytes(file.append) }
            file.startWriteback()
        }
    }

    /// Writes the tables (with the tombstones `removed`) and the header, and puts the file in place.
    func commit(
        removed: [String], titleSource: TitleSource, kind: IndexKind, generation: UInt64, mode: mode_t
    ) throws(VaultError) {
        queue.sync {}
        for chunk in chunks { table.appendRecords(of: chunk) }
        table.addRemoved(removed)
        let slots = table.slots()
        table.emitTables(slots: slots, file.append)
        NoteIndexFile.header(
            of: table, slots: slots, titleSource: titleSource, kind: kind, generation: generation
        )
        .withUnsafeBytes { file.write($0, at: 0) }
        do {
            try file.commit(mode: mode)
        } catch {
            throw VaultError(error)
        }
    }
}
