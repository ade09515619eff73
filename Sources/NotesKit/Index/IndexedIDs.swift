extension NoteStore {
    /// The IDs starting with `prefix` (byte for byte) of the notes the index file holds, read as it
    /// is, without checking it against the files: what shell completion needs at the speed of a
    /// keystroke (a fresh index at 100,000 notes is read in a few milliseconds; the check would
    /// take a fifth of a second). Nil when there is no usable index (then ask the catalog).
    public func indexedIDs(prefix: String) -> [String]? {
        guard let base = TextStorage(mapping: indexPath).flatMap({ NoteIndexFile.map($0, titleSource: vault.titleSource) }),
              base.kind == .base else { return nil }
        let view = IndexView(base: base, delta: TextStorage(mapping: indexPath + ".delta")
            .flatMap { NoteIndexFile.map($0, titleSource: vault.titleSource) })
        let wanted = Array(prefix.utf8)
        var ids: [String] = []
        func take(_ number: Int) {
            view.withID(at: number) { id in
                guard id.count >= wanted.count, wanted.indices.allSatisfy({ id[$0] == wanted[$0] }) else { return }
                ids.append(String(decoding: id, as: UTF8.self))
            }
        }
        let none = UnsafeRawBufferPointer(start: nil, count: 0)
        for number in 0..<base.count where base.isNote(number) {
            // A record the delta has again (changed or removed) is the delta's to say.
            if let delta = view.delta, delta.find(base.pathBytes(number), none) != nil { continue }
            take(number)
        }
        if let delta = view.delta {
            for number in 0..<delta.count where delta.isNote(number) && !delta.isRemoved(number) {
                take(base.count + number)
            }
        }
        return ids.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}
