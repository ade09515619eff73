import Foundation
import NotesKit
import TestSupport
import Testing

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// The `Create note` code action of `notes lsp` on a broken link, carried out by the server
/// (`workspace/executeCommand`): the note it makes, where it refuses, and the commit.
@Suite struct LSPCreateNoteTests {
    static let alphaLine = "See [[ideas/Big Plan]], [[beta]], [[../escape]] and [m](sub/Minutes.md)."

    static func vault() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.write("beta.md", "# Beta\n")
        try sandbox.write("alpha.md", "# Alpha\n\n\(alphaLine)\n")
        return sandbox
    }

    static func uri(_ sandbox: Sandbox, _ path: String) -> String { FileURI.uri(sandbox.vault + "/" + path) }

    /// The code actions on line 2 of alpha.md, whole.
    static func actions(_ client: LSPClient, _ sandbox: Sandbox) throws -> [JSONValue] {
        let params: JSONValue = .object([
            "textDocument": .object(["uri": .string(uri(sandbox, "alpha.md"))]),
            "range": LSPFeatureTests.range(2, 0, alphaLine.utf16.count),
            "context": .object(["diagnostics": .array([])]),
        ])
        return try client.request("textDocument/codeAction", params)["result"]?.arrayValue ?? []
    }

    static func createNote(_ path: String) -> JSONValue {
        .object([
            "command": .string("notes.createNote"), "arguments": .array([.object(["path": .string(path)])]),
        ])
    }

    /// A new note's bytes: front matter with its creation date, then its heading.
    static func expectNewNote(
        _ text: String?, titled title: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let lines = (text ?? "").split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 5, "\(text ?? "nil")", sourceLocation: sourceLocation)
        guard lines.count == 5 else { return }
        #expect(lines[0] == "---" && lines[2] == "---" && lines[4] == "", sourceLocation: sourceLocation)
        #expect(
            lines[1].wholeMatch(of: /createdAt: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil, "\(lines[1])",
            sourceLocation: sourceLocation)
        #expect(lines[3] == "# \(title)"[...], sourceLocation: sourceLocation)
    }

    @Test func aBrokenLinkOffersCreateNoteAndTheCommandMakesIt() throws {
        let sandbox = try Self.vault()
        let client = try LSPClient(sandbox)
        let capabilities: JSONValue = .object([
            "window": .object(["showDocument": .object(["support": .bool(true)])])
        ])
        try client.initialize(capabilities: capabilities)
        let actions = try Self.actions(client, sandbox)
        // Not for `[[beta]]`, which resolves, nor for `[[../escape]]`, which would leave the vault.
        #expect(
            actions.map { $0["title"] } == [
                .string("Create note 'ideas/Big Plan'"), .string("Create note 'sub/Minutes.md'"),
            ])
        #expect(actions.first?["kind"] == .string("quickfix"))
        #expect(
            actions.first?["command"]
                == Self.createNote("ideas/Big Plan.md").merging(title: "Create note 'ideas/Big Plan'"))

        // The hover says what it would make.
        let column = LSPFeatureTests.column(of: "[[ideas", in: Self.alphaLine) + 2
        let hover = try client.request(
            "textDocument/hover", LSPClient.at(Self.uri(sandbox, "alpha.md"), 2, column))
        #expect(
            hover["result"]?["contents"]?["value"]
                == .string(
                    "No note named 'ideas/Big Plan'.\n\n*Create note* (a code action) makes `ideas/Big Plan.md`, titled `Big Plan`."
                ))

        // Completion knows no such note yet.
        #expect(try LSPCompletionTests.complete(client, sandbox, "[[big|")?.items == [])

        // The server asks the client to show the note before it answers.
        client.send(
            .object([
                "jsonrpc": .string("2.0"), "id": .int(99), "method": .string("workspace/executeCommand"),
                "params": Self.createNote("ideas/Big Plan.md"),
            ]))
        let show = try client.readMessage()
        let created = Self.uri(sandbox, "ideas/Big Plan.md")
        #expect(show["method"] == .string("window/showDocument"))
        #expect(show["params"]?["uri"] == .string(created))
        let answer = try client.response(to: .int(99))
        #expect(answer["result"]?["uri"] == .string(created), "\(answer)")
        Self.expectNewNote(Disk.text(sandbox.vault + "/ideas/Big Plan.md"), titled: "Big Plan")

        // The link resolves now, by file name; the action is gone, the Markdown link's stays.
        #expect(
            try Self.actions(client, sandbox).map { $0["title"] } == [.string("Create note 'sub/Minutes.md'")]
        )
        let definition = try client.request(
            "textDocument/definition", LSPClient.at(Self.uri(sandbox, "alpha.md"), 2, column))
        #expect(definition["result"]?["uri"] == .string(created))
        #expect(
            try LSPCompletionTests.complete(client, sandbox, "[[big|")?.items == [
                "Big Plan | ideas/Big Plan | Big Plan]]"
            ])
        let listed = try sandbox.run(["links", "--broken"])
        #expect(!listed.stdout.contains("Big Plan"), "\(listed)")

        // A Markdown link's note goes where its path points, from the linking note's folder.
        let minutes = try client.request("workspace/executeCommand", Self.createNote("sub/Minutes.md"))
        #expect(minutes["result"]?["path"] == .string("sub/Minutes.md"))
        Self.expectNewNote(Disk.text(sandbox.vault + "/sub/Minutes.md"), titled: "Minutes")

        // A note that exists now is not made again.
        let again = try client.request("workspace/executeCommand", Self.createNote("ideas/Big Plan.md"))
        #expect(again["error"]?["code"] == .int(-32803), "\(again)")
        #expect(
            again["error"]?["message"]
                == .string("The note 'ideas/Big Plan' already exists; nothing was created."),
            "\(again)")
        Self.expectNewNote(Disk.text(sandbox.vault + "/ideas/Big Plan.md"), titled: "Big Plan")
        try client.request("shutdown")
        #expect(client.finish() == 0)
    }

    @Test(arguments: ["../escape.md", "ideas/../../escape.md", "../vault-other/escape"])
    func aNoteOutsideTheVaultIsRefused(path: String) throws {
        let sandbox = try Self.vault()
        let client = try LSPClient(sandbox)
        try client.initialize()
        let answer = try client.request("workspace/executeCommand", Self.createNote(path))
        #expect(answer["error"]?["code"] == .int(-32803), "\(answer)")
        #expect(answer["error"]?["message"]?.stringValue?.contains("outside the vault") == true, "\(answer)")
        #expect(!Disk.exists(sandbox.base + "/escape.md"))
        #expect(!Disk.exists(sandbox.base + "/vault-other"))
        // The server reads on.
        #expect(try Self.actions(client, sandbox).count == 2)
        try client.request("shutdown")
        #expect(client.finish() == 0)
    }

    @Test func aReadOnlyVaultIsServedReadOnly() throws {
        if geteuid() == 0 && access("/usr/bin/setpriv", X_OK) != 0 {
            try Test.cancel("running as root, and setpriv is not there to drop CAP_DAC_OVERRIDE")
        }
        let sandbox = try Self.vault()
        // Root ignores permission bits: the server runs without the capabilities that let it.
        let wrapper =
            geteuid() == 0
            ? ["/usr/bin/setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner"] : []
        for folder in [sandbox.vault, sandbox.vault + "/.notes"] { chmod(folder, 0o555) }
        defer { for folder in [sandbox.vault, sandbox.vault + "/.notes"] { chmod(folder, 0o755) } }
        let client = try LSPClient(sandbox, wrapper: wrapper)
        try client.initialize()
        #expect(try Self.actions(client, sandbox) == [])
        let answer = try client.request("workspace/executeCommand", Self.createNote("ideas/Big Plan.md"))
        #expect(answer["error"]?["message"]?.stringValue?.contains("read-only") == true, "\(answer)")
        #expect(!Disk.exists(sandbox.vault + "/ideas"))
        try client.request("shutdown")
        #expect(client.finish() == 0)
    }

    @Test func withGitAutoCommitTheNoteIsCommittedAsAddCommitsIt() throws {
        let sandbox = try Self.vault()
        try sandbox.makeRepository()
        try sandbox.run(["config", "set", "gitAutoCommit", "true"])
        let client = try LSPClient(sandbox)
        try client.initialize()
        let answer = try client.request("workspace/executeCommand", Self.createNote("ideas/Big Plan.md"))
        #expect(answer["result"]?["path"] == .string("ideas/Big Plan.md"), "\(answer)")
        #expect(try sandbox.commitSubjects().first == "notes: add ideas/Big Plan")
        #expect(try sandbox.committedFiles() == ["ideas/Big Plan.md"])
        #expect(try sandbox.gitStatus() == "")
        try client.request("shutdown")
        #expect(client.finish() == 0)
    }
}

extension JSONValue {
    /// This object with a `title` member first.
    fileprivate func merging(title: String) -> JSONValue {
        guard case .object(let object) = self else { return self }
        var merged: JSONObject = ["title": .string(title)]
        for (key, value) in object.pairs { merged[key] = value }
        return .object(merged)
    }
}
