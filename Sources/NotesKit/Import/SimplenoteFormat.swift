import Foundation

/// A Simplenote export's `notes.json`: `activeNotes` (the trashed ones are not notes), each with
/// `id`, `content` (its first line is the title), `creationDate` and `lastModified` (ISO 8601),
/// `tags`, and `pinned`, which becomes the tag `pinned`.
public enum SimplenoteFormat: ImportFormat {
    public static let name = "simplenote"

    public static func read(_ paths: [String]) throws(ImportSourceError) -> [ImportEntry] {
        var entries: [ImportEntry] = []
        for path in paths { entries += try read(file: path) }
        return entries
    }

    /// The active notes of one `notes.json`.
    static func read(file: String) throws(ImportSourceError) -> [ImportEntry] {
        let root = try ImportSourceFile.json(ImportSourceFile.bytes(file), file: file)
        guard root.isObject, let notes = root["activeNotes"]?.arrayValue else {
            throw ImportSourceError(
                file: file, place: "", reason: "no 'activeNotes' list: not a Simplenote notes.json")
        }
        var entries: [ImportEntry] = []
        for (number, note) in zip(1..., notes) {
            let place = "activeNotes entry \(number)"
            func date(_ key: String) throws(ImportSourceError) -> Date? {
                try ImportSourceFile.date(note[key], since: 0, file: file, place: place + ", '\(key)'")
            }
            guard note.isObject else {
                throw ImportSourceError(file: file, place: place, reason: "not a JSON object")
            }
            guard let id = try ImportSourceFile.string("id", of: note, file: file, place: place), !id.isEmpty
            else {
                throw ImportSourceError(file: file, place: place, reason: "no 'id'")
            }
            var tags: [String] = []
            switch note["tags"] {
            case nil, .null?: break
            case .array(let items)?:
                for item in items {
                    guard let tag = item.stringValue else {
                        throw ImportSourceError(
                            file: file, place: place, reason: "a tag that is not a string")
                    }
                    tags.append(tag)
                }
            default: throw ImportSourceError(file: file, place: place, reason: "'tags' is not a list")
            }
            if note["pinned"]?.boolValue == true { tags.append("pinned") }
            entries.append(
                ImportEntry(
                    sourceID: id, title: nil,
                    body: Content.editable(
                        try ImportSourceFile.string("content", of: note, file: file, place: place) ?? ""),
                    createdAt: try date("creationDate"), updatedAt: try date("lastModified"), tags: tags))
        }
        return entries
    }
}
