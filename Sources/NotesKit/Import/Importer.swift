import Foundation

/// What an import will do, decided before anything is written: the notes to create, with the
/// text of each file, and what is skipped.
public struct ImportPlan: Sendable {
    /// One note to create.
    public struct Item: Sendable, Equatable {
        /// `<format>:<sourceID>`, as the note's front matter records it.
        public var importedFrom: String
        /// The note file's text: front matter, then the content under the content rules.
        public var text: String
        /// The file name the note gets, without `.md` or a `-2` a taken name adds.
        public var baseName: String
        /// The files written beside it, their paths relative to the vault.
        public var attachments: [ImportAttachment]
    }

    /// The FORMAT word.
    public var format: String
    /// The vault-relative folder the notes go to (empty: the vault's top).
    public var folder: String
    /// The notes to create, in source order.
    public var items: [Item]
    /// Entries skipped because a note already has their `importedFrom`.
    public var alreadyThere: Int
    /// Entries skipped because nothing is left of them after trimming.
    public var empty: Int
    /// The warnings of the entries to import, in order: what they are imported without.
    public var warnings: [String] = []

    /// The vault-relative paths the notes would get now, in order: the first free name of each,
    /// counting the ones before it.
    public func predictedPaths(in vault: Vault) -> [String] {
        // The number each name tries next, past the ones taken before it (as `runImport` counts).
        var nextAttempt: [String: Int] = [:]
        var taken = Set<String>()
        return items.map { item in
            let prefix = folder.isEmpty ? "" : folder + "/"
            var attempt = nextAttempt[item.baseName] ?? 1
            func path() -> String {
                prefix + (attempt == 1 ? item.baseName : "\(item.baseName)-\(attempt)") + ".md"
            }
            while taken.contains(path()) || FileSystem.status(vault.fullPath(path())) != nil { attempt += 1 }
            taken.insert(path())
            nextAttempt[item.baseName] = attempt + 1
            return path()
        }
    }
}

/// Why an import stopped before writing: its source does not parse, or a file it brings cannot go
/// where it belongs. Errors while writing are `VaultError`s, as for any other change.
public enum ImportError: LocalizedError, Equatable, Sendable {
    /// The source stopped parsing (or could not be read) at this place.
    case source(ImportSourceError)
    /// A file the source brings would leave the folder the notes go to (`..`, an absolute path,
    /// a hidden name or a symlinked folder on its way).
    case attachmentOutside(String)
    /// The vault refused something before anything was written.
    case vault(VaultError)

    public var errorDescription: String? {
        switch self {
        case .source(let error):
            let place = error.place.isEmpty ? "" : error.place + ": "
            return "could not import '\(error.file)': \(place)\(error.reason); nothing was imported"
        case .attachmentOutside(let path):
            return
                "the import brings a file '\(path)' that would land outside its folder; nothing was imported"
        case .vault(let error): return error.errorDescription
        }
    }
}

extension NoteStore {
    /// Reads `paths` as `format` and decides what to import into the vault-relative `folder`:
    /// every entry that is not empty and whose `importedFrom` no note has yet (the index knows).
    /// Nothing is written; anything wrong with the source or its files is thrown here.
    public func planImport(
        _ format: any ImportFormat.Type, paths: [String], folder: String, now: Double
    ) throws(ImportError) -> ImportPlan {
        let entries: [ImportEntry]
        do {
            entries = try format.read(paths)
        } catch {
            throw .source(error)
        }
        return try plan(
            entries, format: format.name, folder: folder, now: now, existing: catalog.importedFrom)
    }

    /// The plan for `entries` already read; `existing` holds the `importedFrom` of the vault's notes.
    func plan(
        _ entries: [ImportEntry], format: String, folder: String, now: Double, existing: Set<String>
    ) throws(ImportError) -> ImportPlan {
        var plan = ImportPlan(format: format, folder: folder, items: [], alreadyThere: 0, empty: 0)
        var seen = existing
        var files: [String: [UInt8]] = [:]
        // Each entry's note text stands alone: made on all cores, then taken in order.
        let vault = vault
        let made = Parallel.map(count: entries.count, chunk: 16) { i in
            ImportNoteText.item(
                for: entries[i], importedFrom: format + ":" + entries[i].sourceID, now: now, naming: vault)
        }
        for (entry, made) in zip(entries, made) {
            let source = format + ":" + entry.sourceID
            guard let item = made else {
                plan.empty += 1
                continue
            }
            guard seen.insert(source).inserted else {
                plan.alreadyThere += 1
                continue
            }
            var placed = item
            placed.attachments = []
            var renamed: [String: String] = [:]
            for attachment in item.attachments {
                let wanted = try attachmentPath(attachment, folder: folder)
                let path = freePath(wanted, for: attachment.bytes, planned: files)
                if path != wanted {
                    renamed[attachment.path] = String(path.dropFirst(folder.isEmpty ? 0 : folder.count + 1))
                }
                if files[path] != nil { continue }
                files[path] = attachment.bytes
                placed.attachments.append(ImportAttachment(path: path, bytes: attachment.bytes))
            }
            if !renamed.isEmpty { placed.text = Self.relinking(placed.text, renamed) }
            plan.items.append(placed)
            plan.warnings += entry.warnings
        }
        // Every note goes into one folder: its ignore files are read once for all the names.
        let rules = IgnoreRules.forEntries(of: folder, root: vault.root)
        for item in plan.items {
            let path = (folder.isEmpty ? "" : folder + "/") + item.baseName + ".md"
            if let rule = rules.ignoring(path, isDirectory: false) {
                throw .vault(.ignored(path, rule: rule.description))
            }
        }
        return plan
    }

    /// `path` when it is free for `bytes` (nothing there, or the same bytes, in the vault and among
    /// the files planned so far), else the first free `name 2.ext`, `name 3.ext` … beside it: apps
    /// give many files one name (`image.png`), and a file in the vault is never overwritten. The
    /// same vault and source give the same names, so a run cut short is finished by the next.
    private func freePath(_ path: String, for bytes: [UInt8], planned: [String: [UInt8]]) -> String {
        let folder = FileSystem.parentFolder(of: path)
        let name = (path as NSString).lastPathComponent
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let stem = dot.map { String(name[..<$0]) } ?? name
        let ext = dot.map { String(name[$0...]) } ?? ""
        var candidate = path
        var number = 2
        while !isFree(candidate, for: bytes, planned: planned) {
            candidate = (folder.isEmpty ? "" : folder + "/") + "\(stem) \(number)\(ext)"
            number += 1
        }
        return candidate
    }

    private func isFree(_ path: String, for bytes: [UInt8], planned: [String: [UInt8]]) -> Bool {
        if let earlier = planned[path] { return earlier == bytes }
        let full = vault.fullPath(path)
        guard FileSystem.status(full) != nil else { return true }
        guard let (existing, _) = try? FileSystem.read(full) else { return false }
        return existing == bytes
    }

    /// `text` with its links to each file `renamed` holds (a path relative to the note, as the
    /// formats write it: `](path)`, or `](<path>)` when it has blanks) made links to its new path,
    /// in one pass, so that a link just made is not renamed again when a new name is another's old.
    static func relinking(_ text: String, _ renamed: [String: String]) -> String {
        let targets = renamed.map { ("](" + EnexMarkdown.destination($0.key) + ")", $0.value) }
        var out = ""
        var rest = Substring(text)
        while let open = rest.range(of: "](") {
            out += rest[..<open.lowerBound]
            rest = rest[open.lowerBound...]
            if let (old, new) = targets.first(where: { rest.hasPrefix($0.0) }) {
                out += "](" + EnexMarkdown.destination(new) + ")"
                rest = rest.dropFirst(old.count)
            } else {
                out += "]("
                rest = rest.dropFirst(2)
            }
        }
        return out + rest
    }

    /// The vault-relative path of a file an entry brings (its path relative to `folder`), checked to
    /// stay inside it: no absolute path, no `..`, no hidden name, no symlinked folder on its way.
    private func attachmentPath(_ attachment: ImportAttachment, folder: String) throws(ImportError) -> String
    {
        let relative = attachment.path
        let components = relative.split(separator: "/", omittingEmptySubsequences: false)
        guard !relative.hasPrefix("/"), !components.isEmpty,
            components.allSatisfy({ !$0.isEmpty && !$0.hasPrefix(".") })
        else { throw .attachmentOutside(relative) }
        let path = (folder.isEmpty ? "" : folder + "/") + relative
        do {
            try vault.checkFolder(FileSystem.parentFolder(of: path), argument: path)
        } catch .outsideVault, .hiddenFolder {
            throw .attachmentOutside(relative)
        } catch {
            throw .vault(error)
        }
        return path
    }

    /// Writes what `plan` holds: for each note its files (an equal file already there is kept),
    /// then the note, created exclusively under the first free name. `progress` hears how many
    /// are done. Returns the IDs of the notes made, in order. A failure stops at once: the notes
    /// made before it are whole, and running the same import again makes the rest.
    ///
    /// The notes go in groups, each written as temps and made durable (`FileSystem.prepare`: a
    /// large group by one sync of the file system), then put in place — the files first, their folders synced, then the
    /// notes that link to them, their folder synced — so that a name only ever appears for bytes
    /// already on the disk, and a note never before its files.
    @discardableResult
    public func runImport(_ plan: ImportPlan, progress: (Int, Int) -> Void = { _, _ in })
        throws(VaultError) -> [String]
    {
        var ids: [String] = []
        if !plan.folder.isEmpty {
            try vault.makeFolder(plan.folder)
        }
        let prefix = plan.folder.isEmpty ? "" : plan.folder + "/"
        func name(_ item: ImportPlan.Item, _ attempt: Int) -> String {
            prefix + (attempt == 1 ? item.baseName : "\(item.baseName)-\(attempt)")
        }
        let noteFolder = plan.folder.isEmpty ? vault.root : vault.fullPath(plan.folder)
        let mode = FileSystem.newFileMode()
        // The number each name tries next: the names this import took are not tried again, so a
        // thousand notes with one title take a thousand steps, not half a million.
        var nextAttempt: [String: Int] = [:]
        var madeFolders: Set<String> = [noteFolder]
        // At most this many files a group: each group costs the disk one wait.
        let groupSize = 512
        var start = 0
        while start < plan.items.count {
            var end = start
            var fileCount = 0
            while end < plan.items.count
                && (end == start || fileCount + 1 + plan.items[end].attachments.count <= groupSize)
            {
                fileCount += 1 + plan.items[end].attachments.count
                end += 1
            }
            let items = plan.items[start..<end]
            progress(start, plan.items.count)
            var attachments: [ImportAttachment] = []
            for item in items {
                for attachment in item.attachments {
                    let full = vault.fullPath(attachment.path)
                    if FileSystem.status(full) != nil {
                        if let (bytes, _) = try? FileSystem.read(full), bytes == attachment.bytes { continue }
                        // Checked free (or equal) when planned: another file put there since is left alone.
                        throw .writeFailed(
                            path: full, reason: "another file appeared there during the import")
                    }
                    let folder = FileSystem.parentFolder(of: full)
                    if madeFolders.insert(folder).inserted {
                        try VaultError.mapping(FileSystem.makeDirectory(folder))
                    }
                    attachments.append(attachment)
                }
            }
            let files =
                attachments.map { (path: vault.fullPath($0.path), bytes: $0.bytes, mode: mode) }
                + items.map {
                    (path: vault.fullPath(name($0, 1) + ".md"), bytes: Array($0.text.utf8), mode: mode)
                }
            let prepared = FileSystem.prepare(batch: files)
            // The temps not put in place (or removed) yet, when a failure stops the group.
            var used = 0
            defer { prepared.discard(from: used) }
            if let failure = prepared.firstFailure { throw VaultError(failure) }
            FileSystem.pauseIfTesting()
            for (k, attachment) in attachments.enumerated() {
                let full = vault.fullPath(attachment.path)
                used = k + 1
                let placed = try VaultError.mapping(
                    FileSystem.placeExclusively(prepared, k, from: 1, through: 1) { _ in full })
                if placed == nil {
                    // Taken since it was looked at: kept when it holds the same bytes.
                    guard let (bytes, _) = try? FileSystem.read(full), bytes == attachment.bytes else {
                        throw .writeFailed(
                            path: full, reason: "another file appeared there during the import")
                    }
                    continue
                }
                record(.imported(attachment.path))
            }
            var folders: [String] = []
            for attachment in attachments {
                let folder = FileSystem.parentFolder(of: vault.fullPath(attachment.path))
                if !folders.contains(folder) { folders.append(folder) }
            }
            for folder in folders { FileSystem.syncFolder(folder) }
            defer { if used > attachments.count { FileSystem.syncFolder(noteFolder) } }
            for (j, item) in items.enumerated() {
                used = attachments.count + j + 1
                let first = nextAttempt[item.baseName] ?? 1
                guard
                    let number = try VaultError.mapping(
                        FileSystem.placeExclusively(
                            prepared, attachments.count + j, from: first, through: .max
                        ) {
                            vault.fullPath(name(item, $0) + ".md")
                        })
                else {
                    throw .writeFailed(
                        path: vault.fullPath(name(item, first) + ".md"), reason: "every name is taken")
                }
                nextAttempt[item.baseName] = number + 1
                record(.imported(name(item, number) + ".md"))
                ids.append(name(item, number))
            }
            start = end
        }
        progress(plan.items.count, plan.items.count)
        return ids
    }

    /// Runs `body` holding the vault's lock, so that two imports at once never both take an entry
    /// for new.
    public func whileImporting<T>(_ body: () throws -> T) throws -> T {
        let lock = try VaultLock(path: lockPath, wait: true, vault: vault.root)
        defer { lock?.release() }
        return try body()
    }
}
