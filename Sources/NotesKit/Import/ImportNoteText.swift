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
        if !tags.isEmpty { front += "tags: [" + tags.map(scalar).joined(separator: ", ") + "]\n" }
        front += "importedFrom: " + scalar(importedFrom) + "\n---\n"
        let text = front + normalized
        let probe = Note(path: "x.md", document: NoteDocument(parsing: text), mtime: created)
        var base = vault.fileNaming == .title ? TitleFileName.make(probe.title) : Slug.make(probe.title)
        if base.isEmpty { base = Slug.fallback(now: created) }
        return ImportPlan.Item(
            importedFrom: importedFrom, text: text, baseName: base, attachments: entry.attachments)
    }

    /// `text` with its line breaks and tabs turned into spaces, trimmed: a title or tag is one line.
    static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 }).trimmingCharacters(in: .whitespaces)
    }

    /// `text` as a front-matter scalar that reads back as itself, alone or in an inline list:
    /// plain when it is letters, digits and `-_./@+:` (not ending in `:`), else double-quoted.
    static func scalar(_ text: String) -> String {
        let plainPunctuation: Set<Character> = ["-", "_", ".", "/", "@", "+", ":"]
        if let first = text.first, first.isLetter || first.isNumber, text.last != ":",
            text.allSatisfy({ $0.isLetter || $0.isNumber || plainPunctuation.contains($0) })
        {
            return text
        }
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out += String(format: "\\u%04X", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
