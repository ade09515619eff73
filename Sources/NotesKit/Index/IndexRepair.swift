import Foundation

/// What an index does with a record whose part fails its check (`IndexChecksum`): the note is read
/// again from its file, alone, into an index in memory, and that is what the command sees; and the
/// damaged file is put aside, once, so that the next command writes a new one. Made by the vault
/// that owns the index (`Vault.catalog`); shared by the threads of a search.
final class IndexRepair: @unchecked Sendable {
    private let reread: @Sendable (String) -> MappedIndex?
    private let discard: @Sendable () -> Void
    private let lock = NSLock()
    /// The records read again, by number (nil: the file is no note now, or is gone).
    private var records: [Int: MappedIndex?] = [:]
    private var discarded = false

    /// `reread` makes a one-record index of the file at a vault path; `discard` puts the damaged
    /// index file aside.
    init(reread: @escaping @Sendable (String) -> MappedIndex?, discard: @escaping @Sendable () -> Void) {
        self.reread = reread
        self.discard = discard
    }

    /// Record `number`, at vault path `path`, read again: the only record of an index in memory;
    /// nil when the file is gone or cannot be read.
    func record(_ number: Int, path: String) -> MappedIndex? {
        let (known, first) = lock.withLock { () -> (MappedIndex??, Bool) in
            defer { discarded = true }
            return (records[number], !discarded)
        }
        if first { discard() }
        if let known { return known }
        let index = reread(path).flatMap { $0.count == 1 ? $0 : nil }
        return lock.withLock {
            // Another thread may have read it meanwhile: every caller gets the same one.
            if let raced = records[number] { return raced }
            records[number] = .some(index)
            return index
        }
    }
}
