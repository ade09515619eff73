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
    /// names from the note at vault path `source`; nil when it leaves the vault.
    static func wikiPath(_ key: UnsafeRawBufferPointer, from source: [UInt8]) -> String? {
        let target = String(decoding: key, as: UTF8.self)
        // A folder (`./`, `../..`) is no note.
        guard let last = target.split(separator: "/", omittingEmptySubsequences: false).last,
            last != "", last != ".", last != ".."
        else { return nil }
        if target.hasPrefix("/") { return LinkKeys.join("", String(target.drop { $0 == "/" })) }
        return LinkKeys.join(LinkKeys.folder(of: String(decoding: source, as: UTF8.self)), target)
    }

    /// The note the path target `key` names from the note at `source`: the note whose ID is the
    /// path, else the one whose ID is the path ignoring case (`CaselessName`, as file names
    /// compare); nil when there is none, or when the path leaves the vault.
    func position(ofWikiPath key: UnsafeRawBufferPointer, from source: [UInt8]) -> Int? {
        guard let id = LinkResolver.wikiPath(key, from: source) else { return nil }
        return Array(id.utf8).withUnsafeBytes { bytes -> Int? in
            if let found = position(ofID: bytes) { return found }
            // A `.markdown` note keeps its extension in its ID, and a path names it without.
            if let found = Array((id + ".markdown").utf8).withUnsafeBytes({ position(ofID: $0) }) {
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
