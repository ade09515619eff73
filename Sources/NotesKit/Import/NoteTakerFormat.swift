import Foundation

/// The NoteTaker app's notes: the JSON `[{"id", "title", "content", "date"}]` its store encodes
/// with `JSONEncoder` (`date` in seconds since 2001, or an ISO 8601 string), alone or as the data
/// of the `notes` key of its preferences plist (XML or binary, as `defaults export` writes it).
public enum NoteTakerFormat: ImportFormat {
    public static let name = "notetaker"

    public static func read(_ paths: [String]) throws(ImportSourceError) -> [ImportEntry] {
        var entries: [ImportEntry] = []
        for path in paths { entries += try read(file: path) }
        return entries
    }

    /// The entries of one file, JSON or plist.
    static func read(file: String) throws(ImportSourceError) -> [ImportEntry] {
        let bytes = try ImportSourceFile.bytes(file)
        if isPropertyList(bytes) {
            return try entries(
                of: try notesData(ofPlist: bytes, file: file), file: file, within: "key 'notes'")
        }
        return try entries(of: bytes, file: file, within: "")
    }

    /// Whether `bytes` start as a binary or an XML property list does.
    static func isPropertyList(_ bytes: [UInt8]) -> Bool {
        let start = String(decoding: bytes.prefix(64), as: UTF8.self).drop {
            $0 == "\u{FEFF}" || $0.isWhitespace
        }
        return bytes.starts(with: Array("bplist".utf8)) || start.hasPrefix("<?xml")
            || start.hasPrefix("<plist")
            || start.hasPrefix("<!DOCTYPE plist")
    }

    /// The bytes of the plist's `notes` key (data, or a string holding the JSON).
    static func notesData(ofPlist bytes: [UInt8], file: String) throws(ImportSourceError) -> [UInt8] {
        let root: Any
        do {
            root = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        } catch {
            throw ImportSourceError(file: file, place: "", reason: "not a property list that can be read")
        }
        guard let dictionary = root as? [AnyHashable: Any] else {
            throw ImportSourceError(file: file, place: "", reason: "the property list is not a dictionary")
        }
        switch dictionary["notes"] {
        case let data as Data: return Array(data)
        case let text as String: return Array(text.utf8)
        case nil:
            throw ImportSourceError(
                file: file, place: "key 'notes'",
                reason: "the property list has no 'notes' key: no NoteTaker data")
        default:
            throw ImportSourceError(
                file: file, place: "key 'notes'", reason: "it holds neither data nor text")
        }
    }

    /// The notes of the JSON in `bytes`.
    static func entries(of bytes: [UInt8], file: String, within: String) throws(ImportSourceError)
        -> [ImportEntry]
    {
        let prefix = within.isEmpty ? "" : within + ", "
        guard let items = try ImportSourceFile.json(bytes, file: file, within: within).arrayValue else {
            throw ImportSourceError(
                file: file, place: within, reason: "not a JSON array of notes ([{\"id\", \"title\", …}])")
        }
        var entries: [ImportEntry] = []
        for (number, item) in zip(1..., items) {
            let place = prefix + "entry \(number)"
            guard item.isObject else {
                throw ImportSourceError(file: file, place: place, reason: "not a JSON object")
            }
            guard let id = try ImportSourceFile.string("id", of: item, file: file, place: place), !id.isEmpty
            else {
                throw ImportSourceError(file: file, place: place, reason: "no 'id'")
            }
            entries.append(
                ImportEntry(
                    sourceID: id,
                    title: try ImportSourceFile.string("title", of: item, file: file, place: place),
                    body: Content.editable(
                        try ImportSourceFile.string("content", of: item, file: file, place: place) ?? ""),
                    createdAt: try ImportSourceFile.date(
                        item["date"], since: ImportSourceFile.epoch2001, file: file, place: place)))
        }
        return entries
    }
}
