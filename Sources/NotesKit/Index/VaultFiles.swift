import Foundation

/// Where an attachment link goes: the one resolution of `links`, `links --broken` and `sync`.
/// A target (as `NoteLink.decodedTarget` has it: a path, percent-decoded, without `#fragment`)
/// goes, first that applies, to the file at that path from the linking note's folder, or from the
/// vault's top (only from the top with a leading `/`); else to the files with that file name
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
        let parts = target.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard let name = parts.last else { return nil }
        let fromTop = target.hasPrefix("/")
        for start in fromTop ? [[]] : [folder, []] {
            if let path = normalized(start + parts), exists(path) { return path }
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
            if let nearest = candidates.min(by: { a, b in
                let (da, db) = (steps(from: folder, to: a), steps(from: folder, to: b))
                return da != db ? da < db : a.utf8.lexicographicallyPrecedes(b.utf8)
            }) {
                return nearest
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

    /// A file name as compared ignoring case: NFC, lower-cased.
    static func fold(_ name: String) -> String { name.precomposedStringWithCanonicalMapping.lowercased() }

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

    /// How many folders one goes up and down from `folder` to reach the file at `path`.
    static func steps(from folder: [String], to path: String) -> Int {
        let other = path.split(separator: "/").dropLast().map(String.init)
        var shared = 0
        while shared < folder.count && shared < other.count && folder[shared] == other[shared] { shared += 1 }
        return folder.count - shared + other.count - shared
    }
}

/// The vault's other files (attachment targets) as the catalog's index keeps them: a path is
/// looked up in the index's own table, and file names in tables made when first asked for.
final class VaultFiles {
    private let catalog: Catalog
    private var byName: [String: [String]]?
    private var byFoldedName: [String: [String]]?

    init(catalog: Catalog) { self.catalog = catalog }

    /// Whether the vault path `path` is one of the vault's other files.
    func exists(_ path: String) -> Bool {
        guard let index = catalog.index, let number = index.find(path) else { return false }
        return index.isFile(number)
    }

    /// The files named `name` (`folded`: whose folded name is `name`).
    func named(_ name: String, folded: Bool) -> [String] {
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

    /// Where the attachment link `target` in the note at `notePath` goes; nil when nowhere.
    func resolve(_ target: String, from notePath: String) -> String? {
        AttachmentResolver.resolve(target, from: notePath, exists: exists) { self.named($0, folded: $1) }
    }
}
