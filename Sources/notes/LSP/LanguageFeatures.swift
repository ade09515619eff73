import Foundation
import NotesKit

/// What `notes lsp` answers about notes: the open documents' text, links found in it, and the
/// vault's catalog (the index) for everything else. Positions in `encoding`.
final class LanguageFeatures {
    let store: NoteStore?
    let encoding: PositionEncoding
    let log: (String) -> Void
    private(set) var documents = OpenDocuments()

    /// At most this much of a note is shown in a hover.
    static let hoverLines = 10
    static let hoverCharacters = 600

    /// How old the catalog may be when a request needs it before the request brings it up to
    /// date itself (a test seam; the session keeps it fresh otherwise).
    let refreshInterval: Double
    private var refreshedAt = -Double.infinity
    /// Keeps the vault's catalog fresh on a thread of its own (nil without a vault).
    let session: CatalogSession?
    /// Whether the request being answered was cancelled: long loops ask, and stop.
    var isCancelled: () -> Bool = { false }
    /// Makes and sends every open document's diagnostics again (see `republishDiagnostics`).
    var republish: () -> Void = {}

    /// What completion searches, made again when the catalog changes.
    var completionIndex: NoteCompletions?
    /// Sends a request to the client (whose answer is not waited for).
    var sendRequest: (_ method: String, _ params: JSONValue) -> Void = { _, _ in }
    /// Whether the client opens a document the server asks it to (`window/showDocument`).
    var clientShowsDocuments = false
    /// The user's settings file, when the command line or the environment named one.
    var settingsPath: String?

    init(
        store: NoteStore?, encoding: PositionEncoding, session: CatalogSession? = nil,
        refreshInterval: Double = .infinity, log: @escaping (String) -> Void
    ) {
        self.store = store
        self.encoding = encoding
        self.session = session
        self.refreshInterval = refreshInterval
        self.log = log
    }

    /// The vault's catalog: the session's latest, or (with `refreshInterval`) brought up to date
    /// when it is older than that.
    func catalog(_ store: NoteStore) -> Catalog {
        snapshot()?.catalog ?? store.catalog
    }

    /// The session's latest catalog and its generation; nil without a session.
    func snapshot() -> CatalogSession.Snapshot? {
        guard let session else { return nil }
        let now = ProcessInfo.processInfo.systemUptime
        guard refreshInterval.isFinite, now - refreshedAt >= refreshInterval else { return session.snapshot }
        refreshedAt = now
        return session.refresh()
    }

    /// Throws `RequestCancelled` when the request being answered was cancelled.
    func checkCancelled() throws {
        if isCancelled() { throw Failure(code: .requestCancelled, message: "The request was cancelled.") }
    }

    private typealias Failure = LanguageServer.Failure

    // MARK: Text sync

    func didOpen(_ params: JSONValue) throws {
        guard let item = params["textDocument"], let uri = item["uri"]?.stringValue,
            let text = item["text"]?.stringValue
        else { throw Failure(code: .invalidParams, message: "Expected textDocument.uri and text.") }
        documents.open(uri, text: text, version: item["version"]?.intValue ?? 0)
    }

    func didChange(_ params: JSONValue) throws {
        guard let uri = params["textDocument"]?["uri"]?.stringValue,
            let changes = params["contentChanges"]?.arrayValue
        else { throw Failure(code: .invalidParams, message: "Expected textDocument.uri and contentChanges.") }
        let parsed = try changes.map { change -> OpenDocuments.Change in
            guard let text = change["text"]?.stringValue else {
                throw Failure(code: .invalidParams, message: "A change without text.")
            }
            guard let range = change["range"] else { return OpenDocuments.Change(range: nil, text: text) }
            guard let start = Self.position(range["start"]), let end = Self.position(range["end"]) else {
                throw Failure(code: .invalidParams, message: "A change with a bad range.")
            }
            return OpenDocuments.Change(range: (start, end), text: text)
        }
        let version = params["textDocument"]?["version"]?.intValue ?? 0
        if !documents.change(uri, version: version, changes: parsed, encoding: encoding) {
            log("notes lsp: a change to \(uri), which is not open.")
        }
    }

    func didClose(_ params: JSONValue) throws {
        guard let uri = params["textDocument"]?["uri"]?.stringValue else {
            throw Failure(code: .invalidParams, message: "Expected textDocument.uri.")
        }
        documents.close(uri)
    }

    private static func position(_ value: JSONValue?) -> (line: Int, column: Int)? {
        guard let line = value?["line"]?.intValue, let column = value?["character"]?.intValue else {
            return nil
        }
        return (line, column)
    }

    // MARK: Documents

    /// The vault path of the file at `uri`, when it is a note inside the vault.
    func vaultPath(of uri: String) -> String? {
        guard let store, let path = FileURI.path(uri) else { return nil }
        let folder = FileSystem.parentFolder(of: path)
        let name = (path as NSString).lastPathComponent
        guard
            let canonical = FileSystem.realPath(path) ?? FileSystem.realPath(folder).map({ $0 + "/" + name })
        else { return nil }
        let root = store.vault.canonicalRoot + "/"
        guard canonical.hasPrefix(root) else { return nil }
        return String(canonical.dropFirst(root.count))
    }

    /// The URI of the note at a vault path.
    func uri(ofNote path: String) -> String {
        guard let store else { return FileURI.uri(path) }
        return FileURI.uri(store.vault.root + "/" + path)
    }

    /// The text of a document: the editor's buffer when it is open, else its file.
    func text(of uri: String) -> String? {
        if let open = documents[uri] { return open.text }
        guard let path = FileURI.path(uri), let bytes = (try? FileSystem.read(path))?.0 else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    /// A document's links to notes, with where each is in its text (bytes): with `bare`, also
    /// the Markdown links whose target has no extension (`[p](Plan)`), which `notes links` takes
    /// to the note at that path with `.md` when no file of the vault has the name.
    func links(in text: String, bare: Bool = true) -> [(link: NoteLink, range: Range<Int>)] {
        let document = NoteDocument(parsing: text)
        let bodyStart = text.utf8.count - document.body.utf8.count
        return NoteLinks.all(document).filter { $0.kind == .note || bare && Self.isBare($0) }.map { link in
            (link, (link.range.lowerBound + bodyStart)..<(link.range.upperBound + bodyStart))
        }
    }

    /// Whether `link` is a Markdown link (not an image) whose target's last part has no extension.
    static func isBare(_ link: NoteLink) -> Bool {
        guard link.kind == .attachment, link.style == .markdown, !link.isEmbed else { return false }
        let last = link.decodedTarget.split(separator: "/").last ?? ""
        return !last.isEmpty && !last.contains(".")
    }

    /// The link under the cursor, in the document's own text.
    private func link(at request: TextDocumentPosition, text: String)
        -> (link: NoteLink, range: Range<Int>, positions: TextPositions)?
    {
        let positions = TextPositions(text)
        let offset = positions.offset(line: request.line, column: request.column, encoding: encoding)
        guard let found = links(in: text).first(where: { $0.range.contains(offset) }) else { return nil }
        return (found.link, found.range, positions)
    }

    func range(_ bytes: Range<Int>, in positions: TextPositions) -> JSONValue {
        Self.range(
            positions.position(of: bytes.lowerBound, encoding: encoding),
            positions.position(of: bytes.upperBound, encoding: encoding))
    }

    private func location(_ uri: String, _ bytes: Range<Int>, in positions: TextPositions) -> JSONValue {
        .object(["uri": .string(uri), "range": range(bytes, in: positions)])
    }

    // MARK: Features

    /// The note a link goes to, resolved from the linking document's vault path.
    func target(of link: NoteLink, in uri: String) -> Note? {
        guard let store, let source = vaultPath(of: uri) else { return nil }
        return catalog(store).target(of: link, from: source)
    }

    /// The target note, at its heading's line when the link names one (else its first line).
    func definition(_ request: TextDocumentPosition) throws -> JSONValue {
        guard let text = text(of: request.uri), let found = link(at: request, text: text),
            let note = target(of: found.link, in: request.uri)
        else { return .null }
        let uri = uri(ofNote: note.path)
        var line = 0
        if let heading = found.link.heading, let targetText = self.text(of: uri) {
            line = Self.headingLine(heading, in: targetText) ?? 0
        }
        let start: JSONValue = .object(["line": .int(line), "character": .int(0)])
        return .object(["uri": .string(uri), "range": .object(["start": start, "end": start])])
    }

    /// The 0-based line of the heading (or `^block`) that a link's `#heading` names, matched as
    /// `notes links` matches it.
    static func headingLine(_ heading: String, in text: String) -> Int? {
        NoteAnchors.of(NoteDocument(parsing: text)).line(of: NoteAnchors.want(heading)).map { $0 - 1 }
    }

    /// The document's headings, each holding the headings below it of a deeper level; a
    /// heading's range runs to the next heading of its level or higher (or the end).
    func documentSymbols(_ uri: String) throws -> JSONValue {
        guard let text = text(of: uri) else { return .array([]) }
        // 0-based lines, as the protocol counts them.
        let headings = NoteAnchors.of(NoteDocument(parsing: text)).headings.map {
            (level: $0.level, title: $0.text, line: $0.line - 1)
        }
        let positions = TextPositions(text)
        var index = 0
        func symbols(deeperThan level: Int) -> [JSONValue] {
            var found: [JSONValue] = []
            while index < headings.count && headings[index].level > level {
                let heading = headings[index]
                index += 1
                let children = symbols(deeperThan: heading.level)
                let next = headings[index...].first { $0.level <= heading.level }
                let lastLine = next.map { max(heading.line, $0.line - 1) } ?? positions.lineCount - 1
                let end = positions.lineRange(lastLine).upperBound
                let lineRange = positions.lineRange(heading.line)
                found.append(
                    .object([
                        "name": .string(heading.title.isEmpty ? "#" : heading.title),
                        "kind": .int(15), "range": range(lineRange.lowerBound..<end, in: positions),
                        "selectionRange": range(lineRange, in: positions), "children": .array(children),
                    ]))
            }
            return found
        }
        return .array(symbols(deeperThan: 0))
    }

    /// At most this many notes answer a workspace symbol query.
    static let workspaceSymbolLimit = 100

    /// The notes whose folded title or ID contains the folded query, newest first, as files.
    func workspaceSymbols(_ query: String) throws -> JSONValue {
        guard let store else { return .array([]) }
        var folding = TextFolder()
        let needle = folding.foldedBytes(query)
        var found: [JSONValue] = []
        for (i, note) in catalog(store).run(NoteQuery()).enumerated() {
            guard found.count < Self.workspaceSymbolLimit else { break }
            if i % 256 == 0 { try checkCancelled() }
            guard
                needle.isEmpty || TextFolding.contains(folding.foldedBytes(note.title), needle)
                    || TextFolding.contains(folding.foldedBytes(note.id), needle)
            else { continue }
            let start: JSONValue = .object(["line": .int(0), "character": .int(0)])
            found.append(
                .object([
                    "name": .string(note.title), "kind": .int(1), "containerName": .string(note.id),
                    "location": .object([
                        "uri": .string(uri(ofNote: note.path)),
                        "range": .object(["start": start, "end": start]),
                    ]),
                ]))
        }
        return .array(found)
    }

    /// On a link: every link to its target; elsewhere: every link to this note — the sites
    /// `notes backlinks` lists, each located at its text on its line.
    func references(_ request: TextDocumentPosition) throws -> JSONValue {
        guard let store, let text = text(of: request.uri) else { return .array([]) }
        let catalog = catalog(store)
        let note: Note?
        if let found = link(at: request, text: text) {
            note = target(of: found.link, in: request.uri)
        } else {
            note = vaultPath(of: request.uri).flatMap { catalog.note(atPath: $0) }
        }
        guard let note else { return .array([]) }
        // An open document's links count as typed: its sites come from its buffer, not the index.
        let open = documents.uris.compactMap { uri in vaultPath(of: uri).map { (uri: uri, path: $0) } }
        let openPaths = Set(open.map(\.path))
        var groups: [(id: String, locations: [JSONValue])] = []
        try checkCancelled()
        let sites = catalog.backlinks(to: note).filter { !openPaths.contains($0.source.path) }
        try checkCancelled()
        let located = SiteLocations.locate(sites, root: store.vault.root, encoding: encoding)
        try checkCancelled()
        var uri = (path: "", uri: "")
        for (site, location) in zip(sites, located) {
            guard let location else { continue }
            if uri.path != site.source.path { uri = (site.source.path, self.uri(ofNote: site.source.path)) }
            if groups.last?.id != site.source.id { groups.append((site.source.id, [])) }
            groups[groups.count - 1].locations.append(
                .object(["uri": .string(uri.uri), "range": Self.range(location.start, location.end)]))
        }
        for document in open {
            guard let text = documents[document.uri]?.text else { continue }
            let positions = TextPositions(text)
            let found = links(in: text).filter {
                catalog.target(of: $0.link, from: document.path)?.path == note.path
            }
            if !found.isEmpty {
                groups.append(
                    (
                        Note.id(forPath: document.path),
                        found.map { location(document.uri, $0.range, in: positions) }
                    ))
            }
        }
        // By linking note's ID, as `notes backlinks` orders them.
        let sorted = groups.enumerated().sorted { a, b in
            a.element.id == b.element.id
                ? a.offset < b.offset : a.element.id.utf8.lexicographicallyPrecedes(b.element.id.utf8)
        }
        return .array(sorted.flatMap(\.element.locations))
    }

    private static func range(_ start: SiteLocations.Position, _ end: SiteLocations.Position) -> JSONValue {
        .object([
            "start": .object(["line": .int(start.line), "character": .int(start.column)]),
            "end": .object(["line": .int(end.line), "character": .int(end.column)]),
        ])
    }

    /// On a link: the target's title, ID, date and first lines; on a broken link, that no note
    /// has that name.
    func hover(_ request: TextDocumentPosition) throws -> JSONValue {
        // Outside the vault a link goes nowhere the server knows: no hover, not a false "no note".
        guard vaultPath(of: request.uri) != nil, let text = text(of: request.uri),
            let found = link(at: request, text: text)
        else { return .null }
        let markdown: String
        if let note = target(of: found.link, in: request.uri) {
            markdown = Self.hoverText(note, body: hoverBody(of: note))
        } else {
            markdown = brokenLinkHover(found.link, in: request.uri)
        }
        return .object([
            "contents": .object(["kind": .string("markdown"), "value": .string(markdown)]),
            "range": range(found.range, in: found.positions),
        ])
    }

    private func hoverBody(of note: Note) -> String {
        let uri = uri(ofNote: note.path)
        guard let text = documents[uri]?.text ?? self.text(of: uri) else { return "" }
        return NoteDocument(parsing: text).body
    }

    /// A hover's Markdown: the title in bold, the ID and date, then the body's first lines (at
    /// most `hoverLines` lines and `hoverCharacters` characters).
    static func hoverText(_ note: Note, body: String) -> String {
        var lines: [Substring] = []
        var characters = 0
        for line in body.split(separator: "\n", omittingEmptySubsequences: false) {
            if lines.isEmpty && line.allSatisfy({ $0 == " " || $0 == "\r" }) { continue }
            guard lines.count < hoverLines, characters < hoverCharacters else { break }
            let kept = line.prefix(hoverCharacters - characters)
            lines.append(kept)
            characters += kept.count + 1
        }
        while let last = lines.last, last.allSatisfy({ $0 == " " || $0 == "\r" }) { lines.removeLast() }
        let date = String(NoteDate.format(note.modifiedAt).prefix(10))
        return "**\(note.title)**\n\n`\(note.id)` · \(date)\n\n---\n\n" + lines.joined(separator: "\n")
    }
}
