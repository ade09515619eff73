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
    /// Its front-matter aliases, folded: other names `restore` finds it by.
    var foldedAliases: [String] = []
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
        let directory = FileSystem.parentFolder(of: relative)
        guard let real = FileSystem.realPath(folder) else { return false }
        return FileSystem.realPath(directory.isEmpty ? folder : folder + "/" + directory)
            == real + (directory.isEmpty ? "" : "/" + directory)
    }

    /// Moves a note into the trash. The entry is made whole under a hidden temp name
    /// (`.notes-tmp-<pid>-XXXXXX`: its record, the note's folders), shown under its own name, and
    /// only then is the note renamed into it: at every moment the note is in the vault or in a
    /// complete entry, never in both, never in neither. An entry a crash left without its note is
    /// passed over, and removed by the next change to the trash. The caller holds the vault's lock.
    func trash(path relative: String, now: Double) throws(VaultError) {
        // A vault opened with --vault may have no .notes/ yet: make it with its .gitignore, so the
        // trash never ends up in the user's git history.
        try Vault.initialize(at: root)
        // A failure while the entry is made names the trash, not the temp folder it is made in.
        func failed(_ error: FileSystemError) -> VaultError {
            .writeFailed(path: trashDirectory, reason: error.brief)
        }
        let staging: String
        do {
            try FileSystem.makeDirectory(trashDirectory)
            sweepTrash()
            staging = try FileSystem.makeTemporaryDirectory(
                trashDirectory + "/" + FileSystem.tempPrefix + "\(getpid())-XXXXXX")
        } catch {
            throw failed(error)
        }
        let record = TrashRecord(path: relative, deletedAt: NoteDate.format(now), deletedAtSeconds: now)
        let data = (try? JSONEncoder().encode(record)) ?? Data()
        let entry: String
        do {
            try FileSystem.writeAtomically(Array(data), to: staging + "/deleted.json")
            let folder = FileSystem.parentFolder(of: relative)
            if !folder.isEmpty { try FileSystem.makeDirectory(staging + "/" + folder) }
            let name = NoteDate.stamp(now) + "-" + staging.suffix(6)
            var candidate = name
            var attempt = 1
            while FileSystem.status(trashDirectory + "/" + candidate) != nil {
                attempt += 1
                candidate = name + "-\(attempt)"
            }
            entry = trashDirectory + "/" + candidate
            try FileSystem.moveExclusively(staging, to: entry)
        } catch {
            try? FileSystem.remove(staging)
            throw failed(error)
        }
        do {
            try FileSystem.moveExclusively(fullPath(relative), to: entry + "/" + relative)
        } catch {
            // Leave no entry behind when the note could not be moved.
            try? FileSystem.removeAtOnce(entry)
            throw VaultError(error)
        }
    }

    /// The record of the trash entry in `folder` when it is sound: a readable `deleted.json`
    /// naming a note path that stays inside the entry.
    private func trashRecord(in folder: String) -> (path: String, deletedAt: Double)? {
        guard let (bytes, _) = try? FileSystem.read(folder + "/deleted.json"),
            let record = try? JSONDecoder().decode(TrashRecord.self, from: Data(bytes)),
            Vault.normalized(record.path) == record.path, !record.path.hasPrefix("/"),
            !record.path.hasPrefix(".."), Vault.isNoteName(record.path),
            let deletedAt = record.deletedAtSeconds ?? NoteDate.parse(record.deletedAt),
            Vault.isInside(folder, record.path)
        else { return nil }
        return (record.path, deletedAt)
    }

    /// Removes what interrupted changes left in the trash: hidden temp folders of processes that are
    /// gone (an entry being made, or being removed for good), and entries whose note is not there
    /// (a delete stopped before the note moved in, a restore after it moved out). Only while
    /// holding the vault's lock, so that no other process is between those steps.
    func sweepTrash() {
        for (name, kind) in FileSystem.entries(trashDirectory) ?? [] where kind == .directory {
            let folder = trashDirectory + "/" + name
            if let pid = FileSystem.tempOwner(name) {
                if kill(pid, 0) != 0 && errno == ESRCH { try? FileSystem.remove(folder) }
            } else if !name.hasPrefix("."), let record = trashRecord(in: folder),
                FileSystem.status(folder + "/" + record.path) == nil
            {
                try? FileSystem.removeAtOnce(folder)
            }
        }
    }

    /// The trashed notes, most recently deleted first. Hidden folders (an entry being made or
    /// removed) and entries without their note (see `trash`) are passed over in silence.
    func trashEntries() -> (entries: [TrashEntry], diagnostics: [Diagnostic]) {
        var entries: [TrashEntry] = []
        var diagnostics: [Diagnostic] = []
        for (name, kind) in FileSystem.entries(trashDirectory) ?? []
        where kind == .directory && !name.hasPrefix(".") {
            let folder = trashDirectory + "/" + name
            let record = trashRecord(in: folder)
            if let record, FileSystem.status(folder + "/" + record.path) == nil { continue }
            guard let record,
                let (fileBytes, status) = try? FileSystem.read(folder + "/" + record.path),
                let text = String(validating: fileBytes, as: UTF8.self)
            else {
                diagnostics.append(
                    Diagnostic(path: folder, line: nil, message: "not a readable trash entry; skipped"))
                continue
            }
            let document = NoteDocument(parsing: text)
            let note = Note(
                path: record.path, document: document, mtime: status.mtimeSeconds, titleFrom: titleSource)
            entries.append(
                TrashEntry(
                    name: name, note: note, deletedAt: record.deletedAt,
                    foldedAliases: document.aliases.map(TextFolding.fold)))
        }
        entries.sort { a, b in
            a.deletedAt != b.deletedAt
                ? a.deletedAt > b.deletedAt : a.name.utf8.lexicographicallyPrecedes(b.name.utf8)
        }
        return (entries, diagnostics)
    }

    /// Finds a trashed note as `Vault.match` finds a note (exact ID, file name, ID prefix, title
    /// or alias); the most recently deleted wins among notes with the same ID.
    func resolveTrashed(_ argument: String, in entries: [TrashEntry]) throws(VaultError) -> TrashEntry {
        // Entries are newest first, so keeping the first of each ID picks the latest deletion.
        var seen = Set<String>()
        let latest = entries.filter { seen.insert($0.note.id).inserted }
        guard
            let index = try Vault.match(
                argument, ids: latest.map(\.note.id), paths: latest.map(\.note.path),
                titles: latest.map(\.note.title), foldedAliases: { latest.map(\.foldedAliases) })
        else { throw .notInTrash(argument) }
        return latest[index]
    }

    /// Puts a trashed note back at its old path, or at a free `-2`, `-3`, … name when that is
    /// taken. Returns the restored note's vault-relative path.
    func restore(_ entry: TrashEntry) throws(VaultError) -> String {
        let folder = trashDirectory + "/" + entry.name
        let source = folder + "/" + entry.note.path
        let path = entry.note.path
        let directory = FileSystem.parentFolder(of: path)
        let file = (path as NSString).lastPathComponent
        let ext = file.hasSuffix(".markdown") ? ".markdown" : ".md"
        let stem = String(file.dropLast(ext.count))
        // Restored (or the trash emptied) by another process since the entry was read.
        guard FileSystem.status(source) != nil else { throw .notInTrash(entry.note.id) }
        // The entry's record is a file anyone could edit: its folder must not lead out of the vault.
        try checkFolder(directory, argument: path)
        if !directory.isEmpty { try makeFolder(directory) }
        var attempt = 1
        while true {
            let name =
                (directory.isEmpty ? "" : directory + "/") + stem + (attempt == 1 ? "" : "-\(attempt)") + ext
            // One step, never replacing a note created meanwhile: the note is in the trash or back
            // in the vault, never in both (a link, then an unlink, would have a moment of both).
            switch FileSystem.renameExclusively(source, fullPath(name)) {
            case 0:
                FileSystem.syncDirectory(of: fullPath(name))
                FileSystem.syncDirectory(of: source)
                // The entry is now a record without its note, which nobody lists; the next change
                // to the trash removes it if this does not. Out of sight first: an entry half
                // removed would be listed as unreadable.
                try? FileSystem.removeAtOnce(folder)
                return name
            case EEXIST:
                attempt += 1
            case ENOENT:
                // Restored by another process between the check above and here.
                throw .notInTrash(entry.note.id)
            case let failure:
                throw .writeFailed(path: fullPath(name), reason: String(cString: strerror(failure)))
            }
        }
    }

    /// Removes every trashed note for good; returns how many there were. Each entry leaves the
    /// trash in one step (see `FileSystem.removeAtOnce`), so a crash never leaves half of one.
    @discardableResult
    func emptyTrash() throws(VaultError) -> Int {
        sweepTrash()
        let names = (FileSystem.entries(trashDirectory) ?? []).filter {
            $0.kind == .directory && !$0.name.hasPrefix(".")
        }
        for (name, _) in names {
            try VaultError.mapping(FileSystem.removeAtOnce(trashDirectory + "/" + name))
        }
        return names.count
    }
}
