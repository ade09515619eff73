import Foundation
import TestSupport

@testable import NotesKit

// The index decoder under fuzzing: index files encoded from notes made by `FuzzText`, read back
// whole; then damaged — bits flipped, words overwritten, bytes cut, added, spliced, rows swapped —
// and read again, twice. As commands read it (checksums checked), a damaged index is refused or
// reads exactly as encoded: every part that fails its check is read again, here from the index as
// it was (as a command reads the note's file), and no damage goes unnoticed. Beneath the checksums
// (read with `verifying: false`, as if damage had slipped past them), the bounds checks must still
// hold: a damaged file is rejected or read without a crash or a read outside it, the damage changes
// no record but those whose bytes it hit, and a file cut or grown is always rejected.

/// One record of an index file with every part made, as commands can see it.
struct DecodedRecord: Equatable {
    var path: [UInt8]
    var size: Int64
    var mtime: UInt64
    var inode: UInt64
    var ctime: Int64
    var isNote: Bool
    var removed: Bool
    var note: Note?
    var noteRead: Note?
    var warnings: [ParseWarning]
    var text: [UInt8]
    var refs: NoteRefs.Encoded
    var links: [IndexedLink]
    var linksRead: [IndexedLink]
    var foldedTitle: [UInt8]?
    var foldedTags: [[UInt8]]
    var linkKeys: [[UInt8]]
}

/// Where the regions of a valid index file are, from its header.
struct IndexRegions {
    var count: Int, slotCount: Int
    var records: Int, slots: Int, paths: Int, strings: Int, tags: Int, links: Int, end: Int

    init?(_ bytes: [UInt8]) {
        guard bytes.count >= IndexLayout.headerSize else { return nil }
        func u(_ at: Int, _ width: Int) -> Int {
            (0..<width).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) }
        }
        count = u(28, 4)
        slotCount = u(32, 4)
        records = IndexLayout.headerSize + u(36, 8)
        slots = records + count * IndexLayout.recordSize
        paths = slots + slotCount * 4
        strings = paths + u(44, 8)
        tags = strings + u(52, 8)
        links = tags + u(60, 4)
        end = links + u(64, 4)
    }

    /// The bytes that hold record `n`: its columns, path, text, strings, tags and links.
    func footprint(of n: Int, in index: MappedIndex, bytes: [UInt8]) -> [Range<Int>] {
        func column(_ offset: Int, _ width: Int) -> Int {
            (0..<width).reduce(0) {
                $0 | Int(bytes[records + n * IndexLayout.recordSize + offset + $1]) << (8 * $1)
            }
        }
        typealias C = IndexLayout.Column
        let text = IndexLayout.headerSize
        let stringsStart = strings + column(C.stringsOffset, 4)
        return [
            (records + n * IndexLayout.recordSize)..<(records + (n + 1) * IndexLayout.recordSize),
            (paths + column(C.pathOffset, 4))..<(paths + column(C.pathOffset, 4) + column(C.pathLength, 2)),
            (text + column(C.textOffset, 8))..<(text + column(C.textOffset, 8) + column(C.textLength, 4)),
            stringsStart..<(stringsStart + (index.stringsBytes(n)?.count ?? 0)),
            (tags + column(C.tagsOffset, 4))..<(tags + column(C.tagsOffset, 4) + column(C.tagsLength, 4)),
            (links + column(C.linksOffset, 4))..<(links + column(C.linksOffset, 4) + column(C.linksLength, 4)),
        ]
    }
}

enum IndexFuzz {
    /// How many records a repair was asked for.
    final class Rereads: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        var total: Int { lock.withLock { count } }
        func add() { lock.withLock { count += 1 } }
    }

    /// A repair that reads a record again from `original` (the index before the damage), as a
    /// vault reads it again from the note's file, counting in `rereads`.
    static func repair(from original: MappedIndex, titleSource: TitleSource, rereads: Rereads) -> IndexRepair
    {
        IndexRepair(
            reread: { path in
                rereads.add()
                guard let n = original.find(path) else { return nil }
                let bytes = NoteIndexFile.encode(
                    kept: [n], of: IndexView(base: original, delta: nil), read: [IndexTable](), removed: [],
                    titleSource: titleSource, kind: original.kind, generation: original.generation)
                return MappedIndex.open(TextStorage(bytes), titleSource: titleSource)
            }, discard: {})
    }

    /// As commands read it: `damaged` is refused, or reads exactly as `encoded`, and when its bytes
    /// differ, the difference was noticed (a part was read again).
    static func checkVerified(_ damaged: [UInt8], of encoded: Encoded, original: MappedIndex, what: String)
        -> [String]
    {
        let rereads = Rereads()
        guard
            let index = MappedIndex.open(
                TextStorage(damaged), titleSource: encoded.titleSource,
                repair: repair(from: original, titleSource: encoded.titleSource, rereads: rereads))
        else { return [] }
        var problems: [String] = []
        if index.count != encoded.expected.count {
            return [
                "a damaged index is accepted with \(index.count) records, not \(encoded.expected.count) (\(what))"
            ]
        }
        for n in 0..<index.count where decode(index, n) != encoded.expected[n] {
            problems.append(
                "record \(n) of a damaged index reads \(decode(index, n)), not as encoded (\(what))")
        }
        if damaged != encoded.bytes && rereads.total == 0 {
            problems.append("damage went unnoticed (\(what))")
        }
        return problems
    }

    /// Record `n` of `index`, every part made, through each reader commands use.
    static func decode(_ index: MappedIndex, _ n: Int) -> DecodedRecord {
        let record = index.record(at: n)
        var foldedTags: [[UInt8]] = []
        index.tagsChunk(n).forEachFoldedTag { tag in
            foldedTags.append(Array(tag))
            return true
        }
        var keys: [[UInt8]] = []
        index.linksChunk(n).forEachLink { link in
            keys +=
                [[link.flags], Array(link.key), Array(link.alternative)]
                + (link.heading.map { [Array($0)] } ?? [])
            return true
        }
        _ = index.date(at: n, order: .updated)
        _ = index.withID(at: n) { Array($0) }
        _ = index.tagsChunk(n).hasTags([Array("a".utf8)])
        _ = index.anchors(at: n)
        _ = index.anchors(at: n, viaPread: true)
        return DecodedRecord(
            path: Array(index.pathBytes(n)), size: record.size, mtime: UInt64(bitPattern: record.mtime),
            inode: record.inode, ctime: record.ctime,
            isNote: index.isNote(n), removed: record.removed, note: record.note,
            noteRead: index.isNote(n) ? index.note(at: n, viaPread: true) : nil, warnings: record.warnings,
            text: record.folded.withUnsafeBytes { Array($0) }, refs: record.refs, links: index.links(at: n),
            linksRead: index.links(at: n, viaPread: true),
            foldedTitle: index.tagsChunk(n).foldedTitle.map { Array($0) },
            foldedTags: foldedTags, linkKeys: keys)
    }

    /// A vault path: folders and a name from the fuzz words, mostly ending in `.md`.
    static func path(_ r: inout SplitMix) -> String {
        let segments = (0..<r.within(1...3)).map { _ -> String in
            let word = r.chance(60) ? r.pick(FuzzText.words) : FuzzText.piece(&r)
            let clean = String(word.unicodeScalars.filter { $0 != "/" && $0 != "\0" }.map(Character.init))
            return clean.isEmpty ? "n" : clean
        }
        let name = segments.joined(separator: "/")
        if r.chance(1) { return String(repeating: "long/", count: 14_000) + name + ".md" }
        return name + r.pick([".md", ".md", ".md", ".markdown", ""])
    }

    /// Adds to `table` the record the index makes of a file holding `text` (the way
    /// `NoteIndex` reads files), and returns what reading it back must give (nil when the path is
    /// too long to index).
    static func add(
        text: String, path: String, mtime: Int64, inode: UInt64, titleSource: TitleSource,
        readable: Bool, to table: inout IndexTable, folder: inout TextFolder
    ) -> DecodedRecord? {
        let start = table.texts.count
        let size = Int64(text.utf8.count)
        // A status-change time of its own, so that a column mixed up with another shows.
        let ctime = Int64(bitPattern: inode &* 0x9E37_79B9_7F4A_7C15)
        guard readable else {
            let warning = ParseWarning(line: 0, message: "the file could not be read; skipped")
            table.add(
                path: path, size: size, mtime: mtime, inode: inode, ctime: ctime, note: nil,
                warnings: [warning],
                refs: NoteRefs.Encoded(), textFrom: start)
            guard path.utf8.count <= Int(UInt16.max) else { return nil }
            return DecodedRecord(
                path: Array(path.utf8), size: size, mtime: UInt64(bitPattern: mtime), inode: inode,
                ctime: ctime, isNote: false,
                removed: false,
                note: nil, noteRead: nil, warnings: [warning], text: [],
                refs: NoteRefs.Encoded(tags: [], links: [], shown: ShownRefs.none),
                links: [], linksRead: [], foldedTitle: nil, foldedTags: [], linkKeys: [])
        }
        let document = NoteDocument(parsing: text)
        let status = FileStatus(
            kind: .regular, size: size, mtime: mtime, inode: inode, ctime: ctime, mode: 0o644)
        let note = Note(path: path, document: document, mtime: status.mtimeSeconds, titleFrom: titleSource)
        let warnings = (document.warnings + document.dateWarnings()).sorted { $0.line < $1.line }
        let loaded = LoadedNote(
            note: note, document: document, bytes: Array(text.utf8), status: status,
            diagnostics: warnings.map { Diagnostic(path: path, line: $0.line, message: $0.message) })
        if note.titleIsOutsideBody {
            folder.appendFolded(note.title, to: &table.texts)
            table.texts.append(0x0A)
        }
        folder.appendFolded(document.body, to: &table.texts)
        let folded = Array(table.texts[start...])
        let refs = Vault.refs(of: loaded, folding: &folder)
        table.add(
            path: path, size: size, mtime: mtime, inode: inode, ctime: ctime, note: note, warnings: warnings,
            refs: refs,
            textFrom: start)
        guard path.utf8.count <= Int(UInt16.max) else { return nil }

        // What the index keeps of the tags and links (too long for the layout: left out).
        let tags = note.tags.map { ($0, folder.foldedBytes($0)) }
            .filter { !$0.1.isEmpty && $0.1.count <= 255 && $0.0.utf8.count <= 255 }.prefix(Int(UInt16.max))
        let links = NoteLinks.all(document).map { ($0, LinkKeys.make($0, from: path, folding: &folder)) }
            .filter { link, keys in
                [link.text.utf8.count, keys.key.count, keys.alternative.count, link.heading?.utf8.count ?? 0]
                    .allSatisfy {
                        $0 <= Int(UInt16.max)
                    }
            }
            .prefix(Int(UInt16.max))
        var kept = note
        kept.tags = tags.map(\.0)
        let indexed = links.map { link, keys in
            IndexedLink(
                style: link.style, kind: link.kind, isEmbed: link.isEmbed,
                line: Int(UInt32(clamping: link.line)),
                text: link.text,
                target: link.target, heading: link.heading,
                targetRange: link.targetRange.lowerBound - link.range.lowerBound..<link.targetRange.upperBound
                    - link.range.lowerBound,
                keys: keys)
        }
        return DecodedRecord(
            path: Array(path.utf8), size: size, mtime: UInt64(bitPattern: mtime), inode: inode, ctime: ctime,
            isNote: true,
            removed: false,
            note: kept, noteRead: kept,
            warnings: warnings.map { ParseWarning(line: max(0, $0.line), message: $0.message) },
            text: folded, refs: refs, links: indexed, linksRead: indexed,
            foldedTitle: Array(folder.foldedBytes(note.title).prefix(Int(UInt16.max))),
            foldedTags: tags.map(\.1),
            linkKeys: links.flatMap { link, keys in
                [[NoteRefs.flags(of: link) & ~NoteRefs.embed], keys.key, keys.alternative]
                    + (link.heading.map { [Array($0.utf8)] } ?? [])
            })
    }

    /// A random index: its bytes, its title source, and what each record must read back as.
    struct Encoded {
        var bytes: [UInt8]
        var titleSource: TitleSource
        var expected: [DecodedRecord]
        var paths: [String]
    }

    static func encode(
        _ r: inout SplitMix, folder: inout TextFolder, kind: IndexKind = .base, generation: UInt64 = 7,
        removed: [String] = [], paths given: [String]? = nil
    ) -> Encoded {
        let titleSource: TitleSource = r.chance(80) ? .content : .filename
        var table = IndexTable()
        var expected: [DecodedRecord] = []
        var seen = Set(removed)
        var paths: [String] = []
        for candidate in given ?? (0..<r.within(0...10)).map({ _ in path(&r) })
        where seen.insert(candidate).inserted {
            let mtime =
                r.chance(90)
                ? Int64(r.within(0...2_000_000_000)) * 1_000_000_000 + Int64(r.below(1_000_000_000))
                : Int64(bitPattern: r.next())
            if let record = add(
                text: FuzzText.note(&r), path: candidate, mtime: mtime, inode: r.next(),
                titleSource: titleSource, readable: r.chance(92), to: &table, folder: &folder)
            {
                expected.append(record)
                paths.append(candidate)
            }
        }
        let bytes = NoteIndexFile.encode(
            kept: [], of: nil, read: [table], removed: removed, titleSource: titleSource,
            kind: kind, generation: generation)
        for path in removed {
            expected.append(
                DecodedRecord(
                    path: Array(path.utf8), size: 0, mtime: 0, inode: 0, ctime: 0, isNote: false,
                    removed: true,
                    note: nil, noteRead: nil,
                    warnings: [], text: [],
                    refs: NoteRefs.Encoded(tags: [], links: [], shown: ShownRefs.none), links: [],
                    linksRead: [], foldedTitle: nil, foldedTags: [], linkKeys: []))
            paths.append(path)
        }
        return Encoded(bytes: bytes, titleSource: titleSource, expected: expected, paths: paths)
    }

    /// An encoded index reads back as exactly what was encoded, finds each path, and is refused
    /// when read with the other title source.
    static func checkRoundTrip(_ r: inout SplitMix, folder: inout TextFolder) -> [String] {
        let encoded = encode(&r, folder: &folder)
        guard let index = MappedIndex.open(TextStorage(encoded.bytes), titleSource: encoded.titleSource)
        else {
            return ["a freshly encoded index of \(encoded.expected.count) records is refused"]
        }
        var problems: [String] = []
        if index.count != encoded.expected.count {
            problems.append("\(index.count) records, not \(encoded.expected.count)")
        }
        for n in 0..<min(index.count, encoded.expected.count) {
            let got = decode(index, n)
            if got != encoded.expected[n] {
                problems.append("record \(n) reads back as\n\(got)\nnot\n\(encoded.expected[n])")
            }
            if index.find(encoded.paths[n]) != n { problems.append("the path of record \(n) is not found") }
        }
        let other: TitleSource = encoded.titleSource == .content ? .filename : .content
        if MappedIndex.open(TextStorage(encoded.bytes), titleSource: other) != nil {
            problems.append("an index made with another title source is accepted")
        }
        return problems
    }

    /// Damage done to an index file's bytes: where (in the original's offsets), and whether bytes
    /// were cut or added (then offsets after that point moved, even if the length is the same).
    struct Damage {
        var bytes: [UInt8]
        var touched: [Range<Int>] = []
        var resized = false
        var steps: [String] = []
    }

    static func damage(_ original: [UInt8], _ regions: IndexRegions, _ r: inout SplitMix) -> Damage {
        var d = Damage(bytes: original)
        let interesting: [UInt64] = [
            0, 1, 2, 0x7F, 0x80, 0xFF, 0xFFFF, 0x1_0000, 0x7FFF_FFFF, 0xFFFF_FFFF, 0x1_0000_0000,
            UInt64(Int64.max), UInt64.max, UInt64(original.count), UInt64(regions.count),
        ]
        func offset() -> Int {
            guard !d.bytes.isEmpty else { return 0 }
            switch r.below(5) {
            case 0: return r.below(min(IndexLayout.headerSize, d.bytes.count))
            case 1 where regions.count > 0:
                return min(
                    d.bytes.count - 1, regions.records + r.below(regions.count * IndexLayout.recordSize))
            case 2:
                return min(d.bytes.count - 1, regions.slots + r.below(max(1, regions.paths - regions.slots)))
            default: return r.below(d.bytes.count)
            }
        }
        for _ in 0..<(r.chance(70) ? 1 : r.within(2...4)) {
            switch r.below(10) {
            case 0, 1:
                guard !d.bytes.isEmpty else { continue }
                let at = offset()
                let bit = r.below(8)
                d.bytes[at] ^= UInt8(1 << bit)
                d.touched.append(at..<(at + 1))
                d.steps.append("flip bit \(bit) at \(at)")
            case 2, 3:
                // A column of a record (or a header field) set to a value that matters.
                let width = r.pick([1, 2, 4, 8])
                let at =
                    r.chance(75) && regions.count > 0
                    ? regions.records + r.below(regions.count) * IndexLayout.recordSize
                        + r.pick([0, 8, 16, 24, 32, 40, 48, 52, 56, 60, 62, 64, 68, 72, 76, 80, 84, 88, 92])
                    : r.pick([19, 20, 28, 32, 36, 44, 52, 60, 64, 68, 72])
                guard at + width <= d.bytes.count else { continue }
                let value = r.chance(50) ? r.pick(interesting) : r.next()
                for k in 0..<width { d.bytes[at + k] = UInt8(truncatingIfNeeded: value >> (8 * k)) }
                d.touched.append(at..<(at + width))
                d.steps.append("set \(width) bytes at \(at) to \(value)")
            case 4:
                d.bytes.removeSubrange(
                    (r.chance(30) ? max(0, d.bytes.count - 1) : r.below(d.bytes.count + 1))...)
                d.resized = true
                d.steps.append("cut to \(d.bytes.count) bytes")
            case 5:
                let extra = (0..<r.within(1...16)).map { _ in UInt8(truncatingIfNeeded: r.next()) }
                if r.chance(50) {
                    d.bytes += extra
                } else {
                    d.bytes.insert(contentsOf: extra, at: r.below(d.bytes.count + 1))
                }
                d.resized = true
                d.steps.append("added \(extra.count) bytes")
            case 6:
                guard !d.bytes.isEmpty else { continue }
                let at = r.below(d.bytes.count)
                d.bytes.removeSubrange(at..<min(d.bytes.count, at + r.within(1...16)))
                d.resized = true
                d.steps.append("removed bytes at \(at)")
            case 7:
                // A run copied over another of the same length.
                guard d.bytes.count > 2 else { continue }
                let n = r.within(1...min(64, d.bytes.count / 2))
                let from = r.below(d.bytes.count - n + 1)
                let to = r.below(d.bytes.count - n + 1)
                d.bytes.replaceSubrange(to..<(to + n), with: Array(d.bytes[from..<(from + n)]))
                d.touched.append(to..<(to + n))
                d.steps.append("copied \(n) bytes from \(from) to \(to)")
            case 8:
                // Two records' rows swapped.
                guard regions.count > 1, regions.slots <= d.bytes.count else { continue }
                let a = r.below(regions.count)
                let b = r.below(regions.count)
                let size = IndexLayout.recordSize
                let ra = (regions.records + a * size)..<(regions.records + (a + 1) * size)
                let rb = (regions.records + b * size)..<(regions.records + (b + 1) * size)
                let rowA = Array(d.bytes[ra])
                let rowB = Array(d.bytes[rb])
                d.bytes.replaceSubrange(ra, with: rowB)
                d.bytes.replaceSubrange(rb, with: rowA)
                d.touched += [ra, rb]
                d.steps.append("swapped records \(a) and \(b)")
            default:
                guard !d.bytes.isEmpty else { continue }
                let at = offset()
                d.bytes[at] = r.pick([0x00, 0xFF, 0x80, 0x7F, 0x01])
                d.touched.append(at..<(at + 1))
                d.steps.append("set the byte at \(at)")
            }
        }
        return d
    }

    /// Damage spelled by bytes (libFuzzer's): each five bytes an offset (u32) and a value; a value
    /// of 0 cuts the file there, any other is XORed into the byte.
    static func damage(_ original: [UInt8], edits: ArraySlice<UInt8>) -> Damage {
        var d = Damage(bytes: original)
        var edits = edits
        while edits.count >= 5, !d.bytes.isEmpty {
            let word = edits.prefix(4).enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
            let value = edits[edits.startIndex + 4]
            edits = edits.dropFirst(5)
            let at = word % d.bytes.count
            if value == 0 {
                d.bytes.removeSubrange(at...)
                d.resized = true
                d.steps.append("cut to \(at) bytes")
            } else {
                d.bytes[at] ^= value
                d.touched.append(at..<(at + 1))
                d.steps.append("xor \(value) at \(at)")
            }
        }
        return d
    }

    /// A random index (from `seed`) damaged as `edits` say.
    static func checkDamage(seed: UInt64, edits: ArraySlice<UInt8>, folder: inout TextFolder) -> [String] {
        var r = SplitMix(seed: seed)
        let encoded = encode(&r, folder: &folder)
        guard let regions = IndexRegions(encoded.bytes),
            let original = MappedIndex.open(TextStorage(encoded.bytes), titleSource: encoded.titleSource)
        else { return ["a freshly encoded index is refused"] }
        return check(
            damaged: damage(encoded.bytes, edits: edits), of: encoded, original: original, regions: regions)
    }

    /// A damaged index is refused, or read without a crash: records the damage did not hit read as
    /// encoded, a path is never found as another, and one cut or grown is refused.
    static func checkDamage(_ r: inout SplitMix, folder: inout TextFolder) -> [String] {
        let encoded = encode(&r, folder: &folder)
        guard let regions = IndexRegions(encoded.bytes),
            let original = MappedIndex.open(TextStorage(encoded.bytes), titleSource: encoded.titleSource)
        else { return ["a freshly encoded index is refused"] }
        let d = damage(encoded.bytes, regions, &r)
        return check(damaged: d, of: encoded, original: original, regions: regions)
    }

    static func check(damaged d: Damage, of encoded: Encoded, original: MappedIndex, regions: IndexRegions)
        -> [String]
    {
        let what = d.steps.joined(separator: ", ")
        var problems = checkVerified(d.bytes, of: encoded, original: original, what: what)
        // Beneath the checksums.
        let structural = d.touched.contains { $0.overlaps(28..<68) }
        guard
            let index = MappedIndex.open(
                TextStorage(d.bytes), titleSource: encoded.titleSource, verifying: false)
        else { return problems }
        if d.bytes.count != encoded.bytes.count && !structural {
            problems.append("an index of another length is accepted (\(what))")
        }
        let view = IndexView(base: index, delta: nil)
        let decoded = (0..<index.count).map { decode(index, $0) }
        for n in 0..<index.count { _ = view.note(at: n) }
        // A path is only ever found as a record with that very path.
        for path in encoded.paths {
            if let n = index.find(path), !index.pathBytes(n).elementsEqual(path.utf8) {
                problems.append(
                    "\(fuzzShow(path)) is found as record \(n), \(fuzzShow(Array(index.pathBytes(n)))) (\(what))"
                )
            }
        }
        guard !structural && !d.resized else { return problems }
        if index.count != encoded.expected.count {
            return problems + ["the count changed without a header change (\(what))"]
        }
        for n in 0..<index.count {
            let hit = regions.footprint(of: n, in: original, bytes: encoded.bytes).contains { part in
                d.touched.contains { $0.overlaps(part) }
            }
            if !hit && decoded[n] != encoded.expected[n] {
                problems.append("record \(n), whose bytes were not touched, reads \(decoded[n]) (\(what))")
            }
        }
        return problems
    }

    /// A base and a delta of it: the view joins them (the delta's records win, its removals hide
    /// the base's); damage to either is refused or read without a crash.
    static func checkDelta(_ r: inout SplitMix, folder: inout TextFolder) -> [String] {
        let generation = r.next()
        let base = encode(&r, folder: &folder, generation: generation)
        let basePaths = base.paths
        var deltaPaths: [String] = []
        var removed: [String] = []
        for path in basePaths {
            switch r.below(3) {
            case 0: deltaPaths.append(path)
            case 1: removed.append(path)
            default: break
            }
        }
        deltaPaths += (0..<r.within(0...3)).map { _ in path(&r) }.filter { !basePaths.contains($0) }
        let delta = encode(
            &r, folder: &folder, kind: .delta, generation: generation, removed: removed, paths: deltaPaths)
        guard let b = MappedIndex.open(TextStorage(base.bytes), titleSource: base.titleSource),
            let dMapped = MappedIndex.open(TextStorage(delta.bytes), titleSource: delta.titleSource)
        else { return ["a freshly encoded base or delta is refused"] }
        var problems: [String] = []
        if base.titleSource == delta.titleSource {
            let view = IndexView(base: b, delta: dMapped)
            let live = Set(basePaths).subtracting(removed).union(delta.paths.filter { !removed.contains($0) })
            if view.liveCount != live.count {
                problems.append("\(view.liveCount) live records, not \(live.count)")
            }
            for path in Set(basePaths + delta.paths) {
                let found = view.find(path)
                if removed.contains(path) {
                    if found != nil { problems.append("a removed path is found") }
                } else if let i = delta.paths.firstIndex(of: path) {
                    if found != b.count + i { problems.append("a path of the delta is not found there") }
                } else if found != basePaths.firstIndex(of: path) {
                    problems.append("a path of the base is not found there")
                }
            }
        }
        // Damage to the delta: refused or read as encoded; beneath the checksums, the view is still
        // made and read without a crash.
        if let regions = IndexRegions(delta.bytes) {
            let d = damage(delta.bytes, regions, &r)
            problems += checkVerified(
                d.bytes, of: delta, original: dMapped, what: d.steps.joined(separator: ", "))
            if let damaged = MappedIndex.open(
                TextStorage(d.bytes), titleSource: delta.titleSource, verifying: false)
            {
                let view = IndexView(base: b, delta: damaged)
                for path in basePaths + delta.paths { _ = view.find(path) }
                for n in 0..<(b.count + (view.delta?.count ?? 0)) {
                    _ = view.note(at: n)
                    _ = view.links(at: n)
                    _ = view.path(at: n)
                }
            }
        }
        return problems
    }

    /// Any bytes as an index file (libFuzzer's own mutations): refused, or read without a crash,
    /// with checksums checked and (so that such bytes get past them at all) without.
    static func checkRaw(_ bytes: [UInt8]) -> [String] {
        for source in TitleSource.allCases {
            for verifying in [true, false] {
                guard
                    let index = MappedIndex.open(
                        TextStorage(bytes), titleSource: source, verifying: verifying)
                else { continue }
                for n in 0..<index.count { _ = decode(index, n) }
                let view = IndexView(base: index, delta: index)
                for n in 0..<index.count { _ = view.find(index.path(at: n)) }
            }
        }
        return []
    }
}
