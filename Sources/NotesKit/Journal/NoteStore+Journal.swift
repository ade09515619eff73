import Foundation

/// Templates and daily notes: reading the template folder, naming a day's note, making it, and
/// adding an entry to it under the lock, as every rewrite is made.
extension NoteStore {
    // MARK: Templates

    /// The full path of the vault-relative template folder `folder`, or nil when there is none;
    /// throws when it is not a folder inside the vault (a file, or a symlink that could lead out).
    func templateFolderPath(_ folder: String) throws(JournalError) -> String? {
        let full = vault.fullPath(Vault.normalized(folder))
        guard let status = FileSystem.status(full) else { return nil }
        guard status.kind == .directory, let real = FileSystem.realPath(full),
            real == vault.canonicalRoot || real.hasPrefix(vault.canonicalRoot + "/")
        else { throw .templateFolderOutside(folder) }
        return full
    }

    /// The names of the templates of the vault-relative `folder`: its `.md` files at any depth,
    /// without `.md` (`meeting`, `work/standup`), in code-point order. Hidden names and symlinks
    /// are left out; a missing folder has none.
    public func templateNames(in folder: String) throws(JournalError) -> [String] {
        guard let top = try templateFolderPath(folder) else { return [] }
        var names: [String] = []
        func walk(_ relative: String) {
            for (name, kind) in FileSystem.entries(relative.isEmpty ? top : top + "/" + relative) ?? []
            where !name.hasPrefix(".") {
                let path = relative.isEmpty ? name : relative + "/" + name
                if kind == .directory {
                    walk(path)
                } else if kind == .regular, name.hasSuffix(".md"), name.count > 3 {
                    names.append(String(path.dropLast(3)))
                }
            }
        }
        walk("")
        return names.sorted { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }
    }

    /// The template `name` (with or without `.md`) of the vault-relative `folder`; a missing one is
    /// `noTemplate`, naming those there are.
    public func template(named name: String, in folder: String) throws -> Template {
        var name = name
        if name.hasSuffix(".md") { name.removeLast(3) }
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard !name.isEmpty, parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }) else {
            throw JournalError.badTemplateName(name)
        }
        guard let top = try templateFolderPath(folder) else {
            throw JournalError.noTemplate(name, folder: Vault.normalized(folder), available: [])
        }
        if !Self.isPlainFile(name + ".md", under: top) {
            // A name typed in one Unicode form finds a file named in another (`é` composed or not,
            // as a Mac may have written it): Swift compares them equal.
            let available = try templateNames(in: folder)
            guard let found = available.first(where: { $0 == name }) else {
                throw JournalError.noTemplate(name, folder: Vault.normalized(folder), available: available)
            }
            name = found
        }
        return Template(
            name: name, text: try readTemplate(top + "/" + name + ".md"),
            path: Vault.normalized(folder) + "/" + name + ".md")
    }

    /// Whether `relative` names a regular file below the folder `top` through folders only: no
    /// symlink on the way, so that a template is never read through a link out of the vault (a
    /// cloned vault's link to the user's other files), and a name `templateNames` leaves out is
    /// no template.
    static func isPlainFile(_ relative: String, under top: String) -> Bool {
        var path = top
        let parts = relative.split(separator: "/")
        for (index, part) in parts.enumerated() {
            path += "/" + part
            guard let status = FileSystem.status(path) else { return false }
            guard index == parts.count - 1 else {
                if status.kind != .directory { return false }
                continue
            }
            return status.kind == .regular
        }
        return false
    }

    /// The text of the template file at `path` (never through a final symlink).
    private func readTemplate(_ path: String) throws -> String {
        let (bytes, _) = try VaultError.mapping(FileSystem.read(path))
        guard let text = String(validating: bytes, as: UTF8.self) else { throw VaultError.notUTF8(path) }
        return text
    }

    /// The template daily notes are made from: the one `.obsidian/daily-notes.json` names, else
    /// the `daily` template of the template folder; nil when there is none. A named template that
    /// is missing is said in `warnings`, and the next one is used, as Obsidian still makes the note.
    public func dailyTemplate(_ journal: JournalSettings, warnings: inout [String]) throws -> Template? {
        if let configured = journal.dailyTemplate {
            let relative = Vault.normalized(configured.hasSuffix(".md") ? configured : configured + ".md")
            if !relative.hasPrefix("../"), Self.isPlainFile(relative, under: vault.root) {
                return Template(
                    name: configured, text: try readTemplate(vault.fullPath(relative)), path: relative)
            }
            warnings.append(
                "the daily notes' template '\(configured)' that .obsidian/daily-notes.json names is not in the vault; "
                    + "the note is made without it")
        }
        let name = JournalSettings.dailyTemplateName
        guard let top = try templateFolderPath(journal.templateFolder),
            Self.isPlainFile(name + ".md", under: top)
        else { return nil }
        return Template(
            name: name, text: try readTemplate(top + "/" + name + ".md"),
            path: Vault.normalized(journal.templateFolder) + "/" + name + ".md")
    }

    // MARK: Daily notes

    /// The vault-relative path of the daily note of `day`: `<dailyFolder>/<day in dailyFormat>.md`,
    /// a `/` in the format making folders. Refused where no note can be: a format with a letter
    /// that is no token, a name with an empty, hidden, `.` or `..` part, a folder outside the vault,
    /// hidden or ignored; a setting that `journal` refuses is refused first, naming it.
    public func dailyNotePath(for day: LocalDateTime, _ journal: JournalSettings) throws -> String {
        if let refusal = journal.refusal { throw refusal }
        let name = try MomentFormat(journal.dailyFormat).string(for: day)
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.allSatisfy({ !$0.isEmpty && !$0.hasPrefix(".") }) else {
            throw JournalError.badDailyName(name, format: journal.dailyFormat)
        }
        let folder = try vault.folderForNewNote(
            journal.dailyFolder.isEmpty ? nil : journal.dailyFolder, cwd: vault.root)
        let path = (folder.isEmpty ? "" : folder + "/") + name + ".md"
        try vault.checkFolder(FileSystem.parentFolder(of: path), argument: path)
        try vault.checkNotIgnored(path, isDirectory: false)
        return path
    }

    /// Makes the note at the vault-relative `path` holding `text` under the content rules, with
    /// `created` as its `createdAt` (unless `text` has one), unless a file is there already; returns
    /// whether it made it. Its folders are made; the file appears whole and never replaces another
    /// (two processes may make it at once).
    @discardableResult
    public func makeNote(at path: String, text: String, created: Double) throws(VaultError) -> Bool {
        let content = try Content.normalize(text)
        let bytes = Array(NoteDocument.newFile(NoteDocument(parsing: content), created: created).utf8)
        let folder = FileSystem.parentFolder(of: path)
        if !folder.isEmpty { try vault.makeFolder(folder) }
        guard try VaultError.mapping(FileSystem.createExclusively(bytes, at: vault.fullPath(path))) else {
            return false
        }
        record(.added(path))
        return true
    }

    /// Adds `entry` (a journal line, `JournalEntry.text`) as the last line of the note at the
    /// vault-relative `path` and sets its `updatedAt` to `now`. The note is read and written holding
    /// the lock, so entries added at once all land, each whole; a file that another program
    /// changes between the read and the write is not overwritten (`conflict`, as for `edit`).
    public func appendEntry(_ entry: String, toNoteAt path: String, now: Double) throws(VaultError) {
        try withLock { () throws(VaultError) in
            let current = try vault.load(path: path)
            var kept = Substring(Content.editable(current.editableText))
            while let last = kept.last, last.isWhitespace { kept.removeLast() }
            let content = try Content.normalize(JournalEntry.appending(entry, to: String(kept)))
            try vault.update(
                path: path, content: content, now: now, expected: current.bytes,
                whole: current.document.frontMatterHasMarkers)
        }
        record(.modified(path))
    }
}

/// A journal entry: one list item, `- HH:mm text`, as jrnl's quick capture writes one line.
public enum JournalEntry {
    /// The item for `text` at `time`: its first line after `- HH:mm `, the others indented two
    /// spaces, so that a text of several lines stays one item; nil for an empty text.
    public static func text(_ text: String, at time: LocalDateTime) -> String? {
        let trimmed = Content.editable(text).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return nil }
        let stamp = String(format: "%02d:%02d", time.hour, time.minute)
        let lines = trimmed.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map {
            index, line in
            index == 0 ? "- \(stamp) " + line : line.allSatisfy(\.isWhitespace) ? "" : "  " + line
        }
        return lines.joined(separator: "\n")
    }

    /// `body` (trimmed at its end) with `entry` as its last line: right below a list item or its
    /// continuation lines, else after a blank line, so the entry is not run into a heading or a
    /// paragraph.
    public static func appending(_ entry: String, to body: String) -> String {
        guard let lastLine = body.split(separator: "\n", omittingEmptySubsequences: false).last,
            !body.isEmpty
        else { return entry }
        let trimmed = lastLine.drop { $0 == " " || $0 == "\t" }
        let isListLine =
            trimmed.count < lastLine.count || trimmed.hasPrefix("- ") || trimmed.hasPrefix("* ")
            || trimmed.hasPrefix("+ ") || trimmed.first?.isNumber == true && trimmed.contains(". ")
        return body + (isListLine ? "\n" : "\n\n") + entry
    }
}
