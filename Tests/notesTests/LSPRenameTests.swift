import Foundation
import NotesKit
import TestSupport
import Testing

/// `prepareRename` and `rename` of `notes lsp`: a note rename is `notes move`'s edits, byte for
/// byte, and a file rename; a heading rename rewrites the heading and the links to it.
@Suite struct LSPRenameTests {
    static let trip = "trip/Trip to Łódź.md"
    /// A line of emoji, CJK and combining marks before the links, so columns differ in UTF-16
    /// and UTF-8.
    static let wide = "😀 中文 e\u{301} 🎉"
    static let planLine =
        "\(wide) [[Trip to Łódź]] and [[Trip to Łódź|the trip]] and [[Trip to Łódź#Day 1]] and [[Lodz]]"

    static let files: [(String, String)] = [
        (
            trip,
            "---\ncreatedAt: 2026-01-01T00:00:00Z\naliases: [Lodz]\n---\n# Trip to Łódź\n\nSee the [plan](../ideas/plan.md).\n\n## Day 1\n\nArrive. Back to [[#Day 1]].\n"
        ),
        (
            "ideas/plan.md",
            "---\ncreatedAt: 2026-01-02T00:00:00Z\n---\n# Plan\n\n\(wide)\n\(planLine)\n\(wide) [t](../trip/Trip%20to%20Łódź.md) [d](../trip/Trip%20to%20Łódź.md#Day%201)\n"
        ),
        ("index.md", "# Index\n\n[[trip/Trip to Łódź]] · [x](trip/Trip%20to%20Łódź.md) · [[plan]]\n"),
        ("deep/a/b.md", "# B\n\n🎉🎉 [[Trip to Łódź]] `[[Trip to Łódź]]` [[Trip to Łódź#Day 1|day]]\n"),
        ("other.md", "# Other\n\n[[plan]] and nothing else\n"),
    ]

    static func vault() throws -> Sandbox {
        let sandbox = try Sandbox()
        for (path, text) in files { try sandbox.write(path, text) }
        return sandbox
    }

    static func uri(_ sandbox: Sandbox, _ path: String) -> String { FileURI.uri(sandbox.vault + "/" + path) }

    /// Neovim 0.7's capabilities: resource operations without `documentChanges`.
    static func capabilities(
        utf8: Bool = false, resourceOperations: [String]? = ["rename", "create", "delete"]
    )
        -> JSONValue
    {
        var capabilities: JSONObject = [
            "general": .object(["positionEncodings": .array(utf8 ? [.string("utf-8")] : [])])
        ]
        if let resourceOperations {
            capabilities["workspace"] = .object([
                "workspaceEdit": .object([
                    "resourceOperations": .array(resourceOperations.map { .string($0) })
                ])
            ])
        }
        return .object(capabilities)
    }

    static func column(of part: String, in line: String, utf8: Bool) -> Int {
        LSPFeatureTests.column(of: part, in: line, utf8: utf8)
    }

    static func rename(_ uri: String, _ line: Int, _ character: Int, to name: String) -> JSONValue {
        guard case .object(var params) = LSPClient.at(uri, line, character) else { return .null }
        params["newName"] = .string(name)
        return .object(params)
    }

    /// Rename from a link (the linking note open, or not) and from the title line: the edit,
    /// applied to one copy of the vault, leaves it byte for byte as `notes move` leaves another;
    /// the new folders exist before the edit is applied.
    @Test(arguments: [(false, "link"), (true, "link"), (false, "title"), (true, "open")])
    func aNoteRenameIsExactlyAMove(utf8: Bool, from place: String) throws {
        let edited = try Self.vault()
        let moved = try Self.vault()
        let new = "archive/2026/Łódź trip"
        let client = try LSPClient(edited)
        try client.initialize(capabilities: Self.capabilities(utf8: utf8))
        let plan = Self.uri(edited, "ideas/plan.md")
        var buffers: [String: String] = [:]
        let request: JSONValue
        if place == "title" {
            request = Self.rename(Self.uri(edited, Self.trip), 4, 3, to: new)
        } else {
            if place == "open" {
                let text = try edited.read("ideas/plan.md")
                client.open(plan, text)
                buffers[plan] = text
            }
            let column = Self.column(of: "[[Trip to Łódź|", in: Self.planLine, utf8: utf8) + 4
            request = Self.rename(plan, 6, column, to: new)
        }
        let answer = try client.request("textDocument/rename", request)
        let edit = try #require(answer["result"], "\(answer.compact)")
        #expect(edited.exists("archive/2026"))
        let changes = try #require(edit["documentChanges"]?.arrayValue)
        // The moved note's own edits under its old URI, then the rename, then the linking notes.
        #expect(changes.first?["textDocument"]?["uri"] == .string(Self.uri(edited, Self.trip)))
        #expect(changes.dropFirst().first?["kind"] == .string("rename"))
        let versions = changes.compactMap { change -> JSONValue? in
            change["textDocument"]?["uri"] == .string(plan) ? change["textDocument"]?["version"] : nil
        }
        #expect(versions == [place == "open" ? .int(1) : .null])
        var applier = WorkspaceEditApplier(encoding: utf8 ? .utf8 : .utf16, buffers: buffers)
        try applier.apply(edit)
        try applier.saveAll()
        let result = try moved.run(["move", "trip/Trip to Łódź", new])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("10 links in 4 notes"), "\(result)")
        let after = VaultFiles.of(edited.vault)
        let expected = VaultFiles.of(moved.vault)
        #expect(after.keys.sorted() == expected.keys.sorted())
        for (path, bytes) in expected where after[path] != bytes {
            Issue.record("\(path) differs:\n\(String(decoding: after[path] ?? [], as: UTF8.self))")
        }
        try client.request("shutdown")
        #expect(client.finish() == 0)
    }

    /// An open document's unsaved text counts: its links are found and its edits made in the
    /// buffer as typed, not in the file.
    @Test func anOpenBuffersUnsavedTextIsWhatItsEditsAreOf() throws {
        let sandbox = try Self.vault()
        let client = try LSPClient(sandbox)
        try client.initialize(capabilities: Self.capabilities())
        let other = Self.uri(sandbox, "other.md")
        let typed = "# Other\n\n😀 typed [[Trip to Łódź]] first\n\n[[plan]] and nothing else\n"
        client.open(other, typed)
        let answer = try client.request("textDocument/rename", Self.rename(other, 2, 12, to: "Lodz trip"))
        let edit = try #require(answer["result"])
        var applier = WorkspaceEditApplier(buffers: [other: typed])
        try applier.apply(edit)
        #expect(
            applier.buffers[other] == "# Other\n\n😀 typed [[Lodz trip]] first\n\n[[plan]] and nothing else\n")
        #expect(try sandbox.read("other.md") == "# Other\n\n[[plan]] and nothing else\n")
        #expect(sandbox.exists("Lodz trip.md"))
        #expect(
            try sandbox.read("deep/a/b.md")
                == "# B\n\n🎉🎉 [[Lodz trip]] `[[Trip to Łódź]]` [[Lodz trip#Day 1|day]]\n")
    }

    /// A rename plans from the vault as it is now: a note that links to the renamed one, written
    /// after an earlier rename, gets its edit too.
    @Test func aSecondRenameSeesWhatChangedSinceTheFirst() throws {
        let sandbox = try Self.vault()
        let client = try LSPClient(sandbox)
        try client.initialize(capabilities: Self.capabilities())
        let first = try client.request(
            "textDocument/rename", Self.rename(Self.uri(sandbox, "index.md"), 2, 40, to: "plans"))
        #expect(first["result"]?["documentChanges"] != nil)
        try sandbox.write("linker.md", "# Linker\n\nSee [[other]].\n")
        let answer = try client.request(
            "textDocument/rename", Self.rename(Self.uri(sandbox, "other.md"), 0, 3, to: "others"))
        let changes = try #require(answer["result"]?["documentChanges"]?.arrayValue)
        let uris = changes.compactMap { $0["textDocument"]?["uri"]?.stringValue }
        #expect(uris.contains(Self.uri(sandbox, "linker.md")))
    }

    /// `prepareRename` offers the note's ID on a link and on the title line, the heading's text on
    /// another heading line, and nothing elsewhere.
    @Test(arguments: [false, true])
    func prepareRenameOffersTheIDOrTheHeading(utf8: Bool) throws {
        let sandbox = try Self.vault()
        let client = try LSPClient(sandbox)
        try client.initialize(capabilities: Self.capabilities(utf8: utf8))
        let plan = Self.uri(sandbox, "ideas/plan.md")
        let trip = Self.uri(sandbox, Self.trip)
        func prepare(_ uri: String, _ line: Int, _ character: Int) throws -> JSONValue? {
            try client.request("textDocument/prepareRename", LSPClient.at(uri, line, character))["result"]
        }
        let start = Self.column(of: "[[Trip to Łódź|", in: Self.planLine, utf8: utf8) + 2
        let length = utf8 ? "Trip to Łódź".utf8.count : "Trip to Łódź".utf16.count
        #expect(
            try prepare(plan, 6, start + 3)
                == .object([
                    "range": LSPFeatureTests.range(6, start, start + length),
                    "placeholder": .string("trip/Trip to Łódź"),
                ]))
        #expect(
            try prepare(trip, 4, 5)
                == .object([
                    "range": LSPFeatureTests.range(4, 2, 2 + length),
                    "placeholder": .string("trip/Trip to Łódź"),
                ]))
        #expect(
            try prepare(trip, 8, 4)
                == .object(["range": LSPFeatureTests.range(8, 3, 8), "placeholder": .string("Day 1")]))
        #expect(try prepare(trip, 10, 2) == .null)
        // A link to a heading of the note itself renames that heading.
        #expect(
            try prepare(trip, 10, 18)
                == .object(["range": LSPFeatureTests.range(10, 16, 26), "placeholder": .string("Day 1")]))
        #expect(try prepare(plan, 5, 2) == .null)
        try client.request("shutdown")
        #expect(client.finish() == 0)
    }

    /// On a heading line: the heading and every link to it, wiki and Markdown, in files and in
    /// open buffers (as typed); the front matter and other links untouched. Without
    /// `documentChanges`, the edit comes as `changes`.
    @Test(arguments: [(true, 8, 4), (false, 8, 4), (true, 10, 18)])
    func aHeadingRenameRewritesTheHeadingAndItsLinks(documentChanges: Bool, line: Int, character: Int) throws
    {
        let sandbox = try Self.vault()
        let client = try LSPClient(sandbox)
        try client.initialize(
            capabilities: Self.capabilities(resourceOperations: documentChanges ? ["rename"] : nil))
        let trip = Self.uri(sandbox, Self.trip)
        let other = Self.uri(sandbox, "other.md")
        let typed = "# Other\n\n\(Self.wide) [[Trip to Łódź#day 1]] [[Trip to Łódź#Day 2]]\n"
        client.open(other, typed)
        let answer = try client.request(
            "textDocument/rename", Self.rename(trip, line, character, to: "Day One"))
        let edit = try #require(answer["result"], "\(answer.compact)")
        #expect((edit["documentChanges"] != nil) == documentChanges)
        var applier = WorkspaceEditApplier(buffers: [other: typed])
        try applier.apply(edit)
        try applier.saveAll()
        #expect(
            try sandbox.read(Self.trip)
                == Self.files[0].1.replacingOccurrences(of: "## Day 1", with: "## Day One")
                .replacingOccurrences(of: "[[#Day 1]]", with: "[[#Day One]]"))
        let plan = Self.files[1].1.replacingOccurrences(of: "Łódź#Day 1]]", with: "Łódź#Day One]]")
            .replacingOccurrences(of: "md#Day%201)", with: "md#Day%20One)")
        #expect(try sandbox.read("ideas/plan.md") == plan)
        #expect(
            try sandbox.read("deep/a/b.md")
                == "# B\n\n🎉🎉 [[Trip to Łódź]] `[[Trip to Łódź]]` [[Trip to Łódź#Day One|day]]\n")
        #expect(
            try sandbox.read("other.md")
                == "# Other\n\n\(Self.wide) [[Trip to Łódź#Day One]] [[Trip to Łódź#Day 2]]\n")
        try client.request("shutdown")
        #expect(client.finish() == 0)
    }

    /// A client that cannot rename files is told to run `notes move`; a taken name, a place
    /// outside the vault, and a heading that links cannot reach are refused — nothing changes.
    @Test(
        arguments: [
            ("trip", nil, "archive/x", "notes move 'trip/Trip to Łódź' archive/x"),
            ("trip", ["rename"], "ideas/plan", "already exists"),
            ("trip", ["rename"], "../outside", "outside the vault"),
            ("trip", ["rename"], "bad#name", "cannot hold"),
            ("heading", ["rename"], "Day|1", "cannot be empty or hold"),
        ] as [(String, [String]?, String, String)])
    func aRenameThatCannotBeIsRefused(
        _ at: String, _ operations: [String]?, _ name: String, _ fragment: String
    )
        throws
    {
        let sandbox = try Self.vault()
        let before = VaultFiles.of(sandbox.vault)
        let client = try LSPClient(sandbox)
        try client.initialize(capabilities: Self.capabilities(resourceOperations: operations))
        let trip = Self.uri(sandbox, Self.trip)
        let answer = try client.request(
            "textDocument/rename", Self.rename(trip, at == "trip" ? 4 : 8, 4, to: name))
        #expect(answer["error"]?["code"] == .int(-32803), "\(answer.compact)")
        let message = answer["error"]?["message"]?.stringValue ?? ""
        #expect(message.contains(fragment), "\(message)")
        #expect(VaultFiles.of(sandbox.vault) == before)
        // The server reads on.
        #expect(try client.request("textDocument/prepareRename", LSPClient.at(trip, 4, 4))["result"] != .null)
        try client.request("shutdown")
        #expect(client.finish() == 0)
    }

    /// The front matter's `title:` line is the title line too.
    @Test func theFrontMatterTitleLineRenamesTheNote() throws {
        let sandbox = try Sandbox()
        try sandbox.write("n.md", "---\ntitle: Front Title\n---\nBody [[n]].\n")
        let client = try LSPClient(sandbox)
        try client.initialize(capabilities: Self.capabilities())
        let uri = Self.uri(sandbox, "n.md")
        #expect(
            try client.request("textDocument/prepareRename", LSPClient.at(uri, 1, 3))["result"]
                == .object(["range": LSPFeatureTests.range(1, 7, 18), "placeholder": .string("n")]))
        let edit = try #require(
            try client.request("textDocument/rename", Self.rename(uri, 1, 3, to: "m"))["result"])
        var applier = WorkspaceEditApplier()
        try applier.apply(edit)
        #expect(try sandbox.read("m.md") == "---\ntitle: Front Title\n---\nBody [[m]].\n")
        try client.request("shutdown")
        #expect(client.finish() == 0)
    }
}
