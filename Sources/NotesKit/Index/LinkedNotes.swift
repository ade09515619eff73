import Foundation

/// Which notes another note links to, kept beside the index (`index.linked`) for the one
/// catalog it was worked out for, so that `--orphan` resolves no link while nothing has changed
/// since it last asked. The file names what it was worked out from — the link rules, the base's
/// generation and the checksum of its header and tables, the delta's, and which of their records
/// the catalog holds as notes — and is used only when every one of these is the catalog's own.
/// Each record's tags and links have a checksum among its columns, which the header's checksum
/// covers, so a changed note, name, title, alias or link makes another key: the answer is then
/// worked out again from every link, and the file rewritten. Kept by record number (base, then
/// delta), not by the catalog's order, which differs between the command that writes a delta and
/// those that read it. Only a cache: written atomically, never trusted unchecked.
///
///     magic "MYNOTES-LINKED\n", u32 version, u8 link rules (0 all, 1 Obsidian's),
///     u64 base generation, u64 base checksum, u64 delta generation, u64 delta checksum
///     (both 0 without a delta), u32 record count (base and delta), u32 note count,
///     u64 checksum of the bits of the records that are the catalog's notes;
///     then a bit per record, eight to a byte, low bit first: set when another note links to it;
///     then the checksum of every byte before it (u64)
enum LinkedNotes {
    static let magic = Array("MYNOTES-LINKED\n".utf8)
    /// 2: Markdown links without an extension count (`LinkResolver.note(ofBare:from:)`).
    /// 3: wiki targets that are paths (`[[../Top]]`, `[[/Top]]`) and Markdown paths from the
    /// vault's top (`[p](/Plan)`) resolve as paths.
    static let version: UInt32 = 3

    /// The file beside the index at `indexPath`.
    static func path(besideIndex indexPath: String) -> String { indexPath + ".linked" }

    /// The number of records of the catalog's index, base and delta.
    private static func records(of index: IndexView) -> Int { index.base.count + (index.delta?.count ?? 0) }

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
        NoteIndexFile.append(UInt32(truncatingIfNeeded: records(of: index)), to: &key)
        NoteIndexFile.append(UInt32(truncatingIfNeeded: catalog.count), to: &key)
        let notes = bits(records(of: index)) { bits in
            for record in catalog.mapped { set(Int(record), in: &bits) }
        }
        NoteIndexFile.append(notes.withUnsafeBytes { IndexChecksum.of($0) }, to: &key)
        return key
    }

    /// `count` bits, clear, then set by `body`.
    private static func bits(_ count: Int, _ body: (inout [UInt8]) -> Void) -> [UInt8] {
        var bits = [UInt8](repeating: 0, count: (count + 7) / 8)
        body(&bits)
        return bits
    }

    private static func set(_ bit: Int, in bits: inout [UInt8]) { bits[bit / 8] |= 1 << UInt8(bit % 8) }

    /// The checksum an index file's header keeps of itself and its tables.
    private static func headerChecksum(of file: MappedIndex) -> UInt64 {
        let bytes = file.storage.bytes
        guard bytes.count >= IndexLayout.checksumOffset + 8 else { return 0 }
        return UInt64(
            littleEndian: bytes.loadUnaligned(fromByteOffset: IndexLayout.checksumOffset, as: UInt64.self))
    }

    /// The file's bytes for `catalog`: `key`, the bits of `linked` (by position) by record, the
    /// checksum.
    static func encode(_ linked: [Bool], of catalog: Catalog, key: [UInt8]) -> [UInt8] {
        guard let index = catalog.index else { return [] }
        var out = key
        out += bits(records(of: index)) { bits in
            for (position, record) in catalog.mapped.enumerated() where linked[position] {
                set(Int(record), in: &bits)
            }
        }
        NoteIndexFile.append(out.withUnsafeBytes { IndexChecksum.of($0) }, to: &out)
        return out
    }

    /// The answer in `bytes` for `catalog`, by position, if they begin with `key` (the catalog's)
    /// and are whole; else nil.
    static func decode(_ bytes: [UInt8], of catalog: Catalog, key: [UInt8]) -> [Bool]? {
        guard let index = catalog.index else { return nil }
        let count = (records(of: index) + 7) / 8
        guard bytes.count == key.count + count + 8, bytes.starts(with: key) else { return nil }
        let whole = bytes.withUnsafeBytes { raw -> Bool in
            let stored = UInt64(
                littleEndian: raw.loadUnaligned(fromByteOffset: raw.count - 8, as: UInt64.self))
            return IndexChecksum.of(UnsafeRawBufferPointer(rebasing: raw[..<(raw.count - 8)])) == stored
        }
        guard whole else { return nil }
        return catalog.mapped.map { record in
            bytes[key.count + Int(record) / 8] & (1 << UInt8(Int(record) % 8)) != 0
        }
    }

    /// The answer kept at `path` for `catalog`, whose key is `key`; nil when there is none for it.
    static func read(_ path: String, for catalog: Catalog, key: [UInt8]) -> [Bool]? {
        guard let (bytes, _) = try? FileSystem.read(path) else { return nil }
        return decode(bytes, of: catalog, key: key)
    }

    /// Keeps `linked` (by position) of `catalog`, whose key is `key`, at `path`, with the mode of
    /// the index beside it (the file says which notes link to which, as the index does). A file
    /// that cannot be written is simply not kept. A cache with a checksum, like the index: not
    /// synced (`PendingFile.durable`).
    static func write(_ linked: [Bool], of catalog: Catalog, key: [UInt8], to path: String, indexPath: String)
    {
        let mode = FileSystem.status(indexPath).map { $0.mode & 0o777 } ?? 0o600
        try? FileSystem.writeAtomically(
            encode(linked, of: catalog, key: key), to: path, mode: mode, keepExistingMode: false,
            durable: false)
    }
}
