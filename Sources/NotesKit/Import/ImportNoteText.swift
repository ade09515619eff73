import Foundation

/// The file an imported entry becomes: front matter (`createdAt`, `updatedAt` when known, `tags`
/// when any, `importedFrom`), then `# title`, a blank line and the body, under the content rules.
enum ImportNoteText {
    /// The plan's item for `entry`, named as `vault` names new notes; nil when the entry is empty.
    static func item(
        for entry: ImportEntry, importedFrom: String, now: Double, naming vault: Vault
    ) -> ImportPlan.Item? {
        let title = oneLine(entry.title ?? "")
        // Foundation's search is slow on Linux, and most bodies have no CR to replace.
        let body = entry.body.utf8.contains(13) ? Content.editable(entry.body) : entry.body
        let content = (title.isEmpty ? "" : "# " + title + "\n\n") + body
        guard let normalized = try? Content.normalize(content) else { return nil }
        let created = NoteDate.clamped(entry.createdAt?.timeIntervalSince1970 ?? now)
        var front = "---\ncreatedAt: \(NoteDate.format(created))\n"
        if let updated = entry.updatedAt {
            front += "updatedAt: \(NoteDate.format(NoteDate.clamped(updated.timeIntervalSince1970)))\n"
        }
        var tags: [String] = []
        for tag in entry.tags.map(oneLine) where !tag.isEmpty && !tags.contains(tag) { tags.append(tag) }
        if !tags.isEmpty {
            front += "tags: [" + tags.map(FrontMatter.written).joined(separator: ", ") + "]\n"
        }
        front += "importedFrom: " + FrontMatter.written(importedFrom) + "\n---\n"
        let text = front + normalized
        let probe = Note(path: "x.md", document: NoteDocument(parsing: text), mtime: created)
        var base = vault.fileNaming == .title ? TitleFileName.make(probe.title) : Slug.make(probe.title)
        if base.isEmpty { base = Slug.fallback(now: created) }
        return ImportPlan.Item(
            importedFrom: importedFrom, text: text, baseName: base, attachments: entry.attachments)
    }

    /// `text` with its line breaks and tabs turned into spaces, trimmed: a title or tag is one line.
    static func oneLine(_ text: String) -> String {
        // Printable ASCII (most titles and tags) has no line break or tab to turn into a space:
        // only spaces at its ends to trim, by bytes.
        let printable = text.utf8.withContiguousStorageIfAvailable { b -> String? in
            guard b.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
            var start = 0
            var end = b.count
            while start < end && b[start] == 0x20 { start += 1 }
            while end > start && b[end - 1] == 0x20 { end -= 1 }
            return start == 0 && end == b.count ? text : String(decoding: b[start..<end], as: UTF8.self)
        }
        if let printable = printable ?? nil { return printable }
        return String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 }).trimmingCharacters(in: .whitespaces)
    }

    /// `text` without the white space and line breaks at its ends, as
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` gives it, without Foundation when both
    /// ends are already visible ASCII (nothing to trim).
    static func trimmed(_ text: String) -> String {
        if let first = text.utf8.first, let last = text.utf8.last, first > 0x20, first < 0x7F, last > 0x20,
            last < 0x7F
        {
            return text
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
