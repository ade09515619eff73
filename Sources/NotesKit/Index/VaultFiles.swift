import Foundation

/// Where an attachment link goes: the one resolution of `links`, `links --broken` and `sync`.
/// A target (as `NoteLink.decodedTarget` has it: a path, percent-decoded, without `#fragment`)
/// goes, first that applies, to the file at that path from the linking note's folder, or from the
/// vault's top (only from the top with a leading `/`; a target that starts with `./`, `../` or `/`
/// goes there or nowhere); else to the files with that file name
/// (extension and all) — with folders in the target, those whose path ends with them — the nearest
/// to the note (fewest folder steps, then the smaller path); else the same ignoring case (simple
/// lower-case mapping, NFC), as Obsidian finds `[[Photo.PNG]]`; else it is broken.
public enum AttachmentResolver {
    /// The vault-relative path of the file `target` in the note at `notePath` goes to; nil when
    /// none. `exists` says whether a vault path is one of the files; `named` gives the files with
    /// a file name (`folded`: the lower-cased NFC name of files so named).
    public static func resolve(
        _ target: String, from notePath: String, exists: (String) -> Bool,
        named: (_ name: String, _ folded: Bool) -> [String]
    ) -> String? {
        let folder = notePath.split(separator: "/").dropLast().map(String.init)
        let folderBytes = Array(folder.joined(separator: "/").utf8)
        let parts = target.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard let name = parts.last else { return nil }
        // `./a.png`, `../img/a.png`, `/img/a.png` are paths (Obsidian's "relative path" link
        // format), and name only the file at them: never one elsewhere by its name, nor one
        // outside the vault.
        let fromTop = target.hasPrefix("/")
        let relative = target.hasPrefix("./") || target.hasPrefix("../")
        for start in fromTop ? [[]] : relative ? [folder] : [folder, []] {
            if let path = normalized(start + parts), exists(path) { return path }
        }
        if fromTop || relative {
            // Else that path ignoring case, as a note's path is (a vault made where case is ignored).
            guard let path = normalized((fromTop ? [] : folder) + parts) else { return nil }
            let wanted = fold(path)
            return named(fold(name), true).filter { fold($0) == wanted }.min {
                $0.utf8.lexicographicallyPrecedes($1.utf8)
            }
        }
        // With folders, the end of the path must be them: `../img/a.png` ends with `img/a.png`.
        let tail = Array(parts.reversed().prefix { $0 != "." && $0 != ".." }.reversed())
        for folded in [false, true] {
            let wanted = folded ? fold(name) : name
            let ending = folded ? fold(tail.joined(separator: "/")) : tail.joined(separator: "/")
            let candidates = named(wanted, folded).filter { path in
                tail.count < 2 || (folded ? fold(path) : path).hasSuffix("/" + ending)
                    || (folded ? fold(path) : path) == ending
            }
            // Each candidate's steps counted once: a name may be in dozens of folders.
            if let nearest = candidates.map({ (path: $0, steps: steps(from: folderBytes, to: $0)) }).min(by: {
                a, b in
                a.steps != b.steps ? a.steps < b.steps : a.path.utf8.lexicographicallyPrecedes(b.path.utf8)
            }) {
                return nearest.path
            }
        }
        return nil
    }

    /// `resolve` among the vault paths `files`.
    public static func resolve(_ target: String, from notePath: String, files: Set<String>) -> String? {
        var byName: [String: [String]] = [:]
        var byFoldedName: [String: [String]] = [:]
        for file in files {
            let name = String(file.split(separator: "/").last ?? "")
            byName[name, default: []].append(file)
            byFoldedName[fold(name), default: []].append(file)
        }
        return resolve(target, from: notePath, exists: files.contains) { name, folded in
            (folded ? byFoldedName : byName)[name] ?? []
        }
    }

    /// A file name as compared ignoring case, as note names are (`CaselessName`).
    static func fold(_ name: String) -> String { String(decoding: CaselessName.key(name), as: UTF8.self) }

    /// The path the components make with `.` and `..` taken away; nil when it leaves the vault.
    static func normalized(_ components: [String]) -> String? {
        var out: [String] = []
        for component in components where component != "." {
            if component == ".." {
                guard out.popLast() != nil else { return nil }
            } else {
                out.append(component)
            }
        }
        return out.isEmpty ? nil : out.joined(separator: "/")
    }

    /// How many folders one goes up and down from the vault folder `folder` (its path's bytes,
    /// empty at the top) to reach the file at `path`; compared as bytes, no string made.
    static func steps(from folder: [UInt8], to path: String) -> Int {
        let slash = UInt8(ascii: "/")
        var path = path
        return path.withUTF8 { path in
            let other = UnsafeBufferPointer(rebasing: path[..<(path.lastIndex(of: slash) ?? 0)])
            func components(_ count: Int, _ slashes: Int) -> Int { count == 0 ? 0 : slashes + 1 }
            var shared = 0
            var i = 0
            let common = min(folder.count, other.count)
            while i < common && folder[i] == other[i] {
                if folder[i] == slash { shared += 1 }
                i += 1
            }
            // The shorter one ended on a folder boundary of the other: one more folder shared.
            if i == common && common > 0
                && (folder.count == other.count
                    || (folder.count > common ? folder[common] : other[common]) == slash)
            {
                shared += 1
            }
            let a = components(folder.count, folder.reduce(0) { $0 + ($1 == slash ? 1 : 0) })
            let b = components(other.count, other.reduce(0) { $0 + ($1 == slash ? 1 : 0) })
            return a - shared + b - shared
        }
    }
}

/// The vault's other files (attachment targets) as the catalog's index keeps them: a path is
/// looked up in the index's own table, and file names in tables made when first asked for (under
/// a lock: the threads that resolve links with one `LinkResolver` share its files).
final class VaultFiles {
    private let catalog: Catalog
    private var byName: [String: [String]]?
    private var byFoldedName: [String: [String]]?
    private let lock = NSLock()

    init(catalog: Catalog) { self.catalog = catalog }

    /// Whether the vault path `path` is one of the vault's other files.
    func exists(_ path: String) -> Bool {
        guard let index = catalog.index, let number = index.find(path) else { return false }
        return index.isFile(number)
    }

    /// The files named `name` (`folded`: whose folded name is `name`).
    func named(_ name: String, folded: Bool) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        if byName == nil, let index = catalog.index {
            var names: [String: [String]] = [:]
            var folds: [String: [String]] = [:]
            for number in catalog.files {
                let path = index.path(at: Int(number))
                let name = String(path.split(separator: "/").last ?? "")
                names[name, default: []].append(path)
                folds[AttachmentResolver.fold(name), default: []].append(path)
            }
            (byName, byFoldedName) = (names, folds)
        }
        return (folded ? byFoldedName : byName)?[name] ?? []
    }

    /// Whether the last part of `id` has an extension (`p.png`, not `LICENSE` or `.hidden`).
    static func hasOwnExtension(_ id: String) -> Bool {
        let name = id.split(separator: "/").last ?? ""
        guard let dot = name.lastIndex(of: ".") else { return false }
        return dot != name.startIndex && name.index(after: dot) != name.endIndex
    }

    /// A file the note ID `id` would take links from (`p.png`, whose note is `p.png.md`): the file
    /// at that path, else one with its file name, ignoring case as attachment links do (the
    /// smallest path); nil when there is none.
    func named(by id: String) -> String? {
        if exists(id) { return id }
        let name = String(id.split(separator: "/").last ?? "")
        return named(AttachmentResolver.fold(name), folded: true).min {
            $0.utf8.lexicographicallyPrecedes($1.utf8)
        }
    }

    /// Where the attachment link `target` in the note at `notePath` goes; nil when nowhere.
    func resolve(_ target: String, from notePath: String) -> String? {
        AttachmentResolver.resolve(target, from: notePath, exists: exists) { self.named($0, folded: $1) }
    }
}
