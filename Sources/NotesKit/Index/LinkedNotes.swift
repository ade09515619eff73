import Foundation

/// Which notes another note links to, by catalog position, kept beside the index
/// (`index.linked`) for the one catalog it was worked out for, so that `--orphan` resolves no
/// link while nothing has changed since it last asked. The file names what it was worked out
/// from — the link rules, the base's generation and the checksum of its header and tables, the
/// delta's, and a checksum of the records the catalog holds, in order — and is used only when
/// every one of these is the catalog's own. Each record's tags and links have a checksum among
/// its columns, which the header's checksum covers, so a changed note, name, title, alias or
/// link makes another key: the answer is then worked out again from every link, and the file
/// rewritten. Only a cache: written atomically, never trusted unchecked.
///
///     magic "MYNOTES-LINKED\n", u32 version, u8 link rules (0 all, 1 Obsidian's),
///     u64 base generation, u64 base checksum, u64 delta generation, u64 delta checksum
///     (both 0 without a delta), u32 note count, u64 checksum of the catalog's record numbers;
///     then a bit per note, eight to a byte, low bit first: set when another note links to it;
///     then the checksum of every byte before it (u64)
enum LinkedNotes {
    static let magic = Array("MYNOTES-LINKED\n".utf8)
    static let version: UInt32 = 1

    /// The file beside the index at `indexPath`.
    static func path(besideIndex indexPath: String) -> String { indexPath + ".linked" }

    /// What the file must begin with to hold the answer for `catalog`; nil without an index.
    static func key(of catalog: Catalog) -> [UInt8]? {
        guard let index = catalog.index else { return nil }
        var key = magic
        NoteIndexFile.append(version, to: &key)
        key.append(catalog.linkRules == .all ? 0 : 1)
        NoteIndexFile.append(index.base.generation, to: &key)
        NoteIndexFile.append(headerChecksum(of: index.base), to: &key)
        NoteIndexFile.append(index.delta?.generation ?? 0, to: &key)
        NoteIndexFile.append(index.delta.map(headerChecksum(of:)) ?? 0, to: &key)
        NoteIndexFile.append(UInt32(truncatingIfNeeded: catalog.count), to: &key)
        NoteIndexFile.append(catalog.mapped.withUnsafeBytes { IndexChecksum.of($0) }, to: &key)
        return key
    }

    /// The checksum an index file's header keeps of itself and its tables.
    private static func headerChecksum(of file: MappedIndex) -> UInt64 {
        let bytes = file.storage.bytes
        guard bytes.count >= IndexLayout.checksumOffset + 8 else { return 0 }
        return UInt64(
            littleEndian: bytes.loadUnaligned(fromByteOffset: IndexLayout.checksumOffset, as: UInt64.self))
    }

    /// The file's bytes: `key`, the bits of `linked`, the checksum.
    static func encode(_ linked: [Bool], key: [UInt8]) -> [UInt8] {
        var out = key
        out.reserveCapacity(key.count + (linked.count + 7) / 8 + 8)
        var byte: UInt8 = 0
        for (i, isLinked) in linked.enumerated() {
            if isLinked { byte |= 1 << UInt8(i % 8) }
            if i % 8 == 7 {
                out.append(byte)
                byte = 0
            }
        }
        if linked.count % 8 != 0 { out.append(byte) }
        NoteIndexFile.append(out.withUnsafeBytes { IndexChecksum.of($0) }, to: &out)
        return out
    }

    /// The answer in `bytes` for `count` notes, if they begin with `key` and are whole; else nil.
    static func decode(_ bytes: [UInt8], key: [UInt8], count: Int) -> [Bool]? {
        let bits = (count + 7) / 8
        guard bytes.count == key.count + bits + 8, bytes.starts(with: key) else { return nil }
        let sum = bytes.withUnsafeBytes { raw -> Bool in
            let stored = UInt64(
                littleEndian: raw.loadUnaligned(fromByteOffset: raw.count - 8, as: UInt64.self))
            return IndexChecksum.of(UnsafeRawBufferPointer(rebasing: raw[..<(raw.count - 8)])) == stored
        }
        guard sum else { return nil }
        return (0..<count).map { i in bytes[key.count + i / 8] & (1 << UInt8(i % 8)) != 0 }
    }

    /// The answer kept at `path` for the catalog whose key is `key`; nil when there is none for it.
    static func read(_ path: String, key: [UInt8], count: Int) -> [Bool]? {
        guard let (bytes, _) = try? FileSystem.read(path) else { return nil }
        return decode(bytes, key: key, count: count)
    }

    /// Keeps `linked` at `path` for the catalog whose key is `key`, with the mode of the index
    /// beside it (the file says which notes link to which, as the index does). A file that cannot
    /// be written is simply not kept.
    static func write(_ linked: [Bool], key: [UInt8], to path: String, indexPath: String) {
        let mode = FileSystem.status(indexPath).map { $0.mode & 0o777 } ?? 0o600
        try? FileSystem.writeAtomically(
            encode(linked, key: key), to: path, mode: mode, keepExistingMode: false)
    }
}
