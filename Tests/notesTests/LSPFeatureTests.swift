import Foundation
import NotesKit
import TestSupport
import Testing

/// Definition, references and hover of `notes lsp`, with columns counted after emoji and CJK.
@Suite struct LSPFeatureTests {
    static let alphaLine = "😀 中文 [[beta]] and [[beta#Plan 🌱|the plan]] and [b](beta.md) and [[nowhere]]"

    static func vault() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.write(
            "beta.md",
            "---\ncreatedAt: 2026-01-01T00:00:00Z\n---\n# Beta\n\nFirst line of beta.\n\n## Plan 🌱\n\nDetails.\n"
        )
        try sandbox.write("alpha.md", "# Alpha\n\n\(alphaLine)\n")
        try sandbox.write("sub/gamma.md", "# Gamma\n\nSee [[beta]].\n")
        return sandbox
    }

    static func uri(_ sandbox: Sandbox, _ path: String) -> String { FileURI.uri(sandbox.vault + "/" + path) }

    /// The column of `part` in `line`, in UTF-16 units or UTF-8 bytes.
    static func column(of part: String, in line: String, utf8: Bool = false) -> Int {
        guard let range = line.range(of: part) else { return -1 }
        return utf8
            ? line.utf8.distance(from: line.startIndex, to: range.lowerBound)
            : line.utf16.distance(from: line.startIndex, to: range.lowerBound)
    }

    static func range(_ line: Int, _ start: Int, _ end: Int) -> JSONValue {
        .object([
            "start": .object(["line": .int(line), "character": .int(start)]),
            "end": .object(["line": .int(line), "character": .int(end)]),
        ])
    }

    static func location(_ uri: String, _ line: Int, _ start: Int, _ end: Int) -> JSONValue {
        .object(["uri": .string(uri), "range": range(line, start, end)])
    }

    /// A Markdown link without `.md` (`[b](beta)`, as Obsidian reads it) goes to the note, as in
    /// `notes links`; one that a file of that name takes (`[p](photo)`) goes to no note.
    @Test func aMarkdownLinkWithoutAnExtensionGoesToItsNote() throws {
        let sandbox = try Self.vault()
        try sandbox.write("sub/delta.md", "# Delta\n\n[b](../beta#Plan%20🌱) and [p](photo)\n")
        try sandbox.write("sub/photo", "bytes")
        let client = try LSPClient(sandbox)
        _ = try client.initialize()
        let (delta, beta) = (Self.uri(sandbox, "sub/delta.md"), Self.uri(sandbox, "beta.md"))
        #expect(
            try client.request("textDocument/definition", LSPClient.at(delta, 2, 1))["result"]
                == Self.location(beta, 7, 0, 0))
        let hover = try client.request("textDocument/hover", LSPClient.at(delta, 2, 1))["result"]
        #expect(
            hover?["contents"]?["value"]?.stringValue?.contains("Beta") == true,
            "\(String(describing: hover))")
        #expect(try client.request("textDocument/definition", LSPClient.at(delta, 2, 30))["result"] == .null)
        try client.request("shutdown")
        #expect(client.finish() == 0)
    }

    @Test(arguments: [false, true])
    func definitionGoesToTheNoteAndItsHeading(utf8: Bool) throws {
        let sandbox = try Self.vault()
        let client = try LSPClient(sandbox)
        let encodings: JSONValue = .array(utf8 ? [.string("utf-8"), .string("utf-16")] : [.string("utf-16")])
        let result = try client.initialize(
            capabilities: .object(["general": .object(["positionEncodings": encodings])]))
        #expect(result["result"]?["capabilities"]?["positionEncoding"] == .string(utf8 ? "utf-8" : "utf-16"))
        let alpha = Self.uri(sandbox, "alpha.md")
        let beta = Self.uri(sandbox, "beta.md")
        func definition(_ part: String, offset: Int = 1) throws -> JSONValue? {
            let column = Self.column(of: part, in: Self.alphaLine, utf8: utf8) + offset
            return try client.request("textDocument/definition", LSPClient.at(alpha, 2, column))["result"]
        }
        #expect(try definition("[[beta]]") == Self.location(beta, 0, 0, 0))
        // On the link's last character, `]`.
        #expect(try definition("[[beta]]", offset: 7) == Self.location(beta, 0, 0, 0))
        #expect(try definition("[[beta#Plan") == Self.location(beta, 7, 0, 0))
        #expect(try definition("[b](beta.md)") == Self.location(beta, 0, 0, 0))
        #expect(try definition("[[nowhere]]") == .null)
        #expect(try definition("中文", offset: 0) == .null)
        // A position past the end of the line or the document is clamped.
        #expect(try client.request("textDocument/definition", LSPClient.at(alpha, 2, 999))["result"] == .null)
        #expect(try client.request("textDocument/definition", LSPClient.at(alpha, 99, 0))["result"] == .null)
        try client.request("shutdown")
        #expect(client.finish() == 0)
    }

    @Test(arguments: [false, true])
    func referencesAreTheBacklinksAtTheirText(utf8: Bool) throws {
        let sandbox = try Self.vault()
        let client = try LSPClient(sandbox)
        let encodings: JSONValue = .array(utf8 ? [.string("utf-8")] : [])
        try client.initialize(capabilities: .object(["general": .object(["positionEncodings": encodings])]))
        let alpha = Self.uri(sandbox, "alpha.md")
        func columns(_ part: String, _ line: String = Self.alphaLine) -> (Int, Int) {
            let start = Self.column(of: part, in: line, utf8: utf8)
            return (start, start + (utf8 ? part.utf8.count : part.utf16.count))
        }
        let (a1, a2) = columns("[[beta]]")
        let (b1, b2) = columns("[[beta#Plan 🌱|the plan]]")
        let (c1, c2) = columns("[b](beta.md)")
        let gamma = Self.uri(sandbox, "sub/gamma.md")
        let expected: JSONValue = .array([
            Self.location(alpha, 2, a1, a2), Self.location(alpha, 2, b1, b2), Self.location(alpha, 2, c1, c2),
            Self.location(gamma, 2, 4, 12),
        ])
        var params = LSPClient.at(alpha, 2, a1 + 2)
        if case .object(var object) = params {
            object["context"] = .object(["includeDeclaration": .bool(true)])
            params = .object(object)
        }
        #expect(try client.request("textDocument/references", params)["result"] == expected)
        // Elsewhere in a note: the links to that note.
        let beta = Self.uri(sandbox, "beta.md")
        #expect(try client.request("textDocument/references", LSPClient.at(beta, 5, 2))["result"] == expected)
        #expect(
            try client.request("textDocument/references", LSPClient.at(alpha, 0, 0))["result"] == .array([]))
        let backlinks = try sandbox.run(["backlinks", "beta", "--json"])
        #expect(backlinks.stdout.components(separatedBy: "\"line\"").count - 1 == 4)
        try client.request("shutdown")
        #expect(client.finish() == 0)
    }

    @Test func hoverShowsTheNoteOrSaysItIsMissing() throws {
        let sandbox = try Self.vault()
        let client = try LSPClient(sandbox)
        try client.initialize()
        let alpha = Self.uri(sandbox, "alpha.md")
        let start = Self.column(of: "[[beta]]", in: Self.alphaLine)
        let hover = try #require(
            try client.request("textDocument/hover", LSPClient.at(alpha, 2, start + 3))["result"])
        #expect(hover["contents"]?["kind"] == .string("markdown"))
        #expect(
            hover["contents"]?["value"]
                == .string(
                    "**Beta**\n\n`beta` · 2026-01-01\n\n---\n\n# Beta\n\nFirst line of beta.\n\n## Plan 🌱\n\nDetails."
                ))
        #expect(hover["range"] == Self.range(2, start, start + 8))
        let missing = Self.column(of: "[[nowhere]]", in: Self.alphaLine)
        let broken = try client.request("textDocument/hover", LSPClient.at(alpha, 2, missing))["result"]
        #expect(
            broken?["contents"]?["value"]
                == .string(
                    "No note named 'nowhere'.\n\n*Create note* (a code action) makes `nowhere.md`, titled `nowhere`."
                ))
        #expect(try client.request("textDocument/hover", LSPClient.at(alpha, 0, 0))["result"] == .null)
        try client.request("shutdown")
        #expect(client.finish() == 0)
    }

    @Test func hoverShowsAtMostTenLinesAndSixHundredCharacters() throws {
        let sandbox = try Sandbox()
        try sandbox.write("long.md", (1...30).map { "line \($0)" }.joined(separator: "\n") + "\n")
        try sandbox.write("wide.md", String(repeating: "é", count: 1000) + "\n")
        try sandbox.write("a.md", "[[long]] [[wide]]\n")
        let client = try LSPClient(sandbox)
        try client.initialize()
        let a = Self.uri(sandbox, "a.md")
        let long = try client.request("textDocument/hover", LSPClient.at(a, 0, 1))["result"]?["contents"]?[
            "value"]
        let body = try #require(long?.stringValue?.components(separatedBy: "---\n\n").last)
        #expect(body == (1...10).map { "line \($0)" }.joined(separator: "\n"))
        let wide = try client.request("textDocument/hover", LSPClient.at(a, 0, 10))["result"]?["contents"]?[
            "value"]
        #expect(
            wide?.stringValue?.components(separatedBy: "---\n\n").last == String(repeating: "é", count: 600))
        #expect(client.finish() == 1)
    }

    @Test func theOpenBufferIsTheDocumentsText() throws {
        let sandbox = try Self.vault()
        let client = try LSPClient(sandbox)
        try client.initialize()
        let alpha = Self.uri(sandbox, "alpha.md")
        let gamma = Self.uri(sandbox, "sub/gamma.md")
        client.open(alpha, "😀 x\nrest\n")
        // Incremental: `x` (after the emoji's two UTF-16 units and a blank) becomes a link.
        client.notify(
            "textDocument/didChange",
            .object([
                "textDocument": .object(["uri": .string(alpha), "version": .int(2)]),
                "contentChanges": .array([
                    .object(["range": Self.range(0, 3, 4), "text": .string("[[gamma]]")])
                ]),
            ]))
        #expect(
            try client.request("textDocument/definition", LSPClient.at(alpha, 0, 4))["result"]
                == Self.location(gamma, 0, 0, 0))
        // Full text.
        client.notify(
            "textDocument/didChange",
            .object([
                "textDocument": .object(["uri": .string(alpha), "version": .int(3)]),
                "contentChanges": .array([.object(["text": .string("no links\n")])]),
            ]))
        #expect(try client.request("textDocument/definition", LSPClient.at(alpha, 0, 4))["result"] == .null)
        client.notify("textDocument/didSave", .object(["textDocument": .object(["uri": .string(alpha)])]))
        // Closed, the file counts again.
        client.notify("textDocument/didClose", .object(["textDocument": .object(["uri": .string(alpha)])]))
        let column = Self.column(of: "[[beta]]", in: Self.alphaLine) + 1
        #expect(
            try client.request("textDocument/definition", LSPClient.at(alpha, 2, column))["result"]
                == Self.location(Self.uri(sandbox, "beta.md"), 0, 0, 0))
        try client.request("shutdown")
        #expect(client.finish() == 0)
    }

    @Test func theWorkspaceFolderFindsTheVault() throws {
        let sandbox = try Self.vault()
        let client = try LSPClient(sandbox, vaultVariable: false)
        let folder: JSONValue = .object([
            "uri": .string(FileURI.uri(sandbox.vault + "/sub")), "name": .string("sub"),
        ])
        try client.initialize(["workspaceFolders": .array([folder])])
        let gamma = Self.uri(sandbox, "sub/gamma.md")
        #expect(
            try client.request("textDocument/definition", LSPClient.at(gamma, 2, 6))["result"]
                == Self.location(Self.uri(sandbox, "beta.md"), 0, 0, 0))
        try client.request("shutdown")
        #expect(client.finish() == 0)
    }
}

/// `textDocument/documentSymbol`: the headings, nested by level.
@Suite struct LSPSymbolTests {
    static func symbol(_ name: String, _ range: JSONValue, _ selection: JSONValue, _ children: [JSONValue])
        -> JSONValue
    {
        .object([
            "name": .string(name), "kind": .int(15), "range": range, "selectionRange": selection,
            "children": .array(children),
        ])
    }

    /// Outside the vault a link resolves to nothing the server knows: hover and definition
    /// answer nothing rather than a false "no note named …" (SPEC §12).
    @Test func aLinkOutsideTheVaultHasNoHover() throws {
        let sandbox = try Sandbox()
        try sandbox.write("trip.md", "# Trip\n")
        let outside = sandbox.root.path + "/outside.md"
        try "See [[trip]] and [[gone]].\n".write(toFile: outside, atomically: true, encoding: .utf8)
        let client = try LSPClient(sandbox)
        try client.initialize()
        let uri = FileURI.uri(outside)
        client.open(uri, "See [[trip]] and [[gone]].\n")
        for character in [7, 20] {
            let at: JSONValue = .object([
                "textDocument": .object(["uri": .string(uri)]),
                "position": .object(["line": .int(0), "character": .int(character)]),
            ])
            for method in ["textDocument/hover", "textDocument/definition"] {
                #expect(try client.request(method, at)["result"] == .null, "\(method) at \(character)")
            }
        }
        try client.request("shutdown")
        #expect(client.finish() == 0)
    }

    @Test func headingsNestByLevelAlsoOutsideTheVault() throws {
        let sandbox = try Sandbox()
        let outside = sandbox.root.path + "/outside.md"
        try "# 中文 😀\n\n## Two\ntext\n### Three\n# Last\nend".write(
            toFile: outside, atomically: true, encoding: .utf8)
        let client = try LSPClient(sandbox)
        try client.initialize()
        let uri = FileURI.uri(outside)
        let result = try client.request(
            "textDocument/documentSymbol", .object(["textDocument": .object(["uri": .string(uri)])]))[
                "result"]
        let r = LSPFeatureTests.range
        let three = Self.symbol("Three", r(4, 0, 9), r(4, 0, 9), [])
        let two = Self.symbol(
            "Two", .object(["start": r(2, 0, 0)["start"]!, "end": r(4, 0, 9)["end"]!]), r(2, 0, 6), [three])
        #expect(
            result
                == .array([
                    Self.symbol(
                        "中文 😀", .object(["start": r(0, 0, 0)["start"]!, "end": r(4, 0, 9)["end"]!]),
                        r(0, 0, 7),
                        [two]),
                    Self.symbol(
                        "Last", .object(["start": r(5, 0, 0)["start"]!, "end": r(6, 0, 3)["end"]!]),
                        r(5, 0, 6), []),
                ]))
        // An open buffer is its text.
        client.open(uri, "x\n## Only\n")
        let open = try client.request(
            "textDocument/documentSymbol", .object(["textDocument": .object(["uri": .string(uri)])]))[
                "result"]
        #expect(
            open
                == .array([
                    Self.symbol(
                        "Only", .object(["start": r(1, 0, 0)["start"]!, "end": r(2, 0, 0)["end"]!]),
                        r(1, 0, 7), [])
                ]))
        try client.request("shutdown")
        #expect(client.finish() == 0)
    }
}

/// Files changed outside the editor are seen without a restart.
@Suite struct LSPOutsideChangeTests {
    @Test func notesAddedRewrittenAndRemovedOutsideTheEditorAreSeen() throws {
        let sandbox = try Sandbox()
        try sandbox.write("alpha.md", "[[later]] [[b]]\n")
        try sandbox.write("b.md", "# B\n")
        // The catalog is brought up to date at every request, instead of at most every 2 s.
        let client = try LSPClient(sandbox, env: ["NOTES_TEST_LSP_REFRESH": "0"])
        try client.initialize()
        let alpha = LSPFeatureTests.uri(sandbox, "alpha.md")
        let later = LSPFeatureTests.uri(sandbox, "later.md")
        #expect(try client.request("textDocument/definition", LSPClient.at(alpha, 0, 2))["result"] == .null)
        let add = try sandbox.run(["add", "--title", "Later", "Written in a terminal"])
        #expect(add.status == 0 && sandbox.exists("later.md"), "\(add)")
        #expect(
            try client.request("textDocument/definition", LSPClient.at(alpha, 0, 2))["result"]
                == LSPFeatureTests.location(later, 0, 0, 0))
        // Rewritten in place: the heading is found at its new line.
        try sandbox.write("alpha.md", "[[later]] [[b#Part]]\n")
        try sandbox.write("b.md", "# B\n\nmore text\n## Part\n")
        let b = LSPFeatureTests.uri(sandbox, "b.md")
        #expect(
            try client.request("textDocument/definition", LSPClient.at(alpha, 0, 12))["result"]
                == LSPFeatureTests.location(b, 3, 0, 0))
        try FileManager.default.removeItem(atPath: sandbox.vault + "/b.md")
        #expect(try client.request("textDocument/definition", LSPClient.at(alpha, 0, 12))["result"] == .null)
        try client.request("shutdown")
        #expect(client.finish() == 0)
    }
}

extension LSPFeatureTests {
    @Test func openBuffersCountAsTypedInReferences() throws {
        let sandbox = try Self.vault()
        let client = try LSPClient(sandbox)
        try client.initialize()
        let alpha = Self.uri(sandbox, "alpha.md")
        let gamma = Self.uri(sandbox, "sub/gamma.md")
        let delta = Self.uri(sandbox, "sub/delta.md")
        // gamma's buffer links twice on its first line; delta exists only as a buffer.
        client.open(gamma, "x [[beta]] [[beta]]\n")
        client.open(delta, "[[beta]]\n")
        client.open(alpha, "nothing\n")
        let beta = Self.uri(sandbox, "beta.md")
        let result = try client.request("textDocument/references", LSPClient.at(beta, 5, 0))["result"]
        #expect(
            result
                == .array([
                    Self.location(delta, 0, 0, 8), Self.location(gamma, 0, 2, 10),
                    Self.location(gamma, 0, 11, 19),
                ]))
        try client.request("shutdown")
        #expect(client.finish() == 0)
    }
}

extension LSPSymbolTests {
    @Test func workspaceSymbolsAreNotesByFoldedTitleOrIDNewestFirst() throws {
        let sandbox = try Sandbox()
        try sandbox.write("trip.md", "---\ncreatedAt: 2026-01-02T00:00:00Z\n---\n# Trip to Łódź\n")
        try sandbox.write("work/lodz-notes.md", "---\ncreatedAt: 2026-01-03T00:00:00Z\n---\n# Other\n")
        try sandbox.write("café.md", "---\ncreatedAt: 2026-01-01T00:00:00Z\n---\n# Café\n")
        for i in 0..<120 {
            try sandbox.write("many/n\(i).md", "---\ncreatedAt: 2025-01-01T00:00:00Z\n---\n# N \(i)\n")
        }
        let client = try LSPClient(sandbox)
        try client.initialize()
        let lodz = try client.request("workspace/symbol", .object(["query": .string("LODZ")]))["result"]
        let start: JSONValue = .object(["line": .int(0), "character": .int(0)])
        func symbol(_ title: String, _ id: String) -> JSONValue {
            .object([
                "name": .string(title), "kind": .int(1), "containerName": .string(id),
                "location": .object([
                    "uri": .string(LSPFeatureTests.uri(sandbox, id + ".md")),
                    "range": .object(["start": start, "end": start]),
                ]),
            ])
        }
        #expect(lodz == .array([symbol("Other", "work/lodz-notes"), symbol("Trip to Łódź", "trip")]))
        let cafe = try client.request("workspace/symbol", .object(["query": .string("cafe")]))["result"]
        #expect(cafe == .array([symbol("Café", "café")]))
        let all = try client.request("workspace/symbol", .object(["query": .string("")]))["result"]
        #expect(all?.arrayValue?.count == 100)
        #expect(try client.request("workspace/symbol", .object([:]))["error"]?["code"] == .int(-32602))
        try client.request("shutdown")
        #expect(client.finish() == 0)
    }
}
