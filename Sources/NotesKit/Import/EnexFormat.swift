import Foundation

/// Evernote's `.enex` export: an `en-export` of `note`s, each with its title, `created` and
/// `updated` dates, `tag`s, its ENML `content` and its `resource`s (files in base64). ENEX has no
/// ids, so an entry's is its `created` date and a short MD5 of its title and content.
public enum EnexFormat: ImportFormat {
    public static let name = "enex"

    /// The folder, beside the notes, that the resources are written to.
    public static let resourceFolder = "_resources"

    public static func read(_ paths: [String]) throws(ImportSourceError) -> [ImportEntry] {
        var names = ResourceNames()
        var entries: [ImportEntry] = []
        for path in paths {
            let bytes = try ImportSourceFile.bytes(path)
            for (index, note) in try notes(in: bytes, file: path).enumerated() {
                entries.append(try entry(note, file: path, place: "entry \(index + 1)", names: &names))
            }
        }
        return entries
    }

    /// A `note` as the export has it, its text not yet converted.
    struct RawNote {
        var title = ""
        var created: String?
        var updated: String?
        var tags: [String] = []
        var content = ""
        var resources: [RawResource] = []
    }

    /// A `resource` of a note: its base64 `data`, `mime` type and `file-name`, if any.
    struct RawResource {
        var data = ""
        var mime = ""
        var fileName: String?
    }

    /// The notes of an export, in order.
    static func notes(in bytes: [UInt8], file: String) throws(ImportSourceError) -> [RawNote] {
        let root: EnexNode
        do {
            root = try EnexXML.parse(bytes)
        } catch {
            throw ImportSourceError(
                file: file, place: "line \(error.line), column \(error.column)", reason: error.reason)
        }
        guard case .element("en-export", _, let children) = root else {
            throw ImportSourceError(
                file: file, place: "line 1",
                reason: "it is not an Evernote export: its root is not 'en-export'")
        }
        var notes: [RawNote] = []
        for case .element("note", _, let fields) in children {
            var note = RawNote()
            for case .element(let name, _, let value) in fields {
                switch name {
                case "title": note.title = text(value)
                case "created": note.created = text(value)
                case "updated": note.updated = text(value)
                case "tag": note.tags.append(text(value))
                // The blanks around a CDATA section are not the document's: an XML declaration must
                // come first.
                case "content": note.content = text(value).trimmingCharacters(in: .whitespacesAndNewlines)
                case "resource": note.resources.append(resource(value))
                default: break
                }
            }
            notes.append(note)
        }
        return notes
    }

    private static func resource(_ fields: [EnexNode]) -> RawResource {
        var resource = RawResource()
        for case .element(let name, _, let value) in fields {
            switch name {
            case "data": resource.data = text(value)
            case "mime": resource.mime = text(value).trimmingCharacters(in: .whitespacesAndNewlines)
            case "resource-attributes":
                for case .element("file-name", _, let fileName) in value {
                    resource.fileName = text(fileName)
                }
            default: break
            }
        }
        return resource
    }

    private static func text(_ nodes: [EnexNode]) -> String {
        nodes.reduce(into: "") { text, node in if case .text(let string) = node { text += string } }
    }

    /// One note as an entry: resources decoded and named, the content as Markdown with each
    /// `en-media` replaced by a link to its file, and any resource the content does not show
    /// linked at the end.
    static func entry(_ note: RawNote, file: String, place: String, names: inout ResourceNames)
        throws(ImportSourceError) -> ImportEntry
    {
        var media: [String: String] = [:]
        var attachments: [ImportAttachment] = []
        var hashes: [String] = []
        var warnings: [String] = []
        for (index, resource) in note.resources.enumerated() {
            let base64 = resource.data.filter { !$0.isWhitespace }
            guard let data = Data(base64Encoded: base64) else {
                throw ImportSourceError(
                    file: file, place: "\(place), resource \(index + 1)",
                    reason: "its data is not valid base64")
            }
            let bytes = [UInt8](data)
            let hash = MD5.hex(bytes)
            guard media[hash] == nil else { continue }
            let path = resourceFolder + "/" + names.name(for: resource, hash: hash)
            let label = String(path.dropFirst(resourceFolder.count + 1))
            media[hash] =
                resource.mime.hasPrefix("image/")
                ? "![](\(EnexMarkdown.destination(path)))"
                : "[\(label.replacingOccurrences(of: "[", with: "\\[").replacingOccurrences(of: "]", with: "\\]"))](\(EnexMarkdown.destination(path)))"
            attachments.append(ImportAttachment(path: path, bytes: bytes))
            hashes.append(hash)
        }
        var body = ""
        if !note.content.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            let root: EnexNode
            do {
                root = try EnexXML.parse(Array(note.content.utf8))
            } catch {
                throw ImportSourceError(
                    file: file, place: "\(place), content line \(error.line), column \(error.column)",
                    reason: error.reason)
            }
            var converter = EnexMarkdown(media: media)
            body = converter.markdown(of: root)
            // Real exports show resources they do not hold: the note comes without them.
            for missing in converter.mediaUsed where media[missing] == nil {
                warnings.append(
                    "'\(file)': \(place) shows the resource with hash \(missing), which the file does not "
                        + "hold; the note is imported without it")
            }
            let unshown = hashes.filter { !converter.mediaUsed.contains($0) }.compactMap { media[$0] }
            if !unshown.isEmpty { body += (body.isEmpty ? "" : "\n\n") + unshown.joined(separator: "\n") }
        } else if !hashes.isEmpty {
            body = hashes.compactMap { media[$0] }.joined(separator: "\n")
        }
        let title = note.title.trimmingCharacters(in: .whitespacesAndNewlines)
        let created = try date(note.created, field: "created", file: file, place: place)
        let updated = try date(note.updated, field: "updated", file: file, place: place)
        var tags: [String] = []
        for tag in note.tags.map({ $0.trimmingCharacters(in: .whitespacesAndNewlines) })
        where !tag.isEmpty && !tags.contains(tag) {
            tags.append(tag)
        }
        return ImportEntry(
            sourceID: sourceID(created: note.created, title: note.title, content: note.content),
            title: title.isEmpty ? nil : title, body: body, createdAt: created, updatedAt: updated,
            tags: tags,
            attachments: attachments, warnings: warnings)
    }

    /// The id of a note, which ENEX does not give: its `created` text as written, `-`, and the
    /// first 12 hexadecimal digits of the MD5 of the UTF-8 of its title as written, a line feed,
    /// and its `content` as written (the ENML, before any conversion, so that a better converter
    /// does not change ids): `20250310T101500Z-0123456789ab`. Without `created`, the digits alone.
    static func sourceID(created: String?, title: String, content: String) -> String {
        let digits = String(MD5.hex(title + "\n" + content).prefix(12))
        guard let created = created?.trimmingCharacters(in: .whitespacesAndNewlines), !created.isEmpty else {
            return digits
        }
        return created + "-" + digits
    }

    /// ENEX's `20250310T101500Z` (UTC) as a date; nil when the field is absent.
    static func date(_ text: String?, field: String, file: String, place: String) throws(ImportSourceError)
        -> Date?
    {
        guard let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else {
            return nil
        }
        let characters = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.allSatisfy({ (0x30...0x39).contains(characters[$0]) }) else { return nil }
            return range.reduce(0) { $0 * 10 + Int(characters[$1] - 0x30) }
        }
        guard characters.count == 16, characters[8] == UInt8(ascii: "T"), characters[15] == UInt8(ascii: "Z"),
            let year = number(0..<4), let month = number(4..<6), let day = number(6..<8),
            let hour = number(9..<11), let minute = number(11..<13), let second = number(13..<15),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else {
            throw ImportSourceError(
                file: file, place: place,
                reason: "its \(field) date '\(text)' is not of the form 20250310T101500Z")
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let components = DateComponents(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard let date = calendar.date(from: components), calendar.component(.day, from: date) == day else {
            throw ImportSourceError(
                file: file, place: place, reason: "its \(field) date '\(text)' is not a real day")
        }
        return date
    }

    /// The names resources are written under, one per file across the whole import: the
    /// resource's own file name, else its hash with an extension for its type; a second
    /// resource of the same name but other bytes gets ` 2`, ` 3` … before the extension, and the
    /// same bytes again get the same name.
    struct ResourceNames {
        private var byName: [String: String] = [:]

        mutating func name(for resource: RawResource, hash: String) -> String {
            let base =
                sanitized(resource.fileName ?? "") ?? hash + "." + Self.fileExtension(for: resource.mime)
            let dot = base.lastIndex(of: ".").flatMap { $0 == base.startIndex ? nil : $0 }
            let stem = dot.map { String(base[..<$0]) } ?? base
            let ext = dot.map { String(base[$0...]) } ?? ""
            var candidate = base
            var number = 2
            while let owner = byName[candidate.lowercased()], owner != hash {
                candidate = "\(stem) \(number)\(ext)"
                number += 1
            }
            byName[candidate.lowercased()] = hash
            return candidate
        }

        /// A file name kept to its last component, without characters a file name cannot hold.
        private func sanitized(_ name: String) -> String? {
            let last = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
            let cleaned = String(
                last.unicodeScalars.map { $0.value < 0x20 || $0 == ":" ? "-" : Character($0) }
            ).trimmingCharacters(in: .whitespaces)
            let name = String(cleaned.drop { $0 == "." })
            return name.isEmpty ? nil : name
        }

        static func fileExtension(for mime: String) -> String {
            switch mime {
            case "image/jpeg": return "jpg"
            case "image/svg+xml": return "svg"
            case "text/plain": return "txt"
            case "application/octet-stream", "": return "bin"
            default:
                let subtype = mime.split(separator: "/").last.map(String.init) ?? "bin"
                return String(subtype.split(separator: "+").first ?? "bin")
            }
        }
    }
}
