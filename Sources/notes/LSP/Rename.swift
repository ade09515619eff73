import Foundation
import NotesKit

/// What a client can do with a `WorkspaceEdit`, from its `workspace.workspaceEdit` capabilities.
struct WorkspaceEditSupport {
    /// Whether it takes `documentChanges` (announced, or implied by resource operations: Neovim
    /// 0.7 lists `rename` without announcing `documentChanges`).
    var documentChanges: Bool
    /// Whether it renames files (`resourceOperations` holds `rename`).
    var renamesFiles: Bool

    init(_ capabilities: JSONValue?) {
        let edit = capabilities?["workspace"]?["workspaceEdit"]
        let operations = edit?["resourceOperations"]?.arrayValue ?? []
        renamesFiles = operations.contains(.string("rename"))
        documentChanges = edit?["documentChanges"] == .bool(true) || !operations.isEmpty
    }
}

/// Renaming a note (a `notes move`, handed to the editor as edits and a file rename) or a
/// heading (its line and every link to it).
extension LanguageFeatures {
    /// What a rename at a position renames, and the text shown for it (bytes of the document).
    enum RenameSubject {
        /// The note a link goes to, or the document's own note on its title line.
        case note(Note, shown: Range<Int>)
        /// The heading on a line (1-based) of the document's note.
        case heading(path: String, line: Int, text: String, shown: Range<Int>)
    }

    /// The subject at a position: on a link to a note, that note; on the title line (the first
    /// `# Title` that the note's title comes from, or the front matter's `title:`), the
    /// document's note; on another heading line, or on a `[[#Heading]]` link, that heading.
    func renameSubject(_ request: TextDocumentPosition) -> (subject: RenameSubject, positions: TextPositions)?
    {
        guard let store, let path = vaultPath(of: request.uri), let text = text(of: request.uri) else {
            return nil
        }
        let catalog = catalog(store)
        let positions = TextPositions(text)
        let offset = positions.offset(line: request.line, column: request.column, encoding: encoding)
        let document = NoteDocument(parsing: text)
        let bodyStart = positions.bytes.count - document.body.utf8.count
        if let link = NoteLinks.all(document).first(where: {
            ($0.range.lowerBound + bodyStart..<$0.range.upperBound + bodyStart).contains(offset)
        }) {
            let headings = NoteAnchors.of(document)
            if link.kind == .sameNote, let written = link.heading,
                let line = headings.line(of: NoteAnchors.want(written)),
                let heading = headings.headings.first(where: { $0.line == line })
            {
                let shown = (bodyStart + link.range.lowerBound)..<(bodyStart + link.range.upperBound)
                return (.heading(path: path, line: line, text: heading.text, shown: shown), positions)
            }
            guard link.kind == .note, let note = catalog.target(of: link, from: path) else { return nil }
            let shown = (bodyStart + link.targetRange.lowerBound)..<(bodyStart + link.targetRange.upperBound)
            return (.note(note, shown: shown), positions)
        }
        let line = positions.lineRange(request.line)
        let bytes = Array(positions.bytes[line])
        let key = Array("title:".utf8)
        if line.upperBound <= bodyStart, bytes.starts(with: key), let own = catalog.note(atPath: path) {
            let value = bytes[key.count...].firstIndex { $0 != 0x20 && $0 != 0x09 } ?? bytes.count
            return (.note(own, shown: (line.lowerBound + value)..<line.upperBound), positions)
        }
        let headings = NoteAnchors.of(document).headings
        guard let heading = headings.first(where: { $0.line == request.line + 1 }) else { return nil }
        let start = bytes.firstIndex { $0 != UInt8(ascii: "#") && $0 != 0x20 && $0 != 0x09 } ?? 0
        let shown = (line.lowerBound + start)..<(line.lowerBound + start + heading.text.utf8.count)
        if let own = catalog.note(atPath: path), heading.level == 1,
            headings.first(where: { $0.level == 1 }) == heading, own.title == heading.text
        {
            return (.note(own, shown: shown), positions)
        }
        return (.heading(path: path, line: heading.line, text: heading.text, shown: shown), positions)
    }

    /// `prepareRename`: the range and current name (a note's ID, a heading's text), or null
    /// where nothing can be renamed.
    func prepareRename(_ request: TextDocumentPosition) throws -> JSONValue {
        guard let (subject, positions) = renameSubject(request) else { return .null }
        switch subject {
        case .note(let note, let shown):
            return .object(["range": lspRange(shown, positions), "placeholder": .string(note.id)])
        case .heading(_, _, let text, let shown):
            return .object(["range": lspRange(shown, positions), "placeholder": .string(text)])
        }
    }

    /// `rename`: the `WorkspaceEdit` of renaming the subject at the position to `newName`.
    func rename(_ params: JSONValue, support: WorkspaceEditSupport) throws -> JSONValue {
        let request = try TextDocumentPosition(params)
        guard let newName = params["newName"]?.stringValue else {
            throw LanguageServer.Failure(code: .invalidParams, message: "Expected newName.")
        }
        guard let (subject, _) = renameSubject(request) else {
            throw LanguageServer.Failure(
                code: .requestFailed,
                message: "Nothing to rename here: rename on a link, the title line or a heading.")
        }
        switch subject {
        case .note(let note, _): return try renameNote(note, to: newName, support: support)
        case .heading(let path, let line, _, _):
            return try renameHeading(inNoteAt: path, line: line, to: newName, support: support)
        }
    }

    /// The open documents of the vault, by vault path.
    private var buffers: [String: String] {
        var buffers: [String: String] = [:]
        for uri in documents.uris {
            if let path = vaultPath(of: uri), let text = documents[uri]?.text { buffers[path] = text }
        }
        return buffers
    }

    /// The edits `notes move` would make, then the file rename: the moved note's edits under its
    /// old URI, the `RenameFile`, then each linking note's edits. The folder the new place
    /// needs is made first, as no edit can make one.
    private func renameNote(_ note: Note, to newName: String, support: WorkspaceEditSupport) throws
        -> JSONValue
    {
        guard let store else { return .null }
        guard support.renamesFiles else {
            throw LanguageServer.Failure(
                code: .requestFailed,
                message:
                    "This editor cannot rename files; in a terminal, run: "
                    + Shell.notes("move", Shell.quote(note.id), argument: newName))
        }
        let plan: MovePlan
        do {
            // The session's catalog is what requests read; the plan is made from this store's
            // own, so it is brought up to date with the files first.
            freshen(store)
            plan = try store.planMove(try store.load(note), to: newName, buffers: buffers)
            if let stale = plan.notes.first(where: { $0.workedOn == .nothing }) {
                throw LanguageServer.Failure(
                    code: .requestFailed,
                    message: "'\(stale.id)' changed on disk since the vault was read; try the rename again.")
            }
            try store.makeFolders(for: plan)
        } catch let error as VaultError {
            throw LanguageServer.Failure(code: .requestFailed, message: ErrorReport(error).sentence)
        }
        let oldURI = uri(ofNote: plan.from)
        var changes: [JSONValue] = []
        let own = plan.notes.first { $0.path == plan.from }
        if let own { changes.append(textDocumentEdit(oldURI, own.edits)) }
        changes.append(
            .object([
                "kind": .string("rename"), "oldUri": .string(oldURI), "newUri": .string(uri(ofNote: plan.to)),
            ]))
        for entry in plan.notes where entry.path != plan.from {
            changes.append(textDocumentEdit(uri(ofNote: entry.path), entry.edits))
        }
        return .object(["documentChanges": .array(changes)])
    }

    /// The heading's new text on its line and in every link to it.
    private func renameHeading(
        inNoteAt path: String, line: Int, to newName: String, support: WorkspaceEditSupport
    ) throws -> JSONValue {
        guard let store else { return .null }
        let name = newName.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, !name.contains(where: { "#|[]^\n\r".contains($0) }) else {
            throw LanguageServer.Failure(
                code: .requestFailed,
                message: "A heading that links reach cannot be empty or hold #, |, [, ], ^ or a line break.")
        }
        freshen(store)
        guard let files = store.planHeadingRename(inNoteAt: path, line: line, to: name, buffers: buffers)
        else {
            throw LanguageServer.Failure(code: .requestFailed, message: "No heading on that line.")
        }
        if support.documentChanges {
            return .object([
                "documentChanges": .array(files.map { textDocumentEdit(uri(ofNote: $0.path), $0.edits) })
            ])
        }
        var changes = JSONObject()
        for file in files {
            let uri = uri(ofNote: file.path)
            changes[uri] = .array(textEdits(uri, file.edits))
        }
        return .object(["changes": .object(changes)])
    }

    /// A `TextDocumentEdit`: versioned when the document is open (its edits are of its buffer).
    private func textDocumentEdit(_ uri: String, _ edits: [ByteEdit]) -> JSONValue {
        let version: JSONValue = documents[uri].map { .int($0.version) } ?? .null
        return .object([
            "textDocument": .object(["uri": .string(uri), "version": version]),
            "edits": .array(textEdits(uri, edits)),
        ])
    }

    /// Byte edits of a document's text (its buffer when open, else its file) as `TextEdit`s.
    private func textEdits(_ uri: String, _ edits: [ByteEdit]) -> [JSONValue] {
        let positions = TextPositions(text(of: uri) ?? "")
        return edits.map { edit in
            .object(["range": lspRange(edit.range, positions), "newText": .string(edit.replacement)])
        }
    }

    private func lspRange(_ bytes: Range<Int>, _ positions: TextPositions) -> JSONValue {
        let start = positions.position(of: bytes.lowerBound, encoding: encoding)
        let end = positions.position(of: bytes.upperBound, encoding: encoding)
        return .object([
            "start": .object(["line": .int(start.line), "character": .int(start.column)]),
            "end": .object(["line": .int(end.line), "character": .int(end.column)]),
        ])
    }
}

extension LanguageFeatures {
    /// Brings the store's own catalog up to date with the files (a rename plans from it, not from
    /// the session's), logging what the read warns about.
    func freshen(_ store: NoteStore) {
        _ = store.refresh()
        for diagnostic in store.takeDiagnostics() { log("notes lsp: warning: \(diagnostic.description)") }
    }
}
