import Foundation

/// A note in the trash: `<vault>/.notes/trash/<entry>/` holds the file at its old relative path
/// and a `deleted.json` saying where it came from and when it was deleted.
public struct TrashEntry: Equatable, Sendable {
    /// The entry's folder name inside the trash.
    public var name: String
    /// The note as it was (its ID and path are the ones it had in the vault).
    public var note: Note
    /// When it was deleted, seconds since 1970.
    public var deletedAt: Double
}

private struct TrashRecord: Codable {
    var path: String
    var deletedAt: String
    /// The exact time, so two deletions in one second still come back newest first.
    var deletedAtSeconds: Double?
}

extension Vault {
    /// Whether `relative` under `folder` stays inside it once symlinks on the way are resolved
    /// (the file itself is read with O_NOFOLLOW): a trash entry is a folder anyone could edit.
    static func isInside(_ folder: String, _ relative: String) -> Bool {
        let directory = (relative as NSString).deletingLastPathComponent
        guard let real = FileSystem.realPath(folder) else { return false }
        return FileSystem.realPath(directory.isEmpty ? folder : folder + "/" + directory)
            == real + (directory.isEmpty ? "" : "/" + directory)
    }

    /// Moves a note into the trash (a `rename`, so it is never half-moved).
    func trash(path relative: String, now: Double) throws(VaultError) {
        // A vault opened with --vault may have no .notes/ yet: make it with its .gitignore, so the
        // trash never ends up in the user's git history.
        try Vault.initialize(at: root)
        try FileSystem.makeDirectory(trashDirectory)
        let entry = try FileSystem.makeTemporaryDirectory(trashDirectory + "/" + NoteDate.stamp(now) + "-XXXXXX")
        let record = TrashRecord(path: relative, deletedAt: NoteDate.format(now), deletedAtSeconds: now)
        let data = (try? JSONEncoder().encode(record)) ?? Data()
        try FileSystem.writeAtomically(Array(data), to: entry + "/deleted.json")
        let destination = entry + "/" + relative
        do {
            try FileSystem.makeDirectory((destination as NSString).deletingLastPathComponent)
            try FileSystem.move(fullPath(relative), to: destination)
        } catch {
            // Leave no empty entry behind when the note could not be moved.
            try? FileSystem.remove(entry)
            throw error
        }
    }

    /// The trashed notes, most recently deleted first.
    func trashEntries() -> (entries: [TrashEntry], diagnostics: [Diagnostic]) {
        var entries: [TrashEntry] = []
        var diagnostics: [Diagnostic] = []
        for (name, kind) in FileSystem.entries(trashDirectory) ?? [] where kind == .directory {
            let folder = trashDirectory + "/" + name
            guard let (bytes, _) = try? FileSystem.read(folder + "/deleted.json"),
                  let record = try? JSONDecoder().decode(TrashRecord.self, from: Data(bytes)),
                  Vault.normalized(record.path) == record.path, !record.path.hasPrefix("/"),
                  !record.path.hasPrefix(".."), Vault.isNoteName(record.path),
                  let deletedAt = record.deletedAtSeconds ?? NoteDate.parse(record.deletedAt),
                  Vault.isInside(folder, record.path),
                  let (fileBytes, status) = try? FileSystem.read(folder + "/" + record.path),
                  let text = String(validating: fileBytes, as: UTF8.self)
            else {
                diagnostics.append(Diagnostic(path: folder, line: nil, message: "not a readable trash entry; skipped"))
                continue
            }
            let note = Note(path: record.path, document: NoteDocument(parsing: text), mtime: status.mtime, titleFrom: titleSource)
            entries.append(TrashEntry(name: name, note: note, deletedAt: deletedAt))
        }
        entries.sort { a, b in
            a.deletedAt != b.deletedAt ? a.deletedAt > b.deletedAt : a.name.utf8.lexicographicallyPrecedes(b.name.utf8)
        }
        return (entries, diagnostics)
    }

    /// Finds a trashed note by exact ID, unique ID prefix or unique title; the most recently
    /// deleted wins among notes with the same ID.
    func resolveTrashed(_ argument: String, in entries: [TrashEntry]) throws(VaultError) -> TrashEntry {
        // Entries are newest first, so keeping the first of each ID picks the latest deletion.
        var seen = Set<String>()
        let latest = entries.filter { seen.insert($0.note.id).inserted }
        guard let index = try Vault.match(
            argument, ids: latest.map(\.note.id), paths: latest.map(\.note.path), titles: latest.map(\.note.title))
        else { throw .notInTrash(argument) }
        return latest[index]
    }

    /// Puts a trashed note back at its old path, or at a free `-2`, `-3`, … name when that is
    /// taken. Returns the restored note's vault-relative path.
    func restore(_ entry: TrashEntry) throws(VaultError) -> String {
        let folder = trashDirectory + "/" + entry.name
        let source = folder + "/" + entry.note.path
        let path = entry.note.path
        let directory = (path as NSString).deletingLastPathComponent
        let file = (path as NSString).lastPathComponent
        let ext = file.hasSuffix(".markdown") ? ".markdown" : ".md"
        let stem = String(file.dropLast(ext.count))
        // Restored (or the trash emptied) by another process since the entry was read.
        guard FileSystem.status(source) != nil else { throw .notInTrash(entry.note.id) }
        // The entry's record is a file anyone could edit: its folder must not lead out of the vault.
        try checkFolder(directory, argument: path)
        if !directory.isEmpty { try FileSystem.makeDirectory(fullPath(directory)) }
        var attempt = 1
        while true {
            let name = (directory.isEmpty ? "" : directory + "/") + stem + (attempt == 1 ? "" : "-\(attempt)") + ext
            // link() refuses to replace an existing file, so a note created meanwhile is safe.
            if link(source, fullPath(name)) == 0 {
                try FileSystem.remove(folder)
                FileSystem.syncDirectory(of: fullPath(name))
                return name
            }
            guard errno == EEXIST else { throw .io(path: fullPath(name), reason: FileSystem.lastError()) }
            attempt += 1
        }
    }

    /// Removes every trashed note for good; returns how many there were.
    @discardableResult
    func emptyTrash() throws(VaultError) -> Int {
        let names = (FileSystem.entries(trashDirectory) ?? []).filter { $0.kind == .directory }
        for (name, _) in names { try FileSystem.remove(trashDirectory + "/" + name) }
        return names.count
    }
}
