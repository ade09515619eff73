import Foundation

/// Google Keep, as Takeout exports it: a `Keep/` folder with a `.json` file per note (`title`,
/// `textContent` or `listContent`, `labels`, `attachments`, microsecond timestamps, the
/// `isTrashed`, `isArchived` and `isPinned` flags) and the attached files beside them. An entry's
/// id is its JSON file's name.
public enum KeepFormat: ImportFormat {
    public static let name = "keep"

    /// Each path is the Takeout folder (its `.json` files, by name) or one of its JSON files.
    public static func read(_ paths: [String]) throws(ImportSourceError) -> [ImportEntry] {
        var entries: [ImportEntry] = []
        for path in paths {
            // Each note is a file of its own: read on all cores, then taken in order, so the
            // error named is the first file's that fails, as one at a time.
            let files = try jsonFiles(path)
            let read = Parallel.map(count: files.count, chunk: 16) { i in
                Result { () throws(ImportSourceError) in try entry(files[i]) }
            }
            for result in read {
                if let entry = try result.get() { entries.append(entry) }
            }
        }
        return entries
    }

    private static func jsonFiles(_ path: String) throws(ImportSourceError) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            return [path]
        }
        guard let names = FileSystem.entries(path) else {
            throw ImportSourceError(file: path, place: "", reason: "it cannot be read")
        }
        let folder = path.hasSuffix("/") ? path : path + "/"
        let files = names.filter { $0.kind != .directory && $0.name.lowercased().hasSuffix(".json") }
            .map(\.name).sorted().map { folder + $0 }
        // A folder without one is most likely the wrong one (Takeout, not Takeout/Keep).
        guard !files.isEmpty else {
            let keep = names.first { $0.kind == .directory && $0.name.lowercased() == "keep" }
            throw ImportSourceError(
                file: path, place: "",
                reason: "it holds no Keep notes (.json files); "
                    + (keep.map { "give its '\($0.name)' folder: \(Shell.quote(folder + $0.name))" }
                        ?? "give the 'Keep' folder of the Takeout export"))
        }
        return files
    }

    /// A note file as an entry; nil when it is in the trash.
    static func entry(_ file: String) throws(ImportSourceError) -> ImportEntry? {
        let note = try ImportSourceFile.json(ImportSourceFile.bytes(file), file: file)
        guard note.isObject else {
            throw ImportSourceError(
                file: file, place: "the top level", reason: "it is not a Keep note: not an object")
        }
        if note["isTrashed"]?.boolValue == true { return nil }
        let edited = try microseconds(note, "userEditedTimestampUsec", file: file)
        // Older exports have no creation time: the last edit stands for it (else the import's).
        let created =
            note["createdTimestampUsec"] == nil
            ? edited : try microseconds(note, "createdTimestampUsec", file: file)
        let title = ImportNoteText.trimmed(note["title"]?.stringValue ?? "")
        var parts: [String] = []
        if let text = note["textContent"]?.stringValue {
            let body = lf(text)
            if !body.unicodeScalars.allSatisfy(CharacterSet.whitespacesAndNewlines.contains) {
                parts.append(body)
            }
        } else if let items = note["listContent"]?.arrayValue {
            var lines: [String] = []
            for (index, item) in items.enumerated() {
                guard let text = item["text"]?.stringValue else {
                    throw ImportSourceError(
                        file: file, place: "listContent item \(index + 1)", reason: "it has no 'text' string"
                    )
                }
                guard !text.isEmpty else { continue }
                let box = item["isChecked"]?.boolValue == true ? "- [x] " : "- [ ] "
                let item = lf(text)
                lines.append(
                    box + (item.utf8.contains(10) ? item.replacingOccurrences(of: "\n", with: "\n  ") : item))
            }
            if !lines.isEmpty { parts.append(lines.joined(separator: "\n")) }
        } else {
            throw ImportSourceError(
                file: file, place: "the top level",
                reason: "it is not a Keep note: no 'textContent' or 'listContent'")
        }
        var attachments: [ImportAttachment] = []
        var links: [String] = []
        var warnings: [String] = []
        let folder = file.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(
            separator: "/")
        for (index, attachment) in (note["attachments"]?.arrayValue ?? []).enumerated() {
            let place = "attachment \(index + 1)"
            guard let filePath = attachment["filePath"]?.stringValue,
                let name = filePath.split(separator: "/").last,
                !name.hasPrefix(".")
            else {
                throw ImportSourceError(
                    file: file, place: place, reason: "it has no 'filePath' naming a file")
            }
            guard let bytes = attachmentBytes(folder: folder, name: String(name)) else {
                warnings.append(
                    "'\(file)': its attached file '\(name)' is not beside it in the Takeout folder; "
                        + "the note is imported without it")
                continue
            }
            attachments.append(ImportAttachment(path: bytes.name, bytes: bytes.bytes))
            let target = EnexMarkdown.destination(bytes.name)
            links.append(
                (attachment["mimetype"]?.stringValue ?? "").hasPrefix("image/")
                    ? "![](\(target))" : "[\(bytes.name)](\(target))")
        }
        if !links.isEmpty { parts.append(links.joined(separator: "\n")) }
        var tags: [String] = []
        for label in note["labels"]?.arrayValue ?? [] {
            if let name = label["name"]?.stringValue, !name.isEmpty, !tags.contains(name) {
                tags.append(name)
            }
        }
        if note["isPinned"]?.boolValue == true { tags.append("pinned") }
        if note["isArchived"]?.boolValue == true { tags.append("archived") }
        let fileName = String(file.split(separator: "/").last ?? Substring(file))
        return ImportEntry(
            sourceID: fileName, title: title.isEmpty ? nil : title, body: parts.joined(separator: "\n\n"),
            createdAt: created, updatedAt: edited, tags: tags, attachments: attachments, warnings: warnings)
    }

    /// `text` with CRLF line ends made LF; most texts have no CR, and Foundation's search is
    /// slow on Linux, so those are not searched.
    private static func lf(_ text: String) -> String {
        text.utf8.contains(13) ? text.replacingOccurrences(of: "\r\n", with: "\n") : text
    }

    /// A timestamp in microseconds since 1970 as a date, to the microsecond (whole seconds and
    /// the rest apart, so no rounding of the large number comes in); 0 or absent for the edit
    /// time means none.
    private static func microseconds(_ note: JSONValue, _ key: String, file: String) throws(ImportSourceError)
        -> Date?
    {
        guard let value = note[key]?.intValue, value >= 0 else {
            if note[key] == nil, key == "userEditedTimestampUsec" { return nil }
            throw ImportSourceError(
                file: file, place: key, reason: "it is missing, or not a whole number of microseconds")
        }
        if value == 0, key == "userEditedTimestampUsec" { return nil }
        return Date(timeIntervalSince1970: Double(value / 1_000_000) + Double(value % 1_000_000) / 1_000_000)
    }

    /// An attached file beside the note, nil when it is not there: Takeout sometimes names the
    /// file `.jpg` where the note says `.jpeg`, or the other way round, so both are tried.
    private static func attachmentBytes(folder: String, name: String) -> (name: String, bytes: [UInt8])? {
        var names = [name]
        if name.lowercased().hasSuffix(".jpeg") { names.append(String(name.dropLast(5)) + ".jpg") }
        if name.lowercased().hasSuffix(".jpg") { names.append(String(name.dropLast(4)) + ".jpeg") }
        for candidate in names {
            let path = (folder.isEmpty ? "" : folder + "/") + candidate
            if let bytes = try? FileSystem.read(path, followSymlinks: true).0 { return (candidate, bytes) }
        }
        return nil
    }
}
