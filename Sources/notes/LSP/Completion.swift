import Foundation
import NotesKit

/// Completion: notes after `[[`, their headings after `[[note#`, tags after `#`, relative paths
/// after `](`.
extension LanguageFeatures {
    /// At most this many items answer a completion request.
    static let completionLimit = 50

    /// CompletionItemKind values.
    private enum ItemKind: Int {
        case value = 12
        case file = 17
        case reference = 18
    }

    /// The completion items at the cursor, as a list marked incomplete when it was cut (always
    /// for notes, so the client asks again as the user types); null where nothing is offered.
    func completion(_ request: TextDocumentPosition) throws -> JSONValue {
        guard let store, let text = text(of: request.uri), let source = vaultPath(of: request.uri) else {
            return .null
        }
        let positions = TextPositions(text)
        let offset = positions.offset(line: request.line, column: request.column, encoding: encoding)
        guard let site = CompletionSite.at(offset, in: text) else { return .null }
        let completions = completions(store)
        var items: [JSONValue] = []
        var incomplete = false
        func item(
            _ label: String, detail: String, kind: ItemKind, insert: String, typed: String, range: Range<Int>
        ) {
            items.append(
                .object([
                    "label": .string(label), "kind": .int(kind.rawValue), "detail": .string(detail),
                    "sortText": .string(String(format: "%04d", items.count)), "filterText": .string(typed),
                    "textEdit": .object([
                        "range": self.range(range, in: positions), "newText": .string(insert),
                    ]),
                ]))
        }
        switch site {
        case .note(let typed, let range, let closed):
            incomplete = true
            for candidate in completions.notes(matching: typed, limit: Self.completionLimit).candidates {
                item(
                    candidate.note.title, detail: candidate.note.id, kind: .file,
                    insert: candidate.target + (closed ? "" : "]]"), typed: typed, range: range)
            }
        case .heading(let target, let typed, let range, let closed):
            var folding = TextFolder()
            let needle = folding.foldedBytes(typed)
            for heading in headings(linkedAs: target, from: source, uri: request.uri, completions)
            where TextFolding.contains(folding.foldedBytes(heading.text), needle) {
                guard items.count < Self.completionLimit else {
                    incomplete = true
                    break
                }
                item(
                    heading.text, detail: String(repeating: "#", count: heading.level), kind: .reference,
                    insert: heading.text + (closed ? "" : "]]"), typed: typed, range: range)
            }
        case .tag(let typed, let range):
            let found = completions.tags(startingWith: typed, limit: Self.completionLimit)
            incomplete = found.more
            for tag in found.tags {
                item(
                    tag.tag, detail: String(tag.count), kind: .value, insert: tag.tag, typed: typed,
                    range: range)
            }
        case .path(let typed, let range, let closed):
            incomplete = true
            let decoded = NoteLinks.percentDecoded(typed)
            let folder = FileSystem.parentFolder(of: source)
            for candidate in completions.notes(matching: decoded, limit: Self.completionLimit).candidates {
                let path = Self.markdownPath(to: candidate.note.path, from: folder)
                item(
                    candidate.note.title, detail: path, kind: .file, insert: path + (closed ? "" : ")"),
                    typed: typed, range: range)
            }
        }
        return .object(["isIncomplete": .bool(incomplete), "items": .array(items)])
    }

    /// What completion searches for this store's catalog, made again when the catalog changed.
    private func completions(_ store: NoteStore) -> NoteCompletions {
        let current = catalog(store)
        if let made = completionIndex, made.isMade(from: current) { return made }
        let made = NoteCompletions(current)
        completionIndex = made
        return made
    }

    /// The headings of the note `[[target]]` goes to from the note at `source` (this note's own
    /// when `target` is empty): from its buffer when it is open, else from the index.
    private func headings(
        linkedAs target: String, from source: String, uri: String, _ completions: NoteCompletions
    ) -> [NoteHeading] {
        if target.isEmpty {
            return text(of: uri).map { NoteAnchors.of(NoteDocument(parsing: $0)).headings } ?? []
        }
        guard let link = NoteLinks.of(body: "[[\(target)]]").first,
            let note = completions.catalog.target(of: link, from: source)
        else { return [] }
        if let open = documents[self.uri(ofNote: note.path)] {
            return NoteAnchors.of(NoteDocument(parsing: open.text)).headings
        }
        return completions.catalog.anchors(of: note).headings
    }

    /// The relative path from the vault folder `folder` to the note at vault path `path`, as a
    /// Markdown link writes it: `..` for each folder up; spaces as `%20`, and the `%` and
    /// parentheses that would end or garble the link escaped too.
    static func markdownPath(to path: String, from folder: String) -> String {
        let from = folder.split(separator: "/")
        let to = path.split(separator: "/")
        var common = 0
        while common < from.count && common < to.count - 1 && from[common] == to[common] { common += 1 }
        let parts = Array(repeating: "..", count: from.count - common) + to[common...].map(String.init)
        var path = ""
        for character in parts.joined(separator: "/") {
            switch character {
            case "%": path += "%25"
            case " ": path += "%20"
            case "(": path += "%28"
            case ")": path += "%29"
            default: path.append(character)
            }
        }
        return path
    }
}
