import Foundation

extension NoteStore {
    /// The untracked files of `status` that the vault's notes link to or embed (attachment links,
    /// resolved as `links` resolves them, from the index: no note is read), for `sync` to commit
    /// with the notes; never an untracked file no note links to, nor one git ignores (`status`
    /// does not list those).
    func linkedAttachments(_ status: GitStatus) -> [String] {
        let untracked = Set(
            status.entries.filter { $0.index == UInt8(ascii: "?") && !Vault.isNoteName($0.path) }.map(\.path))
        guard !untracked.isEmpty else { return [] }
        let catalog = self.catalog
        let files = VaultFiles(catalog: catalog)
        var found: Set<String> = []
        for position in 0..<catalog.count {
            var source: String?
            catalog.linkKeys(at: position).forEachLink { link in
                guard link.kind == .attachment else { return true }
                let from = source ?? catalog.withPath(at: position) { String(decoding: $0, as: UTF8.self) }
                source = from
                if let file = files.resolve(String(decoding: link.key, as: UTF8.self), from: from),
                    untracked.contains(file)
                {
                    found.insert(file)
                }
                return true
            }
        }
        return found.sorted()
    }
}
