import Foundation
import NotesKit
import TestSupport
import Testing

/// `textDocument/publishDiagnostics` of `notes lsp`: each kind at its exact range, in UTF-16 and
/// UTF-8, the same broken links as `notes links --broken`, and published again when the vault or
/// another buffer mends a link, and cleared on close.
@Suite struct LSPDiagnosticsTests {
    /// Emoji, CJK and a combining mark before the links.
    static let linkLine =
        "😀 中文 cafe\u{301} [[nowhere]] [[beta#No Such]] [[beta#^nope]] [[beta#Plan]] ![[photo.png]] [x](gone.md)"
    static let text =
        "---\ncreatedAt: not a date\n---\n# Doc\n\n\(linkLine)\n\n<<<<<<< HEAD\nmine\n=======\ntheirs\n>>>>>>> other\n"

    static func vault() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.write("beta.md", "# Beta\n\n## Plan\n\nA block ^here\n")
        return sandbox
    }

    static func diagnostics(_ client: LSPClient, _ uri: String) throws -> [JSONValue] {
        try client.next("textDocument/publishDiagnostics") { $0["params"]?["uri"] == .string(uri) }[
            "params"]?[
                "diagnostics"]?.arrayValue ?? []
    }

    /// A diagnostic's range, severity, code and source.
    static func shape(_ diagnostic: JSONValue) -> String {
        let range = diagnostic["range"] ?? .null
        func position(_ key: String) -> String {
            "\(range[key]?["line"]?.intValue ?? -1):\(range[key]?["character"]?.intValue ?? -1)"
        }
        return
            "\(position("start"))-\(position("end")) \(diagnostic["severity"]?.intValue ?? 0) \(diagnostic["code"]?.stringValue ?? "") \(diagnostic["source"]?.stringValue ?? "")"
    }

    @Test(arguments: [false, true])
    func eachKindAtItsRange(utf8: Bool) throws {
        let sandbox = try Self.vault()
        let client = try LSPClient(sandbox)
        let encodings: JSONValue = .array(utf8 ? [.string("utf-8")] : [.string("utf-16")])
        try client.initialize(capabilities: .object(["general": .object(["positionEncodings": encodings])]))
        let doc = LSPFeatureTests.uri(sandbox, "doc.md")
        client.open(doc, Self.text)
        let found = try Self.diagnostics(client, doc)
        func link(_ part: String) -> String {
            let start = LSPFeatureTests.column(of: part, in: Self.linkLine, utf8: utf8)
            let length = utf8 ? part.utf8.count : part.utf16.count
            return "5:\(start)-5:\(start + length)"
        }
        #expect(
            found.map(Self.shape) == [
                "1:0-1:21 2 front-matter notes",
                "\(link("[[nowhere]]")) 2 broken-link notes",
                "\(link("[[beta#No Such]]")) 2 missing-heading notes",
                "\(link("[[beta#^nope]]")) 2 missing-block notes",
                "\(link("![[photo.png]]")) 2 broken-link notes",
                "\(link("[x](gone.md)")) 2 broken-link notes",
                "7:0-7:12 1 conflict-markers notes",
            ])
        // The columns are right after the combining mark: the link starts after "é" (two scalars).
        #expect(LSPFeatureTests.column(of: "[[nowhere]]", in: Self.linkLine) == 12)
        // The same broken links as `notes links --broken`, once the buffer is saved.
        try sandbox.write("doc.md", Self.text)
        let cli = try sandbox.run(["links", "--broken", "--json"])
        let broken = try JSONValue.parse(cli.stdout).arrayValue ?? []
        let texts = broken.filter { $0["id"] == .string("doc") }.compactMap { $0["text"]?.stringValue }
        #expect(
            texts == ["[[nowhere]]", "[[beta#No Such]]", "[[beta#^nope]]", "![[photo.png]]", "[x](gone.md)"])
        let linkCodes: Set<String> = ["broken-link", "missing-heading", "missing-block"]
        #expect(found.filter { linkCodes.contains($0["code"]?.stringValue ?? "") }.count == texts.count)
        try client.request("shutdown")
        #expect(client.finish() == 0)
    }

    @Test func publishedAgainAfterAChangeAndClearedOnClose() throws {
        let sandbox = try Self.vault()
        let client = try LSPClient(sandbox)
        try client.initialize()
        let doc = LSPFeatureTests.uri(sandbox, "doc.md")
        client.open(doc, "# Doc\n\n[[beta]]\n")
        #expect(try Self.diagnostics(client, doc).isEmpty)
        client.notify(
            "textDocument/didChange",
            .object([
                "textDocument": .object(["uri": .string(doc), "version": .int(2)]),
                "contentChanges": .array([
                    .object(["range": LSPFeatureTests.range(2, 2, 6), "text": .string("ghost")])
                ]),
            ]))
        #expect(try Self.diagnostics(client, doc).map(Self.shape) == ["2:0-2:9 2 broken-link notes"])
        client.notify("textDocument/didClose", .object(["textDocument": .object(["uri": .string(doc)])]))
        #expect(try Self.diagnostics(client, doc).isEmpty)
        try client.request("shutdown")
        #expect(client.finish() == 0)
    }

    @Test func republishedWhenANewNoteOrAnotherBufferMendsALink() throws {
        let sandbox = try Self.vault()
        let client = try LSPClient(sandbox)
        try client.initialize()
        let doc = LSPFeatureTests.uri(sandbox, "doc.md")
        let beta = LSPFeatureTests.uri(sandbox, "beta.md")
        client.open(doc, "[[later]] [[beta#Fresh]]\n")
        #expect(
            try Self.diagnostics(client, doc).map(Self.shape) == [
                "0:0-0:9 2 broken-link notes", "0:10-0:24 2 missing-heading notes",
            ])
        // A note made in a terminal mends the first link, with no word from the client.
        let add = try sandbox.run(["add", "--title", "Later", "Written in a terminal"])
        #expect(add.status == 0 && sandbox.exists("later.md"), "\(add)")
        #expect(try Self.diagnostics(client, doc).map(Self.shape) == ["0:10-0:24 2 missing-heading notes"])
        // The heading typed in beta's buffer (not saved) mends the second.
        client.open(beta, "# Beta\n")
        client.notify(
            "textDocument/didChange",
            .object([
                "textDocument": .object(["uri": .string(beta), "version": .int(2)]),
                "contentChanges": .array([.object(["text": .string("# Beta\n\n## Fresh\n")])]),
            ]))
        #expect(try Self.diagnostics(client, doc).isEmpty)
        try client.request("shutdown")
        #expect(client.finish() == 0)
    }
}
