import Foundation

/// The index as a command sees it: a base and, when it extends that very base, a delta whose
/// records win. Records are numbered across both: the base's first, then the delta's.
final class IndexView: @unchecked Sendable {
    let base: MappedIndex
    let delta: MappedIndex?
    /// How many records stand for files: the base's that the delta does not replace or remove,
    /// and the delta's that are not removals.
    let liveCount: Int

    /// A view of `base` and `delta`; a delta of another base (one merged since) is left out.
    init(base: MappedIndex, delta: MappedIndex?) {
        self.base = base
        let delta = delta.flatMap { $0.kind == .delta && $0.generation == base.generation ? $0 : nil }
        self.delta = delta
        var live = base.count
        if let delta {
            for number in 0..<delta.count {
                if base.find(delta.pathBytes(number), UnsafeRawBufferPointer(start: nil, count: 0)) != nil {
                    live -= 1
                }
                if !delta.isRemoved(number) { live += 1 }
            }
        }
        liveCount = live
    }

    /// The number of the record whose path is `prefix` followed by `name`, if the view has a live one.
    func find(_ prefix: UnsafeRawBufferPointer, _ name: UnsafeRawBufferPointer) -> Int? {
        find(prefix, name, after: nil)
    }

    /// `find`, trying first the base's record after `previous` (the one found for the name before):
    /// a folder lists its files in the order the index recorded them, so the guess is mostly right,
    /// and costs a comparison of bytes next to the last ones instead of a hash and a lookup in a
    /// table far away in memory. (A base has one record per path, so a record with the path is
    /// the one `find` would give.)
    func find(_ prefix: UnsafeRawBufferPointer, _ name: UnsafeRawBufferPointer, after previous: Int?) -> Int?
    {
        if let delta, let number = delta.find(prefix, name) {
            return delta.isRemoved(number) ? nil : base.count + number
        }
        if let previous, previous + 1 < base.count, base.has(prefix, name, at: previous + 1) {
            return previous + 1
        }
        return base.find(prefix, name)
    }

    /// The number of the record of `path`, if the view has a live one.
    func find(_ path: String) -> Int? {
        var path = path
        return path.withUTF8 {
            find(UnsafeRawBufferPointer($0), UnsafeRawBufferPointer(start: nil, count: 0))
        }
    }

    /// The file and its own record number for a view-wide number.
    func locate(_ number: Int) -> (file: MappedIndex, number: Int) {
        if number >= base.count, let delta { return (delta, number - base.count) }
        return (base, number)
    }

    /// Numbers grouped by the file they belong to, in order.
    func split(_ numbers: [Int]) -> [(MappedIndex, [Int])] {
        var inBase: [Int] = []
        var inDelta: [Int] = []
        for number in numbers {
            if number < base.count { inBase.append(number) } else { inDelta.append(number - base.count) }
        }
        return [(base, inBase)] + (delta.map { [($0, inDelta)] } ?? [])
    }

    /// Releases the pages holding the folded texts of `numbers` from this process (they stay in
    /// the page cache; reading them again maps them again). Only the pages wholly inside the span
    /// of those texts in each file, and only when the texts lie mostly together.
    func releaseText(of numbers: ArraySlice<Int32>) {
        // One span per file (the base's, the delta's), widened record by record.
        var spans = (base: TextSpan(), delta: TextSpan())
        for number in numbers {
            let number = Int(number)
            if number < base.count {
                spans.base.add(base.rawText(number))
            } else if let delta {
                spans.delta.add(delta.rawText(number - base.count))
            }
        }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let files: [(MappedIndex?, TextSpan)] = [(base, spans.base), (delta, spans.delta)]
        for (file, span) in files {
            // Memory of our own (an index encoded in memory) would read back as zeros.
            guard let file, file.storage.isMapped, span.bytes > 0, span.high - span.low <= 2 * span.bytes
            else { continue }
            let first = (span.low + page - 1) / page * page
            let last = span.high / page * page
            if last > first, let start = UnsafeMutableRawPointer(bitPattern: first) {
                madvise(start, last - first, MADV_DONTNEED)
            }
        }
    }

    /// The addresses that some texts of one file span, and how many bytes they hold.
    private struct TextSpan {
        var low = Int.max
        var high = 0
        var bytes = 0

        mutating func add(_ text: UnsafeRawBufferPointer) {
            guard let start = text.baseAddress else { return }
            let address = Int(bitPattern: start)
            low = min(low, address)
            high = max(high, address + text.count)
            bytes += text.count
        }
    }

    func isCurrent(_ number: Int, _ status: FileStatus) -> Bool {
        let (file, n) = locate(number)
        return file.isCurrent(n, status)
    }
    func isNote(_ number: Int) -> Bool {
        let (file, n) = locate(number)
        return file.isNote(n)
    }
    func isFile(_ number: Int) -> Bool {
        let (file, n) = locate(number)
        return file.isFile(n)
    }
    func anchors(at number: Int, viaPread: Bool = false) -> NoteAnchors {
        let (file, n) = locate(number)
        return file.anchors(at: n, viaPread: viaPread)
    }
    func importedFrom(at number: Int) -> String {
        let (file, n) = locate(number)
        return file.importedFrom(at: n)
    }
    func flags(_ number: Int) -> UInt8 {
        let (file, n) = locate(number)
        return file.flags(n)
    }
    func path(at number: Int) -> String {
        let (file, n) = locate(number)
        return file.path(at: n)
    }
    func note(at number: Int, viaPread: Bool = false) -> Note {
        let (file, n) = locate(number)
        return file.note(at: n, viaPread: viaPread)
    }
    func textBytes(_ number: Int) -> UnsafeRawBufferPointer {
        let (file, n) = locate(number)
        return file.textBytes(n)
    }
    func textBytes(_ number: Int, finding probes: TextFolding.Probes) -> (
        text: UnsafeRawBufferPointer, found: Bool
    ) {
        let (file, n) = locate(number)
        return file.textBytes(n, finding: probes)
    }
    func tagsChunk(_ number: Int) -> TagsChunk {
        let (file, n) = locate(number)
        return file.tagsChunk(n)
    }
    func linksChunk(_ number: Int) -> LinkKeysChunk {
        let (file, n) = locate(number)
        return file.linksChunk(n)
    }
    func links(at number: Int, viaPread: Bool = false) -> [IndexedLink] {
        let (file, n) = locate(number)
        return file.links(at: n, viaPread: viaPread)
    }

    func date(at number: Int, order: SortOrder) -> Double {
        let (file, n) = locate(number)
        return file.date(at: n, order: order)
    }

    /// See `TextStorage.releaseResidentPages`.
    func releaseResidentPages() {
        base.storage.releaseResidentPages()
        delta?.storage.releaseResidentPages()
    }

    func withID<R>(at number: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        let (file, n) = locate(number)
        return file.withID(at: n, body)
    }

    func withTitle<R>(at number: Int, viaPread: Bool, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        let (file, n) = locate(number)
        return file.withTitle(at: n, viaPread: viaPread, body)
    }
}
