import Foundation

/// An index file written while the files it records are still being read: the header's place
/// and the kept records' texts first, then each batch's texts as soon as it is read (on a queue of
/// their own, beside the readers), then the tables and the header; then it is put in place
/// atomically, by a rename without a sync (a cache: see `PendingFile.durable`). The same layout
/// `NoteIndexFile.write` makes.
final class IndexStream: @unchecked Sendable {
    private let file: PendingFile
    private let queue = DispatchQueue(label: "notes.index-writer")
    /// The records so far. Each batch's are joined to them on the queue, as its texts are written,
    /// so that `commit` has only the path table and the writing left; touched only on the queue,
    /// and by `commit` once the queue is done.
    private var table: IndexTable
    /// Text buffers written out and emptied, for the readers' next chunks (`textBuffer`).
    private let spareTexts = WorkerStates<[UInt8]> { [] }

    /// Starts the file that will become `path`, with the records `kept` of `index`.
    init(path: String, kept: [Int], of index: IndexView?, capacity: Int) throws(VaultError) {
        do {
            // (Its folder's stale temps were swept as the refresh began.)
            file = try PendingFile(beside: path, sweep: false, durable: false)
        } catch {
            throw VaultError(error)
        }
        table = IndexTable(capacity: capacity)
        [UInt8](repeating: 0, count: IndexLayout.headerSize).withUnsafeBytes(file.append)
        table.addKept(kept, of: index).forEach(file.append)
    }

    /// An empty buffer for a chunk's folded texts, with room for `capacity` bytes: where there is
    /// one, a buffer whose texts were written out already. Its pages are used again: a new buffer
    /// for every chunk would have the kernel fault in and zero pages as large as all the texts,
    /// the allocator having given the freed ones back.
    func textBuffer(capacity: Int) -> [UInt8] {
        var buffer = spareTexts.take()
        buffer.reserveCapacity(capacity)
        return buffer
    }

    /// Adds the records of `read` (just read, in order), taking their texts (leaving `read`'s
    /// empty): they are written out meanwhile, and their buffers kept for `textBuffer`.
    func add(_ read: inout [IndexTable]) {
        let texts = TextBuffers()
        for i in read.indices {
            texts.buffers.append([])
            swap(&texts.buffers[i], &read[i].texts)
        }
        let tables = read
        queue.async { [self] in
            // A megabyte a call, not a call a chunk: the kernel takes that for half the work.
            var pieces: [UnsafeRawBufferPointer] = []
            withBytes(of: texts.buffers[...], gathered: &pieces, file.append(all:))
            file.startWriteback()
            for chunk in tables { table.appendRecords(of: chunk) }
            // Each buffer is held by `texts` alone: emptied in place, it keeps its memory.
            for i in texts.buffers.indices {
                var buffer: [UInt8] = []
                swap(&buffer, &texts.buffers[i])
                buffer.removeAll(keepingCapacity: true)
                spareTexts.give(buffer)
            }
        }
    }

    /// Makes room for `count` records in all (`IndexTable.expect`), on the queue: a walk that has
    /// found that many files tells it, long before they are all read.
    func expect(records count: Int) {
        queue.async { [self] in table.expect(records: count) }
    }

    /// Returns once the texts of every batch added so far are written (and their buffers kept).
    func waitForWrites() {
        queue.sync {}
    }

    /// Removes the file, now, once the writer's queue is done: nothing is to be written after all.
    /// (Its last reference may be a block still on the queue, so the file cannot wait for `deinit`.)
    func abandon() {
        waitForWrites()
        file.abandon()
    }

    /// Writes the tables (with the tombstones `removed`) and the header, and puts the file in place.
    func commit(
        removed: [String], titleSource: TitleSource, kind: IndexKind, generation: UInt64, mode: mode_t
    ) throws(VaultError) {
        waitForWrites()
        table.addRemoved(removed)
        let slots = table.slots()
        do {
            // Thousands of pieces (each chunk's strings, tags and links), written on all cores.
            let written = table
            file.appendOnAllCores { written.emitTables(slots: slots, $0) }
        }
        NoteIndexFile.header(
            of: table, slots: slots, titleSource: titleSource, kind: kind, generation: generation
        )
        .withUnsafeBytes { file.write($0, at: 0) }
        // The tables (thousands of chunks' strings, tags and links) and the spare text buffers are
        // let go on the queue: freeing them would hold up the search that follows the writing.
        let leftovers = Leftovers()
        swap(&leftovers.table, &table)
        queue.async { [spareTexts] in
            leftovers.table = IndexTable()
            spareTexts.removeAll()
        }
        do {
            try file.commit(mode: mode)
        } catch {
            throw VaultError(error)
        }
    }
}

/// Calls `body` with the bytes of all of `arrays` (after those `gathered` already), at once.
private func withBytes(
    of arrays: ArraySlice<[UInt8]>, gathered: inout [UnsafeRawBufferPointer],
    _ body: ([UnsafeRawBufferPointer]) -> Void
) {
    guard let first = arrays.first else { return body(gathered) }
    first.withUnsafeBytes { bytes in
        gathered.append(bytes)
        withBytes(of: arrays.dropFirst(), gathered: &gathered, body)
    }
}

/// What a stream no longer needs once its file is written, in a box, to be let go on its queue.
private final class Leftovers: @unchecked Sendable {
    var table = IndexTable()
}

/// The text buffers of a batch on their way to the writer, in a box so that each buffer has one
/// owner at a time (and can be emptied in place, keeping its memory).
private final class TextBuffers: @unchecked Sendable {
    var buffers: [[UInt8]] = []
}
