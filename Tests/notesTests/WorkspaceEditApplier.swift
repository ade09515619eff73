import Foundation
import NotesKit
import TestSupport

/// Applies a `WorkspaceEdit` as an editor does: each `TextDocumentEdit` to the document's buffer
/// when it is open (else to its file), `RenameFile` on disk (never over a file; an open buffer
/// follows its file), `changes` by URI; then every buffer is saved, as `:wall` does.
struct WorkspaceEditApplier {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let encoding: PositionEncoding
    /// Open buffers by URI.
    var buffers: [String: String] = [:]

    init(encoding: PositionEncoding = .utf16, buffers: [String: String] = [:]) {
        self.encoding = encoding
        self.buffers = buffers
    }

    mutating func apply(_ edit: JSONValue) throws {
        if let changes = edit["documentChanges"]?.arrayValue {
            for change in changes {
                switch change["kind"]?.stringValue {
                case "rename":
                    guard let old = change["oldUri"]?.stringValue, let new = change["newUri"]?.stringValue,
                        let from = FileURI.path(old), let to = FileURI.path(new)
                    else { throw Failure(description: "a bad RenameFile: \(change.compact)") }
                    guard !FileManager.default.fileExists(atPath: to) else {
                        throw Failure(description: "the rename target exists: \(to)")
                    }
                    try FileManager.default.moveItem(atPath: from, toPath: to)
                    if let text = buffers.removeValue(forKey: old) { buffers[new] = text }
                case nil:
                    guard let uri = change["textDocument"]?["uri"]?.stringValue,
                        let edits = change["edits"]?.arrayValue
                    else { throw Failure(description: "a bad TextDocumentEdit: \(change.compact)") }
                    try applyEdits(edits, to: uri)
                case let kind?: throw Failure(description: "an unexpected resource operation \(kind)")
                }
            }
        } else if case .object(let changes)? = edit["changes"] {
            for (uri, edits) in changes.pairs { try applyEdits(edits.arrayValue ?? [], to: uri) }
        } else {
            throw Failure(description: "not a workspace edit: \(edit.compact)")
        }
    }

    /// Writes every buffer to its file.
    func saveAll() throws {
        for (uri, text) in buffers {
            guard let path = FileURI.path(uri) else { continue }
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        }
    }

    private mutating func applyEdits(_ edits: [JSONValue], to uri: String) throws {
        guard let path = FileURI.path(uri) else { throw Failure(description: "not a file URI: \(uri)") }
        let text = try buffers[uri] ?? String(contentsOfFile: path, encoding: .utf8)
        let positions = TextPositions(text)
        var ranged: [(range: Range<Int>, text: String)] = []
        for edit in edits {
            guard let range = edit["range"], let start = Self.offset(range["start"], positions, encoding),
                let end = Self.offset(range["end"], positions, encoding),
                let new = edit["newText"]?.stringValue
            else { throw Failure(description: "a bad TextEdit: \(edit.compact)") }
            ranged.append((start..<end, new))
        }
        var bytes = positions.bytes
        // Edits of one document never overlap; made from the last, the ranges stay right.
        for edit in ranged.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
            bytes.replaceSubrange(edit.range, with: Array(edit.text.utf8))
        }
        let result = String(decoding: bytes, as: UTF8.self)
        if buffers[uri] != nil {
            buffers[uri] = result
        } else {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }
    }

    private static func offset(
        _ position: JSONValue?, _ positions: TextPositions, _ encoding: PositionEncoding
    )
        -> Int?
    {
        guard let line = position?["line"]?.intValue, let column = position?["character"]?.intValue else {
            return nil
        }
        return positions.offset(line: line, column: column, encoding: encoding)
    }
}

/// Every file under a folder but the tool's state, with its bytes.
enum VaultFiles {
    static func of(_ root: String) -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let relative = enumerator?.nextObject() as? String {
            if relative == ".notes" || relative.hasPrefix(".notes/") || relative.hasPrefix(".lsp-err") {
                continue
            }
            var isFolder: ObjCBool = false
            let path = root + "/" + relative
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { continue }
            files[relative] = isFolder.boolValue ? Array("<folder>".utf8) : Disk.bytes(path)
        }
        return files
    }
}
