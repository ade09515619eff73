import Foundation

/// Where an attachment link goes: the one resolution `sync` uses to find the files notes link to.
public enum AttachmentResolver {
    /// The vault-relative path of the file that the attachment link `target` (as
    /// `NoteLinks.attachments` gives it) in the note at `notePath` goes to, among `files`
    /// (vault-relative paths): by path from the linking note's folder, else from the vault's top,
    /// else by file name (with its extension), the one nearest the note when several are
    /// (fewest folder steps, then the smaller path); nil when none is. `byName` is `files` by
    /// their last component (`AttachmentResolver.byName`).
    public static func resolve(
        _ target: String, from notePath: String, files: Set<String>, byName: [String: [String]]
    ) -> String? {
        let folder = notePath.split(separator: "/").dropLast().map(String.init)
        let parts = target.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard let name = parts.last else { return nil }
        let fromTop = target.hasPrefix("/")
        for start in fromTop ? [[]] : [folder, []] {
            if let path = normalized(start + parts), files.contains(path) { return path }
        }
        return byName[name]?.min { a, b in
            let (da, db) = (steps(from: folder, to: a), steps(from: folder, to: b))
            return da != db ? da < db : a < b
        }
    }

    /// `files` by their last path component.
    public static func byName(_ files: Set<String>) -> [String: [String]] {
        var names: [String: [String]] = [:]
        for file in files { names[String(file.split(separator: "/").last ?? ""), default: []].append(file) }
        return names
    }

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

extension NoteStore {
    /// The untracked files of `status` that the vault's notes link to or embed (attachment links),
    /// for `sync` to commit with the notes; never an untracked file no note links to, nor one git
    /// ignores. Each note is read only when there is an untracked file that is not a note.
    func linkedAttachments(_ status: GitStatus, repository: GitRepository) -> [String] {
        let untracked = Set(
            status.entries.filter { $0.index == UInt8(ascii: "?") && !Vault.isNoteName($0.path) }.map(\.path))
        guard !untracked.isEmpty,
            let listed = try? repository.check([
                "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", ".",
            ])
        else { return [] }
        let files = Set(listed.stdout.split(separator: 0).map { String(decoding: $0, as: UTF8.self) })
        let names = AttachmentResolver.byName(files)
        var found: Set<String> = []
        for note in catalog.notes {
            guard let loaded = try? vault.load(path: note.path) else { continue }
            for target in NoteLinks.attachments(body: loaded.document.body) {
                if let file = AttachmentResolver.resolve(
                    target, from: note.path, files: files, byName: names),
                    untracked.contains(file)
                {
                    found.insert(file)
                }
            }
        }
        return found.sorted()
    }
}
