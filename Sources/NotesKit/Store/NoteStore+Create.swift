import Foundation

extension NoteStore {
    /// The vault-relative path of a new note at `argument` — an ID or a vault-relative path read
    /// from the top of the vault, `.md` added unless it names a note file — as `create` would make
    /// it: refused (`outsideVault`, `hiddenFolder`, `hiddenName`, `ignored`, `alreadyExists`) as a
    /// new note's path is.
    public func pathForNewNote(_ argument: String) throws(VaultError) -> String {
        try vault.notePath(forNew: Vault.isNoteName(argument) ? argument : argument + ".md", name: "")
    }

    /// Makes the note at `argument` (see `pathForNewNote`), with the folders it needs inside the
    /// vault, holding front matter with its creation date `now` and a heading of its file name:
    /// what `[[argument]]` finds by file name in Obsidian too. Created exclusively, as `add`
    /// creates a note, so a file that appears there meanwhile is never replaced; returns its path.
    public func create(_ argument: String, now: Double) throws(VaultError) -> String {
        let relative = try pathForNewNote(argument)
        let document = NoteDocument(parsing: "# \(Note.fileTitle(relative))\n")
        let bytes = Array(NoteDocument.newFile(document, created: now).utf8)
        let folder = FileSystem.parentFolder(of: relative)
        if !folder.isEmpty { try vault.makeFolder(folder) }
        _ = try VaultError.mapping(
            FileSystem.createExclusively(bytes, attempts: 1) { _ in vault.fullPath(relative) })
        record(.added(relative))
        return relative
    }
}
