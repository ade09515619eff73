import Foundation

/// The symlinks to folders that the walk does not follow, named in a warning once per change of
/// the folder that holds them rather than on every command: the ones last warned about are kept
/// in a small file of the state folder (or, when that cannot be written, as in a read-only vault,
/// of the cache folder), and a folder's links are named again only when its set of them changes.
struct SymlinkWarnings {
    /// Where the links last warned about are kept, in the order tried for writing: the state
    /// folder, then a folder of the cache.
    let places: [String]

    /// The name of the file in each place: one vault-relative path a line.
    static let fileName = "symlinks"

    /// The warnings to give for `found` (vault-relative symlinks to folders, as the walk found
    /// them) in `vault`: each link of a folder whose links differ from those remembered. What is
    /// remembered is brought up to date.
    func warnings(for found: [String], in vault: Vault) -> [Diagnostic] {
        let remembered = read()
        guard found != remembered else { return [] }
        func byFolder(_ links: [String]) -> [String: Set<String>] {
            Dictionary(grouping: links) { FileSystem.parentFolder(of: $0) }.mapValues(Set.init)
        }
        let before = byFolder(remembered)
        let now = byFolder(found)
        write(found)
        return found.filter {
            now[FileSystem.parentFolder(of: $0)]
                != before[FileSystem.parentFolder(of: $0)]
        }
        .map {
            Diagnostic(
                path: vault.fullPath($0), line: nil,
                message:
                    "is a symlink to a folder, which notes does not follow: the notes in it are not listed; move the folder into the vault to list them"
            )
        }
    }

    /// The links remembered: from the cache's file when there is one (it is written only when the
    /// state folder could not be), else the state folder's.
    private func read() -> [String] {
        for place in places.reversed() {
            guard let (bytes, _) = try? FileSystem.read(place + "/" + SymlinkWarnings.fileName) else {
                continue
            }
            return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        }
        return []
    }

    /// Remembers `links` in the first place that can be written, and forgets them in the places
    /// after it, whose copies would now be out of date.
    private func write(_ links: [String]) {
        let bytes = Array(links.map { $0 + "\n" }.joined().utf8)
        for (i, place) in places.enumerated() {
            let path = place + "/" + SymlinkWarnings.fileName
            do {
                if links.isEmpty {
                    if FileSystem.status(path) != nil { try FileSystem.remove(path) }
                } else {
                    try FileSystem.makeDirectory(place)
                    try FileSystem.writeAtomically(bytes, to: path)
                }
            } catch {
                continue
            }
            for later in places[(i + 1)...] { try? FileSystem.remove(later + "/" + SymlinkWarnings.fileName) }
            return
        }
    }
}
