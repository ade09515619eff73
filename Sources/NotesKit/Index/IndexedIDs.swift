import Foundation

extension NoteStore {
    /// The IDs starting with `prefix` (byte for byte) of the notes the index file holds, read as it
    /// is, without checking it against the files: what shell completion needs at the speed of a
    /// keystroke (the check would take a fifth of a second at 100,000 notes). Sorted in code-point
    /// order. Nil when there is no usable index (then ask the catalog).
    public func indexedIDs(prefix: String) -> [String]? {
        indexedIDLines(prefix: prefix).map { bytes in
            bytes.split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// The notes the index file holds, read as it is (see `indexedIDs`), as a catalog: what shell
    /// completion lists tags from without reading a note's file. Nil when there is no usable index.
    public func indexedCatalog() -> Catalog? {
        guard let (view, numbers) = indexedRecords() else { return nil }
        return Catalog(
            index: view, mapped: numbers.map { Int32(truncatingIfNeeded: $0) }, files: [], diagnostics: [],
            filesRead: 0, indexWritten: false, indexError: nil, linkRules: vault.linkRules)
    }

    /// The index file as it is (base and delta), and the numbers of its records that are notes:
    /// a base record the delta has again (changed or removed) is the delta's to say.
    private func indexedRecords() -> (IndexView, [Int])? {
        guard
            let base = TextStorage(mapping: indexPath).flatMap({
                NoteIndexFile.map($0, titleSource: vault.titleSource)
            }),
            base.kind == .base
        else { return nil }
        let view = IndexView(
            base: base,
            delta: TextStorage(mapping: indexPath + ".delta")
                .flatMap { NoteIndexFile.map($0, titleSource: vault.titleSource) })
        var numbers: [Int] = []
        let none = UnsafeRawBufferPointer(start: nil, count: 0)
        for number in 0..<base.count where base.isNote(number) {
            if let delta = view.delta, delta.find(base.pathBytes(number), none) != nil { continue }
            numbers.append(number)
        }
        if let delta = view.delta {
            for number in 0..<delta.count where delta.isNote(number) && !delta.isRemoved(number) {
                numbers.append(base.count + number)
            }
        }
        return (view, numbers)
    }

    /// `indexedIDs` as UTF-8 lines, each ended by a line feed, made without a string per note: at
    /// 100,000 notes and an empty prefix, the strings and their sort would cost more than the rest.
    public func indexedIDLines(prefix: String) -> [UInt8]? {
        let wanted = Array(prefix.utf8)
        return indexedIDLines { id in
            id.count >= wanted.count && wanted.indices.allSatisfy { id[$0] == wanted[$0] }
        }
    }

    /// `indexedIDLines` of the IDs (as UTF-8) that `isWanted` takes, which are the only ones sorted.
    public func indexedIDLines(where isWanted: (UnsafeRawBufferPointer) -> Bool) -> [UInt8]? {
        guard let (view, numbers) = indexedRecords() else { return nil }
        var text: [UInt8] = []
        var spans: [(start: Int, count: Int)] = []
        for number in numbers {
            view.withID(at: number) { id in
                guard isWanted(id) else { return }
                spans.append((text.count, id.count))
                text.append(contentsOf: id)
            }
        }
        return text.withUnsafeBytes { bytes in
            spans.sort { a, b in
                Catalog.precedes(
                    UnsafeRawBufferPointer(rebasing: bytes[a.start..<(a.start + a.count)]),
                    UnsafeRawBufferPointer(rebasing: bytes[b.start..<(b.start + b.count)]))
            }
            var lines: [UInt8] = []
            lines.reserveCapacity(text.count + spans.count)
            for span in spans {
                lines.append(contentsOf: bytes[span.start..<(span.start + span.count)])
                lines.append(0x0A)
            }
            return lines
        }
    }
}
