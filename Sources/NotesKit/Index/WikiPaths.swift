import Foundation

/// Wiki targets that are paths, as Obsidian's "relative path" link format writes them: `./s` and
/// `../../Top` from the linking note's folder, `/Top` from the vault's top. Such a target names
/// the note at that path and no other — no file name, alias or title — and one that climbs above
/// the vault's top names none.
extension LinkResolver {
    /// Whether a wiki target (or attachment target) starts with `./`, `../` or `/`.
    static func isPathTarget(_ target: UnsafeRawBufferPointer) -> Bool {
        let (dot, slash) = (UInt8(ascii: "."), UInt8(ascii: "/"))
        guard let first = target.first else { return false }
        if first == slash { return true }
        guard first == dot, target.count >= 2 else { return false }
        return target[1] == slash || (target.count >= 3 && target[1] == dot && target[2] == slash)
    }

    /// `isPathTarget` of a string.
    static func isPathTarget(_ target: String) -> Bool {
        var target = target
        return target.withUTF8 { isPathTarget(UnsafeRawBufferPointer($0)) }
    }

    /// The vault path (an ID, as a wiki key has it: without `.md`) that the path target `key`
    /// names from the note at vault path `source`; nil when it leaves the vault. Worked out on the
    /// bytes, as `Vault.normalized` reads a path (empty and `.` parts dropped, `..` climbing), for
    /// it runs once per path link each time links are resolved.
    static func wikiPath(_ key: UnsafeRawBufferPointer, from source: [UInt8]) -> [UInt8]? {
        let (dot, slash) = (UInt8(ascii: "."), UInt8(ascii: "/"))
        func isDots(_ part: Slice<UnsafeRawBufferPointer>, _ count: Int) -> Bool {
            part.count == count && part.allSatisfy { $0 == dot }
        }
        // A folder (`./`, `../..`) is no note.
        let last = key[(key.lastIndex(of: slash).map { $0 + 1 } ?? 0)...]
        guard !last.isEmpty, !isDots(last, 1), !isDots(last, 2) else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(source.count + key.count)
        // The parts kept so far, each as where it starts in `out` (its `/` before it, if any).
        var starts: [Int] = []
        var climbs = 0
        func add(_ part: Slice<UnsafeRawBufferPointer>) {
            if part.isEmpty || isDots(part, 1) { return }
            if isDots(part, 2) {
                guard let start = starts.popLast() else {
                    climbs += 1
                    return
                }
                out.removeSubrange(start...)
                return
            }
            starts.append(out.count)
            if !out.isEmpty { out.append(slash) }
            out.append(contentsOf: part)
        }
        if key.first != slash, let folderEnd = source.lastIndex(of: slash) {
            source.withUnsafeBytes { bytes in
                for part in bytes[..<folderEnd].split(separator: slash, omittingEmptySubsequences: false) {
                    add(part)
                }
            }
        }
        for part in key.split(separator: slash, omittingEmptySubsequences: false) { add(part) }
        // A path that climbs above the vault's top leaves it.
        return climbs > 0 || out.isEmpty ? nil : out
    }

    /// The note the path target `key` names from the note at `source`: the note whose ID is the
    /// path, else the one whose ID is the path ignoring case (`CaselessName`, as file names
    /// compare); nil when there is none, or when the path leaves the vault.
    func position(ofWikiPath key: UnsafeRawBufferPointer, from source: [UInt8]) -> Int? {
        guard let id = LinkResolver.wikiPath(key, from: source) else { return nil }
        return id.withUnsafeBytes { bytes -> Int? in
            if let found = position(ofID: bytes) { return found }
            // A `.markdown` note keeps its extension in its ID, and a path names it without.
            if let found = (id + Array(".markdown".utf8)).withUnsafeBytes({ position(ofID: $0) }) {
                return found
            }
            let wanted = CaselessName.key(bytes)
            let named = positions(ending: bytes, caseless: true).filter { position in
                let found = Note.id(forPath: String(decoding: path(position), as: UTF8.self))
                return CaselessName.key(found) == wanted
            }
            return named.min { a, b in
                Note.id(forPath: String(decoding: path(a), as: UTF8.self)).utf8.lexicographicallyPrecedes(
                    Note.id(forPath: String(decoding: path(b), as: UTF8.self)).utf8)
            }
        }
    }

    /// The last part of a path target (`Top` in `../../Top`).
    static func lastPart(_ target: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        let start = target.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0
        return UnsafeRawBufferPointer(rebasing: target[start...])
    }
}
